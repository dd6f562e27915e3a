"""Local task descriptions: a folder of Markdown files with YAML front matter.

Each file looks like::

    ---
    id: knights-and-knaves
    title: Knights and knaves
    tags: [logic, truth-tables]
    notes: answer format is a comma-separated list of names
    ---
    The statement, in Markdown: everything a code model needs to write a bootcamp.

``id`` and ``title`` are required; ``tags`` (a list, or a comma-separated string) and
``notes`` are optional; other keys are refused (a typo should not be silently dropped). The
task id is ``local/<id>``. Files named ``README.md`` are not task descriptions and are skipped.
With no ``path`` the puzzles shipped in ``task_descriptions/puzzles/`` are loaded.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from synth.sources.base import (
    Item,
    SourceUnavailableError,
    bundled_dir,
    display_path,
    first_validation_error,
    notice,
)
from synth.tasks import (
    MAX_STATEMENT_CHARS,
    Provenance,
    SkipReason,
    SourceError,
    TaskDescription,
    TaskKind,
    TaskMetadata,
)

__all__ = ["FrontMatter", "LocalOptions", "LocalSource", "split_front_matter"]

NAME = "local"
BUNDLED = "puzzles"
#: files larger than this are not read at all (bytes)
MAX_FILE_BYTES = 4 * MAX_STATEMENT_CHARS + 65_536


class FrontMatter(BaseModel):
    """The YAML header of a local task description."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
    title: str = Field(min_length=1, max_length=300)
    tags: list[str] = Field(default_factory=list)
    notes: str | None = None

    @field_validator("tags", mode="before")
    @classmethod
    def _comma_tags(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [t.strip() for t in value.split(",") if t.strip()]
        return [] if value is None else value


class LocalOptions(BaseModel):
    """Options of the ``local`` source."""

    model_config = ConfigDict(extra="forbid")

    path: Path | None = Field(default=None, description="a .md file or a folder of them")
    limit: int | None = Field(default=None, ge=1, description="stop after this many tasks")


class FrontMatterError(ValueError):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def split_front_matter(text: str) -> tuple[dict[str, Any], str, int]:
    """(front matter, body, line number where the body starts); raises FrontMatterError."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        raise FrontMatterError("no YAML front matter: the file must start with a '---' line", 1)
    for end in range(1, len(lines)):
        if lines[end].strip() in ("---", "..."):
            break
    else:
        raise FrontMatterError("the front matter is not closed by a '---' line", 1)
    header = "\n".join(lines[1:end])
    try:
        data = yaml.safe_load(header)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise FrontMatterError(f"invalid YAML: {problem}", line) from None
    if not isinstance(data, dict):
        raise FrontMatterError("the front matter must be a YAML mapping (key: value lines)", 2)
    return data, "\n".join(lines[end + 1:]), end + 2


class LocalSource:
    """The ``local`` source (see the module docstring)."""

    name = NAME
    summary = ("Markdown task descriptions with YAML front matter (id, title, tags, notes); "
               "default: the bundled puzzles")
    Options: ClassVar[type[BaseModel]] = LocalOptions

    def load(self, **options: Any) -> Iterator[Item]:
        opts = LocalOptions.model_validate(options)
        path = opts.path
        bundled = path is None
        if path is None:
            path = bundled_dir(BUNDLED)
            notice(f"local: no --path given; using the bundled puzzles in {path}")
        path = Path(path)
        if path.is_file():
            files = [path]
        elif path.is_dir():
            files = sorted(
                p for p in path.rglob("*.md")
                if p.is_file() and p.name.lower() != "readme.md"
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
            if not files:
                raise SourceUnavailableError(f"local: no .md files under {path}")
        else:
            raise SourceUnavailableError(f"local: {path} does not exist; pass --path to a "
                                         "Markdown file or a folder of them")
        return self._stream(files, opts.limit, bundled)

    def _stream(self, files: list[Path], limit: int | None, bundled: bool) -> Iterator[Item]:
        seen: dict[str, str] = {}
        loaded = 0
        for file in files:
            item = self._read(file, bundled)
            if isinstance(item, TaskDescription):
                if item.id in seen:
                    item = SourceError(source=NAME, reason=SkipReason.DUPLICATE,
                                       file=display_path(file),
                                       line=1, task=item.id,
                                       message=f"id {item.id!r} already used by {seen[item.id]}")
                else:
                    seen[item.id] = display_path(file)
            yield item
            if isinstance(item, TaskDescription):
                loaded += 1
                if limit is not None and loaded >= limit:
                    return

    def _read(self, file: Path, bundled: bool) -> Item:
        def skip(reason: SkipReason, message: str, line: int | None = None) -> SourceError:
            return SourceError(source=NAME, reason=reason, message=message,
                               file=display_path(file), line=line)

        try:
            size = file.stat().st_size
            if size > MAX_FILE_BYTES:
                return skip(SkipReason.TOO_LARGE, f"file of {size:,} bytes exceeds the cap of "
                            f"{MAX_FILE_BYTES:,}")
            data = file.read_bytes()
        except OSError as exc:
            return skip(SkipReason.UNREADABLE, f"cannot read: {exc.strerror or exc}")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            return skip(SkipReason.ENCODING, f"not UTF-8 (byte 0x{data[exc.start]:02x})", line)
        text = text.replace("\r\n", "\n")
        if not text.strip():
            return skip(SkipReason.EMPTY_FILE, "the file is empty")
        try:
            header, body, body_line = split_front_matter(text)
        except FrontMatterError as exc:
            return skip(SkipReason.BAD_FRONT_MATTER, str(exc), exc.line)
        try:
            front = FrontMatter.model_validate(header)
        except ValidationError as exc:
            return skip(*first_validation_error(exc), 2)
        statement = body.strip()
        if not statement:
            return skip(SkipReason.MISSING_FIELD, "the body (the statement) is empty", body_line)
        if len(statement) > MAX_STATEMENT_CHARS:
            return skip(SkipReason.TOO_LARGE, f"statement of {len(statement):,} characters "
                        f"exceeds the cap of {MAX_STATEMENT_CHARS:,}", body_line)
        return TaskDescription(
            id=f"{NAME}/{front.id}",
            source=NAME,
            kind=TaskKind.DESCRIPTION,
            title=front.title.strip(),
            statement=statement,
            notes=front.notes,
            metadata=TaskMetadata(tags=front.tags),
            provenance=Provenance(
                dataset="bootcamp-synth puzzles" if bundled else "local Markdown files",
                location=f"{display_path(file)}:1",
                original_id=front.id,
                licence="Apache-2.0" if bundled else None,
            ),
        ).with_content_hash()
