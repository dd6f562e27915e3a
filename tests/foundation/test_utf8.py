"""synth.text.utf8: where a lone surrogate is, escaping it, at any depth and in keys."""

from __future__ import annotations

import json

import pytest

from synth.text.utf8 import (
    ESCAPED_NOTE,
    describe,
    encodable,
    escape_surrogates,
    escape_value,
    find_unencodable,
    json_text,
    unencodable_at,
)

#: high and low surrogates, the edges of the range, and a pair given as two code points (a
#: CESU-style pair is not UTF-8 either)
SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d\ude00"]
PLACES = [("", ""), ("start ", ""), ("", " end"), ("mid ", " dle"), ("é中 ", " 🙂")]


@pytest.mark.parametrize("bad", SURROGATES)
@pytest.mark.parametrize(("before", "after"), PLACES)
def test_a_surrogate_anywhere_is_found_and_escaped(bad: str, before: str, after: str) -> None:
    text = before + bad + after
    assert unencodable_at(text) == len(before)
    assert not encodable(text)
    shown = escape_surrogates(text)
    shown.encode("utf-8")  # every writer takes it now
    assert shown.startswith(before) and shown.endswith(after)
    assert "\\ud" in shown  # visible as its escape, not dropped


@pytest.mark.parametrize("text", ["", "plain", "é中🙂 ∞", "\\ud800 (already an escape)", "\x00\x1b"])
def test_valid_text_is_the_same_object(text: str) -> None:
    assert unencodable_at(text) is None and encodable(text)
    assert escape_surrogates(text) is text
    assert escape_value({"k": [text]}) == ({"k": [text]}, [])


def test_places_name_the_path_the_key_and_the_code_point() -> None:
    value = {"a": ["ok", "bad \udfff here"], "\ud800key": {"deep": [0, {"x": "\udc80"}]}}
    places = find_unencodable(value)
    shown = [describe(p, "the value") for p in places]
    assert len(places) == 3
    assert "U+DFFF" in shown[0] and "the value['a'][1]" in shown[0] and "character 4" in shown[0]
    assert places[1].in_key and "a key of the value" in shown[1] and "U+D800" in shown[1]
    assert "['deep'][1]['x']" in shown[2] and "U+DC80" in shown[2]
    for line in shown:
        line.encode("utf-8")
    assert len(find_unencodable(value, limit=1)) == 1


@pytest.mark.parametrize("depth", [10, 1_000, 100_000])
def test_any_depth_is_walked_without_recursion(depth: int) -> None:
    value: object = "\ud800"
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    (place,) = find_unencodable(value)
    assert len(place.path) == depth
    escaped, places = escape_value(value)
    assert len(places) == 1
    inner = escaped
    for _ in range(depth):
        inner = inner[0] if type(inner) is list else inner["k"]
    assert inner == "\\ud800"


def test_escape_value_copies_only_what_it_changes_and_keeps_the_rest() -> None:
    value = {"n": 1, "f": 1.5, "b": True, "z": None, "s": ["x\udfff", ("t", "\ud800")],
             "\udc00": "k"}
    escaped, places = escape_value(value)
    assert escaped == {"n": 1, "f": 1.5, "b": True, "z": None,
                       "s": ["x\\udfff", ["t", "\\ud800"]], "\\udc00": "k"}
    assert value["s"][0] == "x\udfff"  # the original is untouched
    assert len(places) == 3


def test_json_text_never_fails_and_stays_json() -> None:
    class Odd:
        def __str__(self) -> str:
            return "odd \ud800"

    data = {"reply": "bad \udfff", "ok": "fine", "obj": Odd()}
    text = json_text(data, ensure_ascii=False, default=str)
    text.encode("utf-8")
    back = json.loads(text)
    assert back["reply"] == "bad \\udfff" and back["ok"] == "fine"
    assert "odd" in back["obj"]
    assert json_text({"a": "é"}, ensure_ascii=False) == '{"a": "é"}'  # valid text: as json
    assert "\\u" in ESCAPED_NOTE
