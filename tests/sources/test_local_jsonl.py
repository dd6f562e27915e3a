"""The local (Markdown + YAML front matter) and jsonl (field mapping) sources."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from sources_helpers import FIXTURES, write_jsonl

from synth.sources import SourceUnavailableError, get_source
from synth.tasks import (
    MAX_STATEMENT_CHARS,
    SkipReason,
    SourceError,
    TaskDescription,
    TaskKind,
    make_task_id,
)


def split(items: list[Any]) -> tuple[list[TaskDescription], list[SourceError]]:
    return ([i for i in items if isinstance(i, TaskDescription)],
            [i for i in items if isinstance(i, SourceError)])


# -- local ----------------------------------------------------------------------------------


def test_local_reads_front_matter_and_body() -> None:
    tasks, errors = split(list(get_source("local").load(path=FIXTURES / "puzzles")))
    assert errors == []  # README.md is not a task description
    assert [t.id for t in tasks] == ["local/coin-weighing", "local/tile-count"]
    coin, tiles = tasks
    assert coin.kind is TaskKind.DESCRIPTION and coin.title == "Find the fake coin"
    assert coin.metadata.tags == ["logic", "search"]
    assert coin.notes is not None and "heavier or lighter" in coin.notes
    assert coin.statement.startswith("Among `n` coins exactly one is fake")
    assert "---" not in coin.statement and "id:" not in coin.statement
    assert tiles.metadata.tags == ["counting", "dp"]  # comma-separated string form
    assert tiles.notes is None
    again = [t.provenance.content_sha256 for t in split(list(
        get_source("local").load(path=FIXTURES / "puzzles")))[0]]
    assert again == [t.provenance.content_sha256 for t in tasks]


def test_local_bundled_puzzles_load(capsys: pytest.CaptureFixture[str]) -> None:
    tasks, errors = split(list(get_source("local").load()))
    assert "using the bundled puzzles" in capsys.readouterr().err
    assert errors == [] and len(tasks) >= 10
    assert all(len(t.statement) > 300 and t.metadata.tags for t in tasks)


def write(path: Path, content: str | bytes) -> Path:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


GOOD = "---\nid: good\ntitle: Good one\n---\nSolve it.\n"


def test_local_bad_files_are_per_item_errors(tmp_path: Path) -> None:
    write(tmp_path / "a_good.md", GOOD)
    write(tmp_path / "b_no_front.md", "Just a statement\nwithout a header\n")
    write(tmp_path / "c_unclosed.md", "---\nid: x\ntitle: y\nSolve it.\n")
    write(tmp_path / "d_bad_yaml.md", "---\nid: x\ntitle: [unclosed\n---\nbody\n")
    write(tmp_path / "e_no_title.md", "---\nid: no-title\n---\nbody\n")
    write(tmp_path / "f_extra_key.md", "---\nid: extra\ntitle: t\nauthor: me\n---\nbody\n")
    write(tmp_path / "g_latin1.md", b"---\nid: latin\ntitle: t\n---\ncaf\xe9 au lait\n")
    write(tmp_path / "h_empty.md", "  \n")
    write(tmp_path / "i_no_body.md", "---\nid: nobody\ntitle: t\n---\n\n")
    write(tmp_path / "j_duplicate.md", GOOD.replace("Good one", "Same id again"))
    write(tmp_path / "k_huge.md", "---\nid: huge\ntitle: t\n---\n" + "x" * (50 * 1024 * 1024))
    write(tmp_path / "l_list.md", "---\n- a\n- b\n---\nbody\n")
    write(tmp_path / "m_bad_id.md", "---\nid: has spaces\ntitle: t\n---\nbody\n")
    tasks, errors = split(list(get_source("local").load(path=tmp_path)))
    assert [t.id for t in tasks] == ["local/good"]
    got = [(Path(e.file or "").name, e.line, e.reason) for e in errors]
    assert got == [
        ("b_no_front.md", 1, SkipReason.BAD_FRONT_MATTER),
        ("c_unclosed.md", 1, SkipReason.BAD_FRONT_MATTER),
        ("d_bad_yaml.md", 3, SkipReason.BAD_FRONT_MATTER),
        ("e_no_title.md", 2, SkipReason.MISSING_FIELD),
        ("f_extra_key.md", 2, SkipReason.INVALID_FIELD),
        ("g_latin1.md", 5, SkipReason.ENCODING),
        ("h_empty.md", None, SkipReason.EMPTY_FILE),
        ("i_no_body.md", 5, SkipReason.MISSING_FIELD),
        ("j_duplicate.md", 1, SkipReason.DUPLICATE),
        ("k_huge.md", None, SkipReason.TOO_LARGE),
        ("l_list.md", 2, SkipReason.BAD_FRONT_MATTER),
        ("m_bad_id.md", 2, SkipReason.INVALID_FIELD),
    ]
    assert "title" in errors[3].message and "author" in errors[4].message
    assert "a_good.md" in errors[8].message


def test_local_statement_cap_applies_below_the_file_cap(tmp_path: Path) -> None:
    body = "y" * (MAX_STATEMENT_CHARS + 1)
    write(tmp_path / "long.md", "---\nid: long\ntitle: t\n---\n" + body)
    (error,) = list(get_source("local").load(path=tmp_path / "long.md"))
    assert isinstance(error, SourceError) and error.reason is SkipReason.TOO_LARGE
    assert error.line == 5


def test_local_missing_folder_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(SourceUnavailableError, match="does not exist"):
        get_source("local").load(path=tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceUnavailableError, match=r"no \.md files"):
        get_source("local").load(path=tmp_path / "empty")


# -- jsonl ----------------------------------------------------------------------------------


def test_jsonl_field_mapping(tmp_path: Path) -> None:
    rows: list[dict[str, Any] | str] = [
        {"name": "Sum", "question": "Add the numbers.", "meta": {"level": 1200, "labels": "a, b"},
         "samples": {"input": ["1 2\n"], "output": ["3\n"]},
         "code": "print(sum(map(int, input().split())))"},
        {"name": "Echo", "question": "Repeat the line.", "meta": {"level": 800, "labels": ["x"]},
         "samples": [{"input": "hi\n", "output": "hi\n"}]},
    ]
    path = write_jsonl(tmp_path / "mine.jsonl", rows)
    mapping = {"title": "name", "statement": "question", "rating": "meta.level",
               "tags": "meta.labels", "examples": "samples", "tests": "samples",
               "reference": "code"}
    tasks, errors = split(list(get_source("jsonl").load(path=path, map=mapping)))
    assert errors == []
    first, second = tasks
    assert first.title == "Sum" and first.statement == "Add the numbers."
    assert first.metadata.rating == 1200 and first.metadata.tags == ["a", "b"]
    assert [(e.input, e.output) for e in first.examples] == [("1 2\n", "3\n")]
    assert [t.output for t in first.tests.public] == ["3\n"]
    assert first.kind is TaskKind.STDIO_PROGRAM and not first.references[0].verified
    assert second.kind is TaskKind.DESCRIPTION and second.references == []
    assert first.id.startswith("jsonl/sum-") and first.id != second.id
    assert first.provenance.location == f"{path}:1"


def test_jsonl_unmapped_targets_use_same_named_fields(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "plain.jsonl", [
        {"id": "P-7", "title": "Seven", "statement": "Print 7.", "notes": "easy"}])
    (task,) = list(get_source("jsonl").load(path=path))
    assert isinstance(task, TaskDescription)
    assert (task.id, task.title, task.notes) == (make_task_id("jsonl", "P-7", "Print 7."), "Seven", "easy")
    assert re.fullmatch(r"jsonl/p-7-[0-9a-f]{8}", task.id)


def test_jsonl_bad_lines_are_per_item_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    lines = [
        json.dumps({"q": "Fine task."}).encode(),
        b'{"q": "unterminated',
        json.dumps({"other": "no statement here"}).encode(),
        b'{"q": "bad \xff byte"}',
        json.dumps({"q": "z" * (50 * 1024 * 1024)}).encode(),
        json.dumps({"q": "Bad rating.", "rating": "high"}).encode(),
        json.dumps({"q": "Bad examples.", "examples": [{"input": "1"}]}).encode(),
        json.dumps({"q": 42.5}).encode(),
        json.dumps({"q": ["not", "text"]}).encode(),
        json.dumps({"q": "Fine task."}).encode(),
    ]
    path.write_bytes(b"\n".join(lines) + b"\n")
    tasks, errors = split(list(get_source("jsonl").load(path=path, map={"statement": "q"})))
    assert [t.statement for t in tasks] == ["Fine task.", "42.5"]
    assert [(e.line, e.reason) for e in errors] == [
        (2, SkipReason.MALFORMED_JSON),
        (3, SkipReason.MISSING_FIELD),
        (4, SkipReason.ENCODING),
        (5, SkipReason.TOO_LARGE),
        (6, SkipReason.INVALID_FIELD),
        (7, SkipReason.INVALID_FIELD),
        (9, SkipReason.INVALID_FIELD),
        (10, SkipReason.DUPLICATE),
    ]
    assert "'q'" in errors[1].message and "field 'rating' (for rating)" in errors[4].message


def test_jsonl_options_are_checked(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "x.jsonl", [{"statement": "s"}])
    with pytest.raises(ValueError, match="unknown mapping target"):
        get_source("jsonl").load(path=path, map={"titel": "name"})
    with pytest.raises(SourceUnavailableError, match="pass --path"):
        get_source("jsonl").load()
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    (error,) = list(get_source("jsonl").load(path=empty))
    assert isinstance(error, SourceError) and error.reason is SkipReason.EMPTY_FILE
