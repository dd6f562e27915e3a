"""CodeContests: competitive-programming problems in the ``deepmind/code_contests`` schema.

Reads the Hugging Face schema exactly (one record per problem)::

    name, description, public_tests{input[], output[]}, private_tests{...}, generated_tests{...},
    source (0 UNKNOWN_SOURCE, 1 CODECHEF, 2 CODEFORCES, 3 HACKEREARTH, 4 CODEJAM, 5 ATCODER,
    6 AIZU), difficulty (0 UNKNOWN_DIFFICULTY, 1 EASY .. 5 HARDEST, 6 EXTERNAL, 7 A .. 28 V),
    solutions{language[], solution[]}, incorrect_solutions{...} (language: 0 UNKNOWN_LANGUAGE,
    1 PYTHON (Python 2), 2 CPP, 3 PYTHON3, 4 JAVA), cf_contest_id, cf_index, cf_points,
    cf_rating, cf_tags[], is_description_translated, untranslated_description,
    time_limit{seconds, nanos}, memory_limit_bytes, input_file, output_file

from JSONL, parquet or Arrow files or folders (see :mod:`synth.sources.tabular`), from the hub
through ``datasets.load_dataset`` (``hub=True``), or, with neither, from the sample bundled in
``task_descriptions/codecontests/`` (every record file there: ``sample.jsonl``, then
``more.jsonl``; see :data:`BUNDLED_FILES`). Enum fields accept the integer codes or their names.

Selection follows the published recipe: Codeforces rating in ``[min_rating, max_rating]``
(default [1000, 2000]; unrated problems have rating 0 and fall outside any band), no file-I/O
problems, at least one Python 3 solution that reproduces the public tests when RUN in the
sandbox (up to ``max_attempts`` distinct solutions are tried; crashes and timeouts count as
failures), no duplicate statements (the first occurrence wins). Every skip is a SourceError
naming the file and record (or task) and the reason.

A task keeps up to ``max_references`` verified solutions, in the dataset's order, each a
different program (not a copy of an earlier one up to names, layout and comments:
:func:`synth.text.solutions.same_solution`). The first is the answer key compiled mode embeds; the
others vote on it, on generated inputs, in the gate's key check (:mod:`synth.gate.key`): a
solution right only on the file's own tests is caught there, not here.

A task also keeps up to ``max_incorrect`` of the record's Python 3 ``incorrect_solutions`` (distinct
programs, the dataset's order), when the data has them: real wrong submissions, on which
``synth suite-eval`` measures test suites. They are never run here and never shown to a model; a
task without any hashes as it did before they were kept (:func:`synth.tasks.content_hash`).
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from synth.sources.base import (
    Item,
    SourceUnavailableError,
    bundled_dir,
    display_path,
    first_validation_error,
    notice,
)
from synth.sources.tabular import discover_files, iter_records
from synth.sources.verify import Runner, check_program, sandbox_runner
from synth.tasks import (
    MAX_STATEMENT_CHARS,
    Example,
    IncorrectProgram,
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
    statement_key,
)
from synth.text.solutions import fingerprint, same_solution

__all__ = ["BUNDLED_FILES", "DIFFICULTIES", "LANGUAGES", "SITES", "CodeContestsOptions",
           "CodeContestsSource", "bundled_order"]

NAME = "codecontests"
HUB_DATASET = "deepmind/code_contests"

#: language code -> (dataset enum name, our language name)
LANGUAGES: dict[int, tuple[str, str]] = {
    0: ("UNKNOWN_LANGUAGE", "unknown"),
    1: ("PYTHON", "python2"),
    2: ("CPP", "cpp"),
    3: ("PYTHON3", "python3"),
    4: ("JAVA", "java"),
}
SITES = ["UNKNOWN_SOURCE", "CODECHEF", "CODEFORCES", "HACKEREARTH", "CODEJAM", "ATCODER", "AIZU"]
DIFFICULTIES = ["UNKNOWN_DIFFICULTY", "EASY", "MEDIUM", "HARD", "HARDER", "HARDEST", "EXTERNAL"]
DIFFICULTIES += [chr(c) for c in range(ord("A"), ord("V") + 1)]


def _enum_code(value: Any, names: list[str], field: str) -> int:
    """An enum field given as its integer code or its name."""
    if isinstance(value, bool):
        raise ValueError(f"{field}: expected an integer code or a name")
    if isinstance(value, int):
        if 0 <= value < len(names):
            return value
        raise ValueError(f"{field}: unknown code {value}")
    if isinstance(value, str):
        upper = value.strip().upper()
        if upper in names:
            return names.index(upper)
    raise ValueError(f"{field}: unknown value {value!r}")


_LANGUAGE_NAMES = [LANGUAGES[i][0] for i in range(len(LANGUAGES))]

_STRICT = ConfigDict(extra="forbid")


def _columns(value: Any, keys: tuple[str, str]) -> Any:
    """A list of ``{a, b}`` rows (how some exports store a sequence of structs) as the
    dataset's struct of two lists; anything else unchanged."""
    if isinstance(value, list) and all(isinstance(v, dict) and set(v) == set(keys)
                                       for v in value):
        return {k: [v[k] for v in value] for k in keys}
    return value


class _Tests(BaseModel):
    model_config = _STRICT
    input: list[str] = Field(default_factory=list)
    output: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _rows(cls, value: Any) -> Any:
        return _columns(value, ("input", "output"))

    @model_validator(mode="after")
    def _paired(self) -> _Tests:
        if len(self.input) != len(self.output):
            raise ValueError(f"{len(self.input)} inputs but {len(self.output)} outputs")
        return self


class _Solutions(BaseModel):
    model_config = _STRICT
    language: list[int] = Field(default_factory=list)
    solution: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _rows(cls, value: Any) -> Any:
        return _columns(value, ("language", "solution"))

    @field_validator("language", mode="before")
    @classmethod
    def _codes(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [_enum_code(v, _LANGUAGE_NAMES, "language") for v in value]
        return value

    @model_validator(mode="after")
    def _paired(self) -> _Solutions:
        if len(self.language) != len(self.solution):
            raise ValueError(f"{len(self.language)} languages but {len(self.solution)} solutions")
        return self


class _TimeLimit(BaseModel):
    model_config = _STRICT
    seconds: int = Field(default=0, ge=0)
    nanos: int = Field(default=0, ge=0)


class CodeContestsRecord(BaseModel):
    """One record of the ``deepmind/code_contests`` schema (nulls read as the defaults)."""

    model_config = _STRICT

    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    public_tests: _Tests = Field(default_factory=_Tests)
    private_tests: _Tests = Field(default_factory=_Tests)
    generated_tests: _Tests = Field(default_factory=_Tests)
    source: int = 0
    difficulty: int = 0
    solutions: _Solutions = Field(default_factory=_Solutions)
    incorrect_solutions: _Solutions = Field(default_factory=_Solutions)
    cf_contest_id: int = 0
    cf_index: str = ""
    cf_points: float = 0.0
    cf_rating: int = 0
    cf_tags: list[str] = Field(default_factory=list)
    is_description_translated: bool = False
    untranslated_description: str = ""
    time_limit: _TimeLimit | None = None
    memory_limit_bytes: int = Field(default=0, ge=0)
    input_file: str = ""
    output_file: str = ""

    @model_validator(mode="before")
    @classmethod
    def _drop_nulls(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if v is not None}
        return data

    @field_validator("source", mode="before")
    @classmethod
    def _source(cls, value: Any) -> int:
        return _enum_code(value, SITES, "source")

    @field_validator("difficulty", mode="before")
    @classmethod
    def _difficulty(cls, value: Any) -> int:
        return _enum_code(value, DIFFICULTIES, "difficulty")

    def python3_solutions(self) -> list[str]:
        return [s for code, s in zip(self.solutions.language, self.solutions.solution,
                                     strict=True) if code == 3]

    def python3_incorrect_solutions(self) -> list[str]:
        return [s for code, s in zip(self.incorrect_solutions.language,
                                     self.incorrect_solutions.solution, strict=True) if code == 3]

    def languages(self) -> list[str]:
        return sorted({LANGUAGES[c][1] for c in self.solutions.language})


class CodeContestsOptions(BaseModel):
    """Options of the ``codecontests`` source."""

    model_config = ConfigDict(extra="forbid")

    path: Path | None = Field(default=None, description="file or folder of jsonl/parquet/arrow records")
    hub: bool = Field(default=False, description="load through datasets.load_dataset from the HF hub")
    dataset: str = Field(default=HUB_DATASET, description="hub dataset name (with hub=True)")
    split: str | None = Field(default="train", description="train | valid | test (files or hub)")
    limit: int | None = Field(default=None, ge=1, description="stop after this many loaded tasks")
    seed: int | None = Field(default=None, description="sample in a seeded random order")
    min_rating: int | None = Field(default=1000, description="lowest cf_rating kept (None: no bound)")
    max_rating: int | None = Field(default=2000, description="highest cf_rating kept (None: no bound)")
    verify: bool = Field(default=True, description="run Python 3 solutions on the public tests")
    max_attempts: int = Field(default=5, ge=1, le=20, description="distinct Python 3 solutions "
                              "tried per task")
    max_references: int = Field(default=3, ge=1, le=10, description="verified Python 3 solutions "
                                "kept per task (the first is the answer key, the others vote on "
                                "it in the gate's key check)")
    timeout_s: float | None = Field(default=None, gt=0, le=120, description="per test run (default: "
                                    "3x the time limit, within [2, 10] s)")
    backend: str = Field(default="auto", description="sandbox backend for verification")
    workers: int = Field(default=2, ge=1, le=32, description="verifications run in parallel")
    max_incorrect: int = Field(default=10, ge=0, le=1000, description="Python 3 incorrect "
                               "solutions kept per task, when the data has them (0: none; the "
                               "column is then not read)")
    max_tests: int = Field(default=20, ge=0, description="private/generated tests kept per kind")
    max_test_chars: int = Field(default=50_000, ge=1, description="larger private/generated tests dropped")

    @model_validator(mode="after")
    def _band(self) -> CodeContestsOptions:
        low, high = self.min_rating, self.max_rating
        if low is not None and high is not None and low > high:
            raise ValueError(f"min_rating {self.min_rating} > max_rating {self.max_rating}")
        return self


@dataclass
class _Candidate:
    """A record that passed the cheap filters, waiting for verification."""

    task: TaskDescription
    solutions: list[str]
    file: str
    number: int
    time_limit_s: float | None


_HEADING = re.compile(r"^\s*(input|output|examples?|notes?|interaction)\s*:?\s*$", re.IGNORECASE)
_CF_NAME = re.compile(r"^\s*\d+_[A-Za-z][0-9]?\.\s*(.+)$")


def split_sections(description: str) -> tuple[str | None, str | None]:
    """The Input and Output sections of a statement with Codeforces-style headings."""
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for line in description.splitlines():
        match = _HEADING.match(line)
        key = match.group(1).lower() if match else None
        # an example's own "Input"/"Output" labels do not start new sections
        if key is not None and key not in sections and not (
            key in ("input", "output") and current not in (None, "input", "output")
        ):
            current = key
            sections[current] = []
        elif current is not None:
            sections[current].append(line)

    def text(key: str) -> str | None:
        body = "\n".join(sections.get(key, [])).strip()
        return body or None

    return text("input"), text("output")


def _title(name: str) -> str:
    match = _CF_NAME.match(name)
    return (match.group(1) if match else name).strip()[:300] or "untitled"


def _cap_tests(tests: _Tests, cap: int, max_chars: int) -> tuple[list[TestCase], int]:
    kept: list[TestCase] = []
    for inp, out in zip(tests.input, tests.output, strict=True):
        if len(kept) < cap and len(inp) + len(out) <= max_chars:
            kept.append(TestCase(input=inp, output=out))
    return kept, len(tests.input) - len(kept)


def _licence_for(where: str) -> tuple[str, str | None]:
    """(dataset label, licence) from where the records came from."""
    if "code_contests" in where and ("datasets--" in where or "___" in where or "hub:" in where):
        return HUB_DATASET, "CC-BY-4.0"
    if where.startswith(display_path(bundled_dir(NAME)) + "/"):
        return "bootcamp-synth bundled sample (CodeContests schema)", "Apache-2.0"
    return "CodeContests-schema file", None


class CodeContestsSource:
    """The ``codecontests`` source (see the module docstring)."""

    name = NAME
    summary = ("Competitive-programming problems in the deepmind/code_contests schema "
               "(jsonl/parquet/HF cache, or the hub); references verified in the sandbox")
    Options: ClassVar[type[BaseModel]] = CodeContestsOptions

    def __init__(self, runner: Runner | None = None) -> None:
        self._runner = runner

    def load(self, **options: Any) -> Iterator[Item]:
        opts = CodeContestsOptions.model_validate(options)
        if opts.hub and opts.path is not None:
            raise SourceUnavailableError("codecontests: give either --path or --hub, not both")
        records = self._hub_records(opts) if opts.hub else self._file_records(opts)
        return self._select(opts, records)

    def verify(self, task: TaskDescription, **options: Any) -> Item:
        """``task`` as ``load`` gives it with ``verify=True``, from the same task loaded with
        ``verify=False`` (its solutions unverified): each solution run on the public tests in
        the sandbox, the task kept with those that reproduce them, or the reason none did. So
        a caller that picks a few tasks of many verifies only those."""
        opts = CodeContestsOptions.model_validate({**options, "verify": True})
        file, _, line = task.provenance.location.rpartition(":")  # "<file>:<line>", as load
        cand = _Candidate(task=task.model_copy(update={"references": []}),
                          solutions=[r.code for r in task.references],
                          file=file or task.provenance.location,
                          number=int(line) if line.isdigit() and int(line) > 0 else 1,
                          time_limit_s=task.metadata.time_limit_s)
        return self._finish(opts, cand, self._runner or sandbox_runner(opts.backend))

    # -- record streams -------------------------------------------------------------------

    def _file_records(
        self, opts: CodeContestsOptions
    ) -> Iterator[tuple[str, int, dict[str, Any]] | SourceError]:
        path, split = opts.path, opts.split
        if path is None:
            path, split = bundled_dir(NAME), None
            notice(f"codecontests: no --path given; using the bundled sample in {path}")
            files = bundled_order(discover_files(Path(path), split, NAME))
        else:
            files = discover_files(Path(path), split, NAME)

        def stream() -> Iterator[tuple[str, int, dict[str, Any]] | SourceError]:
            for file in files:
                label = display_path(file)
                skip = _UNREAD_COLUMNS if opts.max_incorrect == 0 else frozenset()
                for rec in iter_records(file, NAME, skip_columns=skip):
                    if isinstance(rec, SourceError):
                        yield rec.model_copy(update={"file": label})
                    else:
                        yield label, rec[0], rec[1]

        return stream()

    def _hub_records(
        self, opts: CodeContestsOptions
    ) -> Iterator[tuple[str, int, dict[str, Any]] | SourceError]:
        try:
            import datasets  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            raise SourceUnavailableError(
                "codecontests: the `datasets` package is not installed; download the "
                f"{opts.dataset} parquet files and pass --path DIR (or pip install datasets)"
            ) from None
        split = opts.split or "train"
        if split == "validation":
            split = "valid"
        offline = any(os.environ.get(v, "").lower() in ("1", "true", "yes", "on")
                      for v in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"))
        endpoint = os.environ.get("HF_ENDPOINT") or "https://huggingface.co"
        # fail in seconds, not after the hub client's minute of retries
        unreachable = None if offline else _probe_hub(endpoint)
        if unreachable is not None:
            raise SourceUnavailableError(
                f"codecontests: cannot reach the Hugging Face hub at {endpoint} ({unreachable}); "
                "offline? pass --path to local parquet/JSONL files (or set HF_HUB_OFFLINE=1 to "
                "read a datasets cache)"
            )
        try:
            rows = iter(datasets.load_dataset(opts.dataset, split=split, streaming=True))
            first = next(rows, None)
        except Exception as exc:
            raise SourceUnavailableError(
                f"codecontests: cannot load {opts.dataset} from the Hugging Face hub "
                f"({type(exc).__name__}: {_one_line(str(exc))}); offline? pass --path to "
                "local parquet/JSONL files"
            ) from None
        label = f"hub:{opts.dataset}[{split}]"

        def stream() -> Iterator[tuple[str, int, dict[str, Any]] | SourceError]:
            if first is None:
                yield SourceError(source=NAME, reason=SkipReason.EMPTY_FILE, file=label,
                                  message="the split holds no rows")
                return
            yield label, 1, first
            number = 1
            try:
                for row in rows:
                    number += 1
                    yield label, number, row
            except Exception as exc:
                yield SourceError(source=NAME, reason=SkipReason.UNREADABLE, file=label,
                                  line=number, message=f"stream broke: {type(exc).__name__}: "
                                  f"{_one_line(str(exc))}")

        return stream()

    # -- selection --------------------------------------------------------------------------

    def _select(
        self,
        opts: CodeContestsOptions,
        records: Iterator[tuple[str, int, dict[str, Any]] | SourceError],
    ) -> Iterator[Item]:
        """Screen every record, then verify the survivors (in parallel, order kept) until
        ``limit`` tasks are loaded."""
        runner = self._runner or sandbox_runner(opts.backend)
        loaded = 0
        for item in self._verify_all(opts, self._screened(opts, records), runner):
            yield item
            if isinstance(item, TaskDescription):
                loaded += 1
                if opts.limit is not None and loaded >= opts.limit:
                    return

    def _screened(
        self,
        opts: CodeContestsOptions,
        records: Iterator[tuple[str, int, dict[str, Any]] | SourceError],
    ) -> Iterator[_Candidate | SourceError]:
        """Records after the cheap filters; with a seed, all candidates in seeded order."""
        seen: dict[str, str] = {}
        pending: list[_Candidate] = []
        for rec in records:
            item = rec if isinstance(rec, SourceError) else self._screen(opts, *rec, seen)
            if isinstance(item, _Candidate) and opts.seed is not None:
                pending.append(item)
            else:
                yield item
        seed = opts.seed
        pending.sort(key=lambda c: hashlib.sha256(f"{seed}:{c.task.id}".encode()).hexdigest())
        yield from pending

    def _verify_all(
        self, opts: CodeContestsOptions, items: Iterator[_Candidate | SourceError],
        runner: Runner,
    ) -> Iterator[Item]:
        """``_finish`` every candidate on ``opts.workers`` threads, yielding in input order.
        At most ``2 * workers`` verifications run ahead of the consumer."""
        if opts.workers == 1 or not opts.verify:
            for item in items:
                yield item if isinstance(item, SourceError) else self._finish(opts, item, runner)
            return
        window: deque[Future[Item] | SourceError] = deque()
        pool = ThreadPoolExecutor(max_workers=opts.workers, thread_name_prefix="cc-verify")
        try:
            for item in items:
                if isinstance(item, SourceError):
                    window.append(item)
                else:
                    window.append(pool.submit(self._finish, opts, item, runner))
                while window and (
                    isinstance(window[0], SourceError)
                    or window[0].done()
                    or sum(isinstance(w, Future) for w in window) > 2 * opts.workers
                ):
                    head = window.popleft()
                    yield head if isinstance(head, SourceError) else head.result()
            while window:
                head = window.popleft()
                yield head if isinstance(head, SourceError) else head.result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def _screen(
        self, opts: CodeContestsOptions, file: str, number: int, raw: dict[str, Any],
        seen: dict[str, str],
    ) -> _Candidate | SourceError:
        """Parse one record and apply the cheap filters (everything but running code)."""
        name = raw.get("name") if isinstance(raw.get("name"), str) else None

        def skip(reason: SkipReason, message: str) -> SourceError:
            return SourceError(source=NAME, reason=reason, message=message, file=file,
                               line=number, task=name)

        desc = raw.get("description")
        if isinstance(desc, str) and len(desc) > MAX_STATEMENT_CHARS:
            return skip(SkipReason.TOO_LARGE, f"statement of {len(desc):,} characters "
                        f"exceeds the cap of {MAX_STATEMENT_CHARS:,}")
        try:
            rec = CodeContestsRecord.model_validate(raw)
        except ValidationError as exc:
            return skip(*first_validation_error(exc))
        rating = rec.cf_rating
        low, high = opts.min_rating, opts.max_rating
        if (low is not None and rating < low) or (high is not None and rating > high):
            shown = "unrated (0)" if rating == 0 else str(rating)
            return skip(SkipReason.RATING_OUT_OF_BAND,
                        f"cf_rating {shown} outside [{low}, {high}]")
        if rec.input_file or rec.output_file:
            return skip(SkipReason.FILE_IO, "reads/writes files "
                        f"(input_file={rec.input_file!r}, output_file={rec.output_file!r})")
        py3 = rec.python3_solutions()
        if not py3:
            langs = ", ".join(rec.languages()) or "none"
            return skip(SkipReason.NO_PYTHON3_SOLUTION,
                        f"no Python 3 solution (solution languages: {langs})")
        key = statement_key(rec.description)
        if key in seen:
            return skip(SkipReason.DUPLICATE, f"same statement as {seen[key]}")
        seen[key] = f"{rec.name!r} ({file}:{number})"
        try:
            task = self._task(opts, rec, file, number)
        except ValidationError as exc:
            return skip(*first_validation_error(exc))
        return _Candidate(task=task, solutions=_distinct(py3, opts.max_attempts), file=file,
                          number=number, time_limit_s=_time_limit_s(rec))

    def _task(self, opts: CodeContestsOptions, rec: CodeContestsRecord, file: str,
              number: int) -> TaskDescription:
        public = [TestCase(input=i, output=o)
                  for i, o in zip(rec.public_tests.input, rec.public_tests.output, strict=True)]
        private, omit_p = _cap_tests(rec.private_tests, opts.max_tests, opts.max_test_chars)
        generated, omit_g = _cap_tests(rec.generated_tests, opts.max_tests, opts.max_test_chars)
        input_spec, output_spec = split_sections(rec.description)
        site = SITES[rec.source]
        url = None
        if site == "CODEFORCES" and rec.cf_contest_id and rec.cf_index:
            url = f"https://codeforces.com/problemset/problem/{rec.cf_contest_id}/{rec.cf_index}"
        dataset, licence = _licence_for(file)
        time_limit = _time_limit_s(rec)
        incorrect = [IncorrectProgram(language="python3", code=code) for code in
                     _distinct(rec.python3_incorrect_solutions(), opts.max_incorrect)]
        return TaskDescription(
            id=make_task_id(NAME, rec.name, rec.description),
            source=NAME,
            kind=TaskKind.STDIO_PROGRAM,
            title=_title(rec.name),
            statement=rec.description,
            input_spec=input_spec,
            output_spec=output_spec,
            examples=[Example(input=t.input, output=t.output) for t in public],
            incorrect_solutions=incorrect,
            tests=TestSuite(public=public, private=private, generated=generated,
                            omitted=omit_p + omit_g),
            metadata=TaskMetadata(
                rating=rec.cf_rating or None,
                difficulty=DIFFICULTIES[rec.difficulty] if rec.difficulty else None,
                tags=[t for t in rec.cf_tags if t.strip()],
                time_limit_s=time_limit,
                memory_limit_bytes=rec.memory_limit_bytes or None,
                contest=f"{rec.cf_contest_id}{rec.cf_index}" if rec.cf_contest_id else None,
                site=site.lower() if rec.source else None,
                points=rec.cf_points or None,
            ),
            provenance=Provenance(dataset=dataset, location=f"{file}:{number}",
                                  original_id=rec.name, licence=licence, url=url),
        )

    def _finish(self, opts: CodeContestsOptions, cand: _Candidate, runner: Runner) -> Item:
        """Verify a candidate's Python 3 solutions (unless disabled) and build the task."""
        task = cand.task

        def skip(reason: SkipReason, message: str) -> SourceError:
            return SourceError(source=NAME, reason=reason, message=message, file=cand.file,
                               line=cand.number, task=task.provenance.original_id)

        if not opts.verify:
            refs = [ReferenceProgram(language="python3", code=code) for code in cand.solutions]
            return task.model_copy(update={"references": refs}).with_content_hash()
        if not task.tests.public:
            return skip(SkipReason.NO_PUBLIC_TESTS, "no public tests to verify a solution on")
        timeout = opts.timeout_s
        if timeout is None:
            timeout = min(10.0, max(2.0, 3 * (cand.time_limit_s or 2.0)))
        failures = []
        kept: list[ReferenceProgram] = []
        for code in cand.solutions:
            verdict = check_program(code, task.tests.public, runner, timeout)
            if verdict.ok:
                if any(same_solution(k.code, code) for k in kept):
                    continue  # the same program with small edits: it could not vote
                kept.append(ReferenceProgram(language="python3", code=code, verified=True))
                if len(kept) >= opts.max_references:
                    break
                continue
            failures.append(verdict)
            if verdict.failure is SkipReason.SANDBOX_ERROR:
                break
        if kept:  # (a sandbox error on a later one costs only its vote)
            return task.model_copy(update={"references": kept}).with_content_hash()
        reason = failures[0].failure or SkipReason.REFERENCE_WRONG_OUTPUT
        if any(f.failure is SkipReason.SANDBOX_ERROR for f in failures):
            reason = SkipReason.SANDBOX_ERROR
        detail = "; ".join(f"#{i}: {f.detail}" for i, f in enumerate(failures, start=1))
        return skip(reason, f"none of {len(failures)} Python 3 solution(s) reproduced the "
                    f"public tests: {detail}")


def _distinct(solutions: list[str], limit: int) -> list[str]:
    """The first ``limit`` solutions that are not copies of an earlier one up to names, layout
    and comments (the same :func:`synth.text.solutions.fingerprint`). Near-copies (a token changed)
    are tried: ``min`` for ``max`` is another program; they are left out only once verified."""
    kept: list[str] = []
    seen: set[str] = set()
    for code in solutions:
        if len(kept) >= limit:
            break
        if fingerprint(code) not in seen:
            seen.add(fingerprint(code))
            kept.append(code)
    return kept


#: The bundled sample's files in the order of their records' numbers: ``sample.jsonl`` holds
#: 01-18, ``more.jsonl`` 19-42. Any other record file in the folder follows them, by name.
BUNDLED_FILES = ("sample.jsonl", "more.jsonl")


def bundled_order(files: list[Path]) -> list[Path]:
    """The bundled folder's files, :data:`BUNDLED_FILES` first in that order (a name sort would
    put ``more.jsonl`` first, and ``--limit N`` in source order would stop taking 01, 02, ...)."""
    rank = {name: i for i, name in enumerate(BUNDLED_FILES)}
    return sorted(files, key=lambda p: (rank.get(p.name, len(rank)), p.name))


#: parquet columns not read when no incorrect solution is kept (``max_incorrect=0``): the
#: ``incorrect_solutions`` column is large.
_UNREAD_COLUMNS = frozenset({"incorrect_solutions"})


def _time_limit_s(rec: CodeContestsRecord) -> float | None:
    if rec.time_limit is None or not (rec.time_limit.seconds or rec.time_limit.nanos):
        return None
    return rec.time_limit.seconds + rec.time_limit.nanos / 1e9


def _probe_hub(endpoint: str, timeout_s: float = 3.0) -> str | None:
    """None when a TCP connection to the hub endpoint opens within ``timeout_s``, else why not.
    (Only called when the user asked for the hub.)"""
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            return None
    except OSError as exc:
        return _one_line(f"{type(exc).__name__}: {exc}", 100)


def _one_line(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + "..."
