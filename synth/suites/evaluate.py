"""``synth suite-eval``: how well a suite separates correct programs from incorrect ones.

For each labelled task (:mod:`synth.suites.labelled`) with a compiled bootcamp in the library
(its record's ``task_id`` is the task's id), the bootcamp's suite is built
(:mod:`synth.suites.build`) and every labelled program runs in the sandbox on every test
(:func:`synth.suites.run.run_stdin`). A test passes when the program exits 0 within the suite's
``time_limit_s`` of CPU time (it is killed at :func:`wall_limit` seconds of wall time) and its
output is right by the suite's judge: the same tokens, or the bootcamp's own ``check_output``
(asked in the bootcamp's sandboxed method server, with the test's identity; an example, which
has none, is not judged there, as the code reward does not judge it). Then, side by side for three suites -- the examples alone, the
suite without its stress level, the full suite:

* TPR: the share of correct programs that pass every test;
* TNR: the share of incorrect programs that fail at least one.

And: which tests catch which faults (per fault kind, each incorrect program is caught by the
examples, else by a level, else by stress only, else missed), every correct program a test
rejects (with the test and why: a suite bug or a label bug), and a minimised suite: the examples
plus the fewest further tests that still reject every incorrect program the full suite rejects,
chosen by greedy set cover (at each step the test that rejects the most programs not yet
rejected; ties to the earlier test) -- an approximation of the smallest such subset, within a
factor ``ln(programs) + 1`` of it.

Function suites are not measured here: labelled programs are stdin programs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from synth.bootcamp import ANSWER_CLOSE, ANSWER_OPEN, same_tokens
from synth.gate.calls import Failure, ask_many
from synth.library import Library
from synth.sandbox.base import Backend
from synth.sandbox.kit import canonical
from synth.sandbox.methods import MethodServer, server_limits
from synth.sandbox.program_pool import wall_limit
from synth.serving.sampling import STRESS_LEVEL
from synth.suites.build import (
    BuildError,
    BuildOptions,
    BuildReport,
    BuiltSuite,
    NotCompiledError,
    build_suite,
    suite_kind,
)
from synth.suites.export import library_validator
from synth.suites.format import EXAMPLE_LEVEL, CodeSuite
from synth.suites.labelled import LabelledTask, Program
from synth.suites.run import KILLED, Run, RunError, run_stdin

__all__ = ["SUITES", "EvalReport", "Minimised", "ProgramResult", "SuiteNumbers", "TaskEval",
           "Unmatched", "evaluate_task", "minimise", "suite_eval", "wall_limit"]

#: the three suites compared, by name
SUITES = ("examples", "no_stress", "full")
#: largest output kept per run of a labelled program
MAX_OUTPUT = 4_000_000


class SuiteNumbers(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tests: int = 0
    correct: int = 0
    correct_passed: int = 0
    incorrect: int = 0
    incorrect_failed: int = 0

    @property
    def tpr(self) -> float | None:
        return self.correct_passed / self.correct if self.correct else None

    @property
    def tnr(self) -> float | None:
        return self.incorrect_failed / self.incorrect if self.incorrect else None

    def add(self, other: SuiteNumbers) -> None:
        self.tests += other.tests
        self.correct += other.correct
        self.correct_passed += other.correct_passed
        self.incorrect += other.incorrect
        self.incorrect_failed += other.incorrect_failed

    def plain(self) -> dict[str, Any]:
        return {**self.model_dump(), "tpr": self.tpr, "tnr": self.tnr}


class ProgramResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    correct: bool
    kind: str | None = None
    failed: list[int] = Field(default_factory=list, description="indices of the tests it fails")
    first_failure: str | None = None  # "test 7 (hard): wrong answer"
    caught_by: str | None = None  # examples | levels | stress | missed (incorrect programs)
    caught_at: str | None = None  # the level of the first failing test
    slowest_cpu_s: float = Field(default=0.0, description="its most CPU time on one test that "
                                 "it finished (a run killed at the wall limit is not counted)")
    slowest_test: int | None = None  # that test's index
    killed: int = Field(default=0, description="tests on which it was killed at the wall limit")


class Minimised(BaseModel):
    model_config = ConfigDict(extra="forbid")

    size: int
    full_size: int
    examples: int
    tests: list[int] = Field(default_factory=list, description="indices of the tests chosen "
                             "besides the examples, in the order greedy set cover chose them")
    levels: dict[str, int] = Field(default_factory=dict)
    rejects_all: bool = True  # every program the full suite rejects, it rejects


class TaskEval(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task_id: str
    bootcamp: str
    has_stress: bool
    stress: dict[str, Any] | None = Field(default=None, description="the stress level's preset")
    stress_derived: bool = Field(default=False, description="the class declares no STRESS; the "
                                 "preset was derived from its levels (build.derivation: how)")
    levels: dict[str, int]
    time_limit_s: float
    suites: dict[str, SuiteNumbers]
    catches: dict[str, dict[str, int]] = Field(default_factory=dict)
    minimised: Minimised
    programs: list[ProgramResult]
    false_rejections: list[str] = Field(default_factory=list)
    build: BuildReport
    elapsed_s: float = 0.0

    def plain(self) -> dict[str, Any]:
        out = self.model_dump(mode="json")
        out["suites"] = {k: v.plain() for k, v in self.suites.items()}
        return out


class Unmatched(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task_id: str
    why: str


class EvalReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tasks: list[TaskEval] = Field(default_factory=list)
    unmatched: list[Unmatched] = Field(default_factory=list)
    problems: list[str] = Field(default_factory=list)
    elapsed_s: float = 0.0

    def overall(self) -> dict[str, SuiteNumbers]:
        out = {name: SuiteNumbers() for name in SUITES}
        for t in self.tasks:
            for name in SUITES:
                out[name].add(t.suites[name])
        return out

    def catches(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for t in self.tasks:
            for kind, counts in t.catches.items():
                mine = out.setdefault(kind, {k: 0 for k in _CATCH_KEYS})
                for k, v in counts.items():
                    mine[k] = mine.get(k, 0) + v
        return dict(sorted(out.items()))

    def plain(self) -> dict[str, Any]:
        return {"tasks": [t.plain() for t in self.tasks],
                "unmatched": [u.model_dump() for u in self.unmatched],
                "problems": self.problems,
                "overall": {k: v.plain() for k, v in self.overall().items()},
                "catches": self.catches(), "elapsed_s": self.elapsed_s}


_CATCH_KEYS = ("programs", "examples", "levels", "stress", "missed")


# -- judging ----------------------------------------------------------------------------------


@dataclass
class _Judge:
    """The suite's judge; for ``check_output``, the bootcamp's method server (started lazily)."""

    suite: CodeSuite
    code: str
    backend: Backend
    class_name: str
    server: MethodServer | None = None

    def close(self) -> None:
        if self.server is not None:
            self.server.close()

    def right(self, runs: list[Run]) -> list[bool]:
        """Whether each run's output is right (its exit status and time judged elsewhere)."""
        tests = self.suite.tests
        out = [same_tokens(str(t.expected), r.stdout) for t, r in zip(tests, runs, strict=True)]
        if self.suite.judge != "check_output":
            return out
        # a statement example has no identity for check_output, and its shown output is one
        # valid output among several: not judged, as the code reward does not judge it
        out = [True if t.identity is None else ok for t, ok in zip(tests, out, strict=True)]
        asks = [k for k, t in enumerate(tests) if t.identity is not None and runs[k].ok]
        if not asks:
            return out
        if self.server is None:
            self.server = MethodServer(self.code, backend=self.backend, limits=server_limits(),
                                       class_name=self.class_name, role="suite-judge",
                                       label="suite-judge")
            started = self.server.start()
            if not started.ok:
                raise BuildError(f"bootcamp {self.suite.bootcamp!r}: its check_output server "
                                 f"did not start: {started.error}")
        calls = []
        for k in asks:
            stdout = runs[k].stdout
            bad = ANSWER_OPEN in stdout or ANSWER_CLOSE in stdout
            calls.append(("score", {"response": f"{ANSWER_OPEN}{'' if bad else stdout}"
                                    f"{ANSWER_CLOSE}", "case_text": canonical(tests[k].identity),
                                    "format_score": 0.0}))
        try:
            replies, _ = ask_many(self.server, calls, 10.0)
        except Failure as f:
            raise BuildError(f"bootcamp {self.suite.bootcamp!r}: check_output failed: "
                             f"{f.what}") from None
        if len(replies) < len(calls):
            raise BuildError(f"bootcamp {self.suite.bootcamp!r}: check_output did not answer "
                             "every output")
        for k, (value, fail) in zip(asks, replies, strict=True):
            if fail is not None:
                raise BuildError(f"bootcamp {self.suite.bootcamp!r}: check_output raised on "
                                 f"test {k}: {fail.what}")
            score = value.get("score") if type(value) is dict else None
            out[k] = type(score) is float and score == 1.0
        return out


def _verdicts(runs: list[Run], right: list[bool], limit: float) -> list[str | None]:
    """Each test's verdict: None (passed) or why it failed."""
    out: list[str | None] = []
    for run, ok in zip(runs, right, strict=True):
        if run.code is None:
            out.append(f"killed after {wall_limit(limit):g} s of wall time")
        elif run.code == KILLED:
            out.append(run.stderr[:200])
        elif run.code != 0:
            tail = run.stderr.strip().splitlines()[-1][:160] if run.stderr.strip() else ""
            out.append(f"exit status {run.code}" + (f" ({tail})" if tail else ""))
        elif run.cpu_s > limit:
            out.append(f"time limit: {run.cpu_s:.2f} s of CPU > {limit:g} s")
        elif not ok:
            out.append("wrong answer")
        else:
            out.append(None)
    return out


# -- one task -----------------------------------------------------------------------------------


def evaluate_task(task: LabelledTask, built: BuiltSuite, code: str, backend: Backend,
                  class_name: str = "", started: float | None = None) -> TaskEval:
    """Run every labelled program of ``task`` on the suite ``built`` and measure it."""
    t0 = started if started is not None else time.perf_counter()
    suite = built.suite
    if suite.kind != "stdin":
        raise ValueError(f"{suite.bootcamp}: a {suite.kind} suite (labelled programs are stdin "
                         "programs)")
    limit = suite.time_limit_s
    judge = _Judge(suite, code, backend, class_name)
    stdins = [t.stdin or "" for t in suite.tests]
    results: list[ProgramResult] = []
    try:
        for prog in task.programs:
            runs = run_stdin(backend, prog.code, stdins, timeout_s=wall_limit(limit),
                             memory_mb=suite.memory_mb, role="suite-eval-program",
                             max_output=MAX_OUTPUT)
            verdicts = _verdicts(runs, judge.right(runs), limit)
            results.append(_result(prog, suite, verdicts, runs))
    finally:
        judge.close()
    groups = {
        "examples": [k for k, t in enumerate(suite.tests) if t.level == EXAMPLE_LEVEL],
        "no_stress": [k for k, t in enumerate(suite.tests) if t.level != STRESS_LEVEL],
        "full": list(range(len(suite.tests))),
    }
    numbers = {name: _numbers(results, set(keys)) for name, keys in groups.items()}
    catches: dict[str, dict[str, int]] = {}
    for r in results:
        if r.correct:
            continue
        counts = catches.setdefault(r.kind or "unlabelled", {k: 0 for k in _CATCH_KEYS})
        counts["programs"] += 1
        counts[r.caught_by or "missed"] += 1
    false = [f"{r.name}: {r.first_failure}" for r in results if r.correct and r.failed]
    return TaskEval(
        task_id=task.task_id, bootcamp=suite.bootcamp, has_stress=built.report.stress is not None,
        stress=built.report.stress, stress_derived=built.report.stress_derived,
        levels=suite.levels(), time_limit_s=limit, suites=numbers, catches=catches,
        minimised=minimise(suite, results), programs=results, false_rejections=false,
        build=built.report, elapsed_s=round(time.perf_counter() - t0, 3))


def _result(prog: Program, suite: CodeSuite, verdicts: list[str | None],
            runs: list[Run]) -> ProgramResult:
    failed = [k for k, v in enumerate(verdicts) if v is not None]
    out = ProgramResult(name=prog.name, correct=prog.correct, kind=prog.kind, failed=failed)
    finished = [(r.cpu_s, k) for k, r in enumerate(runs) if r.code is not None
                and r.code != KILLED]
    if finished:
        cpu, k = max(finished)
        out.slowest_cpu_s, out.slowest_test = round(cpu, 3), k
    out.killed = sum(r.code is None for r in runs)
    if failed:
        k = failed[0]
        out.first_failure = f"test {k} ({suite.tests[k].level}): {verdicts[k]}"
    if not prog.correct:
        levels = [suite.tests[k].level for k in failed]
        if not levels:
            out.caught_by = "missed"
        elif EXAMPLE_LEVEL in levels:
            out.caught_by, out.caught_at = "examples", EXAMPLE_LEVEL
        elif any(lv != STRESS_LEVEL for lv in levels):
            out.caught_by = "levels"
            out.caught_at = next(lv for lv in levels if lv != STRESS_LEVEL)
        else:
            out.caught_by, out.caught_at = "stress", STRESS_LEVEL
    return out


def _numbers(results: list[ProgramResult], keys: set[int]) -> SuiteNumbers:
    out = SuiteNumbers(tests=len(keys))
    for r in results:
        fails = any(k in keys for k in r.failed)
        if r.correct:
            out.correct += 1
            out.correct_passed += not fails
        else:
            out.incorrect += 1
            out.incorrect_failed += fails
    return out


def minimise(suite: CodeSuite, results: list[ProgramResult]) -> Minimised:
    """The examples plus the tests greedy set cover picks to reject every incorrect program the
    full suite rejects (see the module docstring)."""
    examples = {k for k, t in enumerate(suite.tests) if t.level == EXAMPLE_LEVEL}
    rejected = [set(r.failed) for r in results if not r.correct and r.failed]
    uncovered = [f for f in rejected if not f & examples]
    chosen: list[int] = []
    while uncovered:
        counts: dict[int, int] = {}
        for f in uncovered:
            for k in f:
                counts[k] = counts.get(k, 0) + 1
        best = min(counts, key=lambda k: (-counts[k], k))
        chosen.append(best)
        uncovered = [f for f in uncovered if best not in f]
    keep = examples | set(chosen)
    levels: dict[str, int] = {}
    for k in sorted(keep):
        levels[suite.tests[k].level] = levels.get(suite.tests[k].level, 0) + 1
    return Minimised(size=len(keep), full_size=len(suite.tests), examples=len(examples),
                     tests=chosen, levels=levels, rejects_all=all(f & keep for f in rejected))


# -- the command's driver -----------------------------------------------------------------------


def _bootcamps_for(lib: Library, task_id: str) -> tuple[list[str], str]:
    """The accepted compiled bootcamps of a task, or why there is none."""
    recs = [r for r in lib.records(None) if r.task_id == task_id]
    if not recs:
        return [], "no bootcamp of this task in the library"
    live = [r for r in recs if r.status == "accepted"]
    if not live:
        shown = ", ".join(f"{r.name} ({r.status})" for r in recs)
        return [], f"no accepted bootcamp of this task (the library has {shown})"
    names = []
    for r in live:
        try:
            if suite_kind(lib.code(r.name)) == "stdin":
                names.append(r.name)
        except NotCompiledError:
            continue
    if not names:
        shown = ", ".join(f"{r.name} (mode {r.mode or 'not recorded'})" for r in live)
        return [], f"no compiled stdin bootcamp of this task (the library has {shown})"
    return names, ""


def suite_eval(tasks: list[LabelledTask], *, library: Library | None = None,
               backend: Backend, options: BuildOptions | None = None,
               progress: Any = None) -> EvalReport:
    """Measure the suites of every labelled task's compiled bootcamps (see the module
    docstring). Raises :class:`BuildError` (a bootcamp could not give its suite),
    :class:`~synth.suites.run.RunError` (the sandbox), :class:`LibraryError`."""
    t0 = time.perf_counter()
    lib = library or Library()
    opts = options or BuildOptions()
    report = EvalReport()
    for task in tasks:
        report.problems += [f"{task.task_id}: {p}" for p in task.problems]
        names, why = _bootcamps_for(lib, task.task_id)
        if not names:
            report.unmatched.append(Unmatched(task_id=task.task_id, why=why))
            continue
        if not task.programs:
            report.unmatched.append(Unmatched(task_id=task.task_id, why="no labelled programs"))
            continue
        for name in names:
            started = time.perf_counter()
            rec, code = lib.checked_code(name)
            built = build_suite(name, code, code_sha256=rec.code_sha256, backend=backend,
                                options=opts, class_name=rec.class_name,
                                validator=library_validator(lib, name))
            try:
                report.tasks.append(evaluate_task(task, built, code, backend, rec.class_name,
                                                  started))
            except RunError as exc:
                raise BuildError(f"task {task.task_id}: {exc}") from None
            if progress is not None:
                progress(f"{task.task_id}: {name}: {len(built.suite.tests)} tests, "
                         f"{len(task.programs)} programs ({time.perf_counter() - started:.1f} s)")
    report.elapsed_s = round(time.perf_counter() - t0, 3)
    return report

