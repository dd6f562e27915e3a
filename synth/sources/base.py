"""The source protocol, the registry, and the file readers every source shares.

A *source* turns some collection of task descriptions (a dataset, a folder of files) into a
stream of :class:`~synth.tasks.TaskDescription` items interleaved with
:class:`~synth.tasks.SourceError` items, one per skipped record. A failure of the whole load
(no data, the hub is unreachable, a package is missing) raises :class:`SourceUnavailableError`
whose message is one line naming the fix.

Each source declares its options as a pydantic model (``Options``, ``extra="forbid"``), so an
unknown or mistyped option is refused instead of being ignored.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, ClassVar, Protocol, runtime_checkable

from pydantic import BaseModel, ValidationError

from synth.tasks import SkipReason, SourceError, TaskDescription

__all__ = [
    "MAX_LINE_BYTES",
    "DuplicateSourceError",
    "Item",
    "Source",
    "SourceUnavailableError",
    "UnknownSourceError",
    "bundled_dir",
    "display_path",
    "first_validation_error",
    "get_source",
    "iter_json_lines",
    "iter_json_stream",
    "list_sources",
    "notice",
    "register",
]

Item = TaskDescription | SourceError

#: Longest JSONL line read at all (bytes); longer lines are skipped as ``too_large`` unparsed.
MAX_LINE_BYTES = 256 * 1024 * 1024


class SourceUnavailableError(RuntimeError):
    """The source cannot load anything (missing data, offline hub, missing package)."""


class DuplicateSourceError(ValueError):
    """A source with this name is already registered."""


class UnknownSourceError(KeyError):
    """No source with this name is registered."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown source"


@runtime_checkable
class Source(Protocol):
    """A named producer of task descriptions."""

    name: str
    #: one line for ``synth sources list``
    summary: str
    #: the pydantic model of this source's options (``extra="forbid"``)
    Options: ClassVar[type[BaseModel]]

    def load(self, **options: Any) -> Iterator[Item]:
        """Validate ``options`` against :attr:`Options` (raising ``pydantic.ValidationError``)
        and yield tasks and per-item errors. Raise :class:`SourceUnavailableError` only when
        nothing at all can be loaded."""
        ...


_REGISTRY: dict[str, Source] = {}


def register(source: Source) -> Source:
    """Register ``source`` under its name; refuse a second source with the same name."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9_]*", source.name):
        raise ValueError(f"invalid source name {source.name!r} (use lower-case letters, digits, _)")
    if source.name in _REGISTRY:
        raise DuplicateSourceError(f"a source named {source.name!r} is already registered")
    _REGISTRY[source.name] = source
    return source


def get_source(name: str) -> Source:
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownSourceError(f"unknown source {name!r}; known sources: {known}") from None


def list_sources() -> list[Source]:
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def unregister(name: str) -> None:
    """Remove a source (for tests that register throwaway sources)."""
    _REGISTRY.pop(name, None)


def notice(message: str) -> None:
    """One informational line on stderr (e.g. which data a source fell back to)."""
    print(message, file=sys.stderr, flush=True)


REPO_ROOT = Path(__file__).resolve().parents[2]


def display_path(path: Path) -> str:
    """``path`` relative to the checkout when inside it (stable across machines), else as is."""
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def bundled_dir(name: str) -> Path:
    """``task_descriptions/<name>`` of this checkout (the data shipped with the project)."""
    return REPO_ROOT / "task_descriptions" / name


def first_validation_error(exc: ValidationError) -> tuple[SkipReason, str]:
    """Map a pydantic error to (reason, one-line message): missing field vs invalid field."""
    errors = exc.errors()
    missing = [e for e in errors if e["type"] == "missing"]
    chosen = missing[0] if missing else errors[0]
    loc = ".".join(str(p) for p in chosen["loc"]) or "record"
    if missing:
        names = ", ".join(".".join(str(p) for p in e["loc"]) for e in missing)
        return SkipReason.MISSING_FIELD, f"missing required field(s): {names}"
    msg = chosen["msg"]
    if len(errors) > 1:
        msg += f" (and {len(errors) - 1} more problem(s))"
    return SkipReason.INVALID_FIELD, f"{loc}: {msg}"


def iter_json_lines(
    path: Path, source: str, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, dict[str, Any]] | SourceError]:
    """Yield ``(line_number, object)`` for each JSON-object line of ``path``.

    A line that is not UTF-8, not JSON, not an object, or longer than ``max_line_bytes``
    becomes a :class:`SourceError` naming the file and line; an empty file becomes one
    ``empty_file`` error. Blank lines are ignored.
    """
    try:
        handle = path.open("rb")
    except OSError as exc:
        yield SourceError(source=source, reason=SkipReason.UNREADABLE, file=str(path),
                          message=f"cannot open: {exc.strerror or exc}")
        return
    with handle:
        yield from iter_json_stream(handle, str(path), source, max_line_bytes)


def iter_json_stream(
    handle: BinaryIO, label: str, source: str, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, dict[str, Any]] | SourceError]:
    """:func:`iter_json_lines` over an open binary stream; errors name ``label`` as the file."""

    def error(reason: SkipReason, message: str, line: int | None = None) -> SourceError:
        return SourceError(source=source, reason=reason, message=message, file=label,
                           line=line)

    records = 0
    lineno = 0
    while True:
        raw = handle.readline(max_line_bytes + 1)
        if not raw:
            break
        lineno += 1
        if len(raw) > max_line_bytes and not raw.endswith(b"\n"):
            # skip the rest of this over-long line without holding it in memory
            while raw and not raw.endswith(b"\n"):
                raw = handle.readline(1 << 20)
            records += 1
            yield error(SkipReason.TOO_LARGE, f"line longer than {max_line_bytes} bytes", lineno)
            continue
        if not raw.strip():
            continue
        records += 1
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield error(SkipReason.ENCODING,
                        f"not UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})",
                        lineno)
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            where = "column" if exc.msg.endswith(" at") else "at column"
            yield error(SkipReason.MALFORMED_JSON,
                        f"invalid JSON: {exc.msg} {where} {exc.colno}", lineno)
            continue
        if not isinstance(obj, dict):
            yield error(SkipReason.MALFORMED_JSON,
                        f"expected a JSON object, got {type(obj).__name__}", lineno)
            continue
        yield lineno, obj
    if records == 0:
        yield error(SkipReason.EMPTY_FILE, "the file is empty (no records)")
