"""Text that must be UTF-8: the check where text enters the host from untrusted code or data.

A Python ``str`` can hold *lone surrogates* (code points U+D800..U+DFFF on their own), and no
UTF-8 writer stores them: ``str.encode("utf-8")``, ``json.dumps`` into a UTF-8 file, pydantic's
JSON, orjson, a terminal or an HTTP response all raise. They reach the host three ways: a
sandboxed bootcamp's reply (the kit writes a bootcamp's strings as they are, and the host's JSON
parser takes them back), a JSON ``"\\ud800"`` escape in a model's reply, and a JSON file a run or
a library holds.

So they are checked at the boundary, once: where a value *is* data (a case, a prompt, an
answer, an observation) the caller refuses it, naming where the surrogate is
(:func:`find_unencodable`, :func:`describe`); where text is only shown (an exception message, a
traceback, a model's reply kept in a transcript) it is escaped: each lone surrogate becomes its
six-character escape ``\\udXXX`` (:func:`escape_surrogates`, :func:`escape_value`), which any
writer takes, and the reader is told.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ESCAPED_NOTE",
    "Unencodable",
    "describe",
    "encodable",
    "escape_surrogates",
    "escape_value",
    "find_unencodable",
    "json_text",
    "unencodable_at",
]

#: What a reader is told when text they see was escaped.
ESCAPED_NOTE = "text that is not valid UTF-8 (lone surrogates) is shown with \\udXXX escapes"
#: How many places :func:`escape_value` lists (it escapes all of them).
MAX_PLACES = 5



@dataclass(frozen=True, slots=True)
class Unencodable:
    """One place of a value that holds a lone surrogate: the keys and indexes that lead to the
    string (``in_key``: the last key itself), the surrogate's index in it, the surrogate, and
    the text around it (shown with :func:`repr`, which escapes surrogates)."""

    path: tuple[Any, ...]
    at: int
    char: str
    excerpt: str
    in_key: bool = False

    @property
    def code_point(self) -> str:
        return f"U+{ord(self.char):04X}"


def unencodable_at(text: str) -> int | None:
    """The index of the first character of ``text`` that UTF-8 cannot encode (a lone
    surrogate), or None when it encodes."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def encodable(text: str) -> bool:
    return unencodable_at(text) is None


def escape_surrogates(text: str) -> str:
    """``text`` with every lone surrogate replaced by its escape ``\\udXXX`` (unchanged, the
    same object, when it encodes)."""
    if unencodable_at(text) is None:
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _place_of(path: tuple[Any, ...], text: str, at: int, in_key: bool = False) -> Unencodable:
    lo, hi = max(0, at - 40), at + 40
    excerpt = ("..." if lo else "") + text[lo:hi] + ("..." if hi < len(text) else "")
    return Unencodable(path, at, text[at], excerpt, in_key)


def _path_text(path: tuple[Any, ...]) -> str:
    return "".join(f"[{p!r}]" if type(p) is str else f"[{p}]" for p in path)


def describe(place: Unencodable, what: str = "the text") -> str:
    """One line naming a lone surrogate: which one, where, and the text around it."""
    where = f"{what}{_path_text(place.path)}" if place.path else what
    if place.in_key:
        where = f"a key of {what}{_path_text(place.path[:-1])}"
    return (f"a lone surrogate {place.code_point} (not valid UTF-8) at character {place.at} of "
            f"{where}: {place.excerpt!r}")


def find_unencodable(value: Any, limit: int = MAX_PLACES) -> list[Unencodable]:
    """The first ``limit`` places of ``value`` (a plain JSON value: str, list, dict, numbers)
    that hold a lone surrogate, in a string or a key. Iterative: any depth."""
    found: list[Unencodable] = []
    # (item, its path as a chain (parent chain, key) -- built into a tuple only for a place
    # found, so a deep value costs linear time -- and whether that key is to be checked)
    stack: list[tuple[Any, Any, bool]] = [(value, None, False)]
    while stack and len(found) < limit:
        item, chain, keyed = stack.pop()
        if keyed and (at := unencodable_at(chain[1])) is not None:
            found.append(_place_of(_path(chain), chain[1], at, in_key=True))
            if len(found) >= limit:
                break
        kind = type(item)
        if kind is str:
            at = unencodable_at(item)
            if at is not None:
                found.append(_place_of(_path(chain), item, at))
        elif kind is list or kind is tuple:
            stack.extend((sub, (chain, i), False) for i, sub in reversed(list(enumerate(item))))
        elif kind is dict:
            stack.extend((sub, (chain, key), type(key) is str)
                         for key, sub in reversed(list(item.items())))
    return found


def _path(chain: Any) -> tuple[Any, ...]:
    keys = []
    while chain is not None:
        chain, key = chain
        keys.append(key)
    return tuple(reversed(keys))


def escape_value(value: Any) -> tuple[Any, list[Unencodable]]:
    """(``value`` with every lone surrogate in its strings and keys escaped, the first places
    found). A fresh container is built only where something changed; any depth."""
    places = find_unencodable(value)
    if not places:
        return value, []
    return _escaped(value), places


def _escaped(value: Any) -> Any:
    """A copy of ``value`` with every string escaped, built without recursion."""
    kind = type(value)
    if kind is str:
        return escape_surrogates(value)
    if kind not in (list, tuple, dict):
        return value
    root: list[Any] = [None]
    # (source container, target container, slot in the parent target)
    work: list[tuple[Any, Any]] = [(value, (root, 0))]
    while work:
        src, (parent, slot) = work.pop()
        if type(src) is dict:
            out_d: dict[Any, Any] = {}
            parent[slot] = out_d
            for key, sub in src.items():
                new_key = escape_surrogates(key) if type(key) is str else key
                out_d[new_key] = None
                _place(sub, out_d, new_key, work)
        else:
            out_l: list[Any] = [None] * len(src)
            parent[slot] = out_l
            for i, sub in enumerate(src):
                _place(sub, out_l, i, work)
    return root[0]


def _place(sub: Any, target: Any, slot: Any, work: list[tuple[Any, Any]]) -> None:
    kind = type(sub)
    if kind is str:
        target[slot] = escape_surrogates(sub)
    elif kind in (list, tuple, dict):
        work.append((sub, (target, slot)))
    else:
        target[slot] = sub


def json_text(value: Any, **options: Any) -> str:
    """``json.dumps(value, **options)``, always UTF-8-encodable: a lone surrogate in a string
    becomes the text ``\\udXXX`` (what a writer of logs and run files stores)."""
    text = json.dumps(value, **options)
    if encodable(text):
        return text
    text = json.dumps(escape_value(value)[0], **options)
    # what ``default`` made of other objects: escaped in the JSON text itself
    return escape_surrogates(text)
