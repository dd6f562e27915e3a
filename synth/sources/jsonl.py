"""Generic JSONL: any file of JSON objects, with a field mapping given on the command line.

``--map TARGET=FIELD`` says which record field fills which task field; ``FIELD`` may be a
dotted path (``problem.text``, ``samples.0.input``). Targets:

=================  ==========================================================================
``statement``      required: the task text
``title``          default: the id, else the statement's first line
``id``             the task id becomes ``jsonl/<slug(id)>-<hash8>``; default: ``<slug(title)>-<hash8>``
``input_spec``     input format          ``output_spec``  output format
``notes``          free text             ``tags``         a list, or a comma-separated string
``rating``         an integer            ``difficulty``   a string
``examples``       ``[{input, output}]`` or ``{input: [...], output: [...]}``
``tests``          public tests, same shapes as ``examples``
``reference``      source code of a Python 3 reference program (stdin -> stdout), unverified
=================  ==========================================================================

A target without a mapping is read from the record field of the same name when present.

``<hash8>`` is the first 8 hex digits of the normalised statement's sha256
(:func:`synth.tasks.make_task_id`): another file's ``two-sum`` with a different statement gets
another id, the same statement the same id. (Runs before this rule named an ``id``-mapped task
``jsonl/<slug(id)>``; their bootcamps keep that task id in the manifest and still load, list and
export by name; a new run of the same file makes the task again under its new id.)
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from synth.sources.base import (
    Item,
    SourceUnavailableError,
    first_validation_error,
    iter_json_lines,
)
from synth.tasks import (
    MAX_STATEMENT_CHARS,
    Example,
    Provenance,
    ReferenceProgram,
    SkipReason,
    SourceError,
    TaskDescription,
    TaskKind,
    TaskMetadata,
    TestCase,
    TestSuite,
    make_task_id,
)

__all__ = ["TARGETS", "JsonlOptions", "JsonlSource", "parse_mapping"]

NAME = "jsonl"
TARGETS = ("id", "title", "statement", "input_spec", "output_spec", "notes", "tags", "rating",
           "difficulty", "examples", "tests", "reference")


def parse_mapping(pairs: list[str]) -> dict[str, str]:
    """``["title=name", "statement=question"]`` -> ``{"title": "name", ...}``."""
    mapping: dict[str, str] = {}
    for pair in pairs:
        target, sep, field = pair.partition("=")
        if not sep or not target.strip() or not field.strip():
            raise ValueError(f"--map expects TARGET=FIELD, got {pair!r}")
        mapping[target.strip()] = field.strip()
    return mapping


class JsonlOptions(BaseModel):
    """Options of the ``jsonl`` source."""

    model_config = ConfigDict(extra="forbid")

    path: Path | None = Field(default=None, description="the .jsonl file (required)")
    map: dict[str, str] = Field(default_factory=dict, description="target -> record field")
    limit: int | None = Field(default=None, ge=1, description="stop after this many tasks")
    kind: TaskKind | None = Field(default=None, description="default: stdio_program when a "
                                  "reference is mapped, else description")

    @field_validator("map")
    @classmethod
    def _known_targets(cls, mapping: dict[str, str]) -> dict[str, str]:
        unknown = sorted(set(mapping) - set(TARGETS))
        if unknown:
            raise ValueError(f"unknown mapping target(s) {', '.join(unknown)}; "
                             f"targets: {', '.join(TARGETS)}")
        return mapping


_MISSING = object()


def _lookup(record: dict[str, Any], path: str) -> Any:
    value: Any = record
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return _MISSING
    return value


class _FieldProblem(ValueError):
    def __init__(self, reason: SkipReason, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def _text(value: Any, target: str, field: str) -> str | None:
    if value is _MISSING or value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise _FieldProblem(SkipReason.INVALID_FIELD,
                            f"{field} (for {target}): expected text, got {type(value).__name__}")
    return value


def _cases(value: Any, target: str, field: str) -> list[TestCase]:
    if value is _MISSING or value is None:
        return []
    if isinstance(value, dict) and set(value) >= {"input", "output"}:
        ins, outs = value["input"], value["output"]
        if isinstance(ins, list) and isinstance(outs, list) and len(ins) == len(outs):
            value = [{"input": i, "output": o} for i, o in zip(ins, outs, strict=True)]
    if not isinstance(value, list):
        raise _FieldProblem(SkipReason.INVALID_FIELD, f"{field} (for {target}): expected a list "
                            "of {input, output} objects")
    try:
        return [TestCase.model_validate(case) for case in value]
    except ValidationError as exc:
        raise _FieldProblem(SkipReason.INVALID_FIELD,
                            f"{field} (for {target}): {exc.errors()[0]['msg']}") from None


class JsonlSource:
    """The ``jsonl`` source (see the module docstring)."""

    name = NAME
    summary = "Any JSONL file, with a field mapping (--map statement=question --map title=name)"
    Options: ClassVar[type[BaseModel]] = JsonlOptions

    def load(self, **options: Any) -> Iterator[Item]:
        opts = JsonlOptions.model_validate(options)
        if opts.path is None:
            raise SourceUnavailableError("jsonl: pass --path to a .jsonl file (and --map "
                                         "TARGET=FIELD for fields not named like the targets)")
        path = Path(opts.path)
        if not path.is_file():
            raise SourceUnavailableError(f"jsonl: {path} is not a file")
        return self._stream(path, opts)

    def _stream(self, path: Path, opts: JsonlOptions) -> Iterator[Item]:
        seen: dict[str, int] = {}
        loaded = 0
        for rec in iter_json_lines(path, NAME):
            if isinstance(rec, SourceError):
                yield rec
                continue
            line, record = rec
            item = self._task(path, line, record, opts)
            if isinstance(item, TaskDescription):
                if item.id in seen:
                    item = SourceError(source=NAME, reason=SkipReason.DUPLICATE, file=str(path),
                                       line=line, task=item.id,
                                       message=f"id {item.id!r} already used on line "
                                               f"{seen[item.id]}")
                else:
                    seen[item.id] = line
            yield item
            if isinstance(item, TaskDescription):
                loaded += 1
                if opts.limit is not None and loaded >= opts.limit:
                    return

    def _task(self, path: Path, line: int, record: dict[str, Any], opts: JsonlOptions) -> Item:
        fields = {t: opts.map.get(t, t) for t in TARGETS}

        def get(target: str) -> Any:
            return _lookup(record, fields[target])

        def skip(reason: SkipReason, message: str) -> SourceError:
            return SourceError(source=NAME, reason=reason, message=message, file=str(path),
                               line=line)

        try:
            statement = _text(get("statement"), "statement", fields["statement"])
            if statement is None or not statement.strip():
                return skip(SkipReason.MISSING_FIELD,
                            f"missing required field {fields['statement']!r} (for statement)")
            if len(statement) > MAX_STATEMENT_CHARS:
                return skip(SkipReason.TOO_LARGE, f"statement of {len(statement):,} characters "
                            f"exceeds the cap of {MAX_STATEMENT_CHARS:,}")
            raw_id = _text(get("id"), "id", fields["id"])
            title = _text(get("title"), "title", fields["title"])
            if not title:
                title = raw_id or statement.strip().splitlines()[0][:80]
            task_id = make_task_id(NAME, raw_id or title, statement)
            tags_value = get("tags")
            if isinstance(tags_value, str):
                tags = [t.strip() for t in tags_value.split(",") if t.strip()]
            elif tags_value is _MISSING or tags_value is None:
                tags = []
            else:
                tags = tags_value
            rating_value = get("rating")
            rating = None if rating_value is _MISSING else rating_value
            examples = _cases(get("examples"), "examples", fields["examples"])
            tests = _cases(get("tests"), "tests", fields["tests"])
            code = _text(get("reference"), "reference", fields["reference"])
            references = [ReferenceProgram(language="python3", code=code)] if code else []
            kind = opts.kind or (TaskKind.STDIO_PROGRAM if references else TaskKind.DESCRIPTION)
            return TaskDescription(
                id=task_id,
                source=NAME,
                kind=kind,
                title=title.strip()[:300],
                statement=statement,
                input_spec=_text(get("input_spec"), "input_spec", fields["input_spec"]),
                output_spec=_text(get("output_spec"), "output_spec", fields["output_spec"]),
                notes=_text(get("notes"), "notes", fields["notes"]),
                examples=[Example(input=c.input, output=c.output) for c in examples],
                references=references,
                tests=TestSuite(public=tests),
                metadata=TaskMetadata(
                    rating=rating,
                    difficulty=_text(get("difficulty"), "difficulty", fields["difficulty"]),
                    tags=tags,
                ),
                provenance=Provenance(dataset="JSONL file", location=f"{path}:{line}",
                                      original_id=raw_id),
            ).with_content_hash()
        except _FieldProblem as exc:
            return skip(exc.reason, str(exc))
        except ValidationError as exc:
            reason, message = first_validation_error(exc)
            target = str(exc.errors()[0]["loc"][0]) if exc.errors()[0]["loc"] else ""
            if target in fields:
                message = f"field {fields[target]!r} (for {target}): {message}"
            return skip(reason, message)
