"""The code reward: a model's program scored against a code row's test suite, in the sandbox.

A *code row* (``synth export --format code``) has ``data_source`` ``"code/<bootcamp>"`` and, as
its ``reward_model.ground_truth``, the canonical JSON of a test suite (``docs/code-rl.md``):
the kind (``stdin``: a program reading standard input; ``function``: a function called on
arguments), the judge, a time limit per test, a memory limit, and the tests. The answer
reward's :func:`synth.training.reward.compute_score` (and :func:`make_compute_score`'s
scorers) route code rows here.

Scoring one response:

1. **The program** is the last fenced code block of the response (:func:`extract_program`: a
   block opened by a line of three or more backticks with the info string ``python``,
   ``python3``, ``py`` or none, and closed by a line of as many backticks). No such block, an
   unclosed one or a blank one scores 0.0 and runs nothing; model output never makes the reward
   raise.
2. **The runs.** The program runs in a fresh sandboxed runner taken from a warm pool
   (:class:`synth.sandbox.program_pool.ProgramPool`: started ahead of time, never reused for
   another program, never in the trainer's process), once per test, one test at a time, each
   run a process of its own under the suite's ``memory_mb`` (address space). A stdin program
   reads the test's ``stdin``; a function program is defined as the module ``solution`` and its
   ``entry_point`` is called on the test's ``args``. A run passes its test when it ended by
   itself with exit status 0 within the suite's ``time_limit_s`` of CPU time and its output
   passes the judge. The time limit is CPU time, as ``synth suite-eval`` and the suite's own
   measure of its reference count it (fair when runs share a loaded machine); a run is killed
   after ``3 x time_limit_s + 2`` seconds of wall time (``synth.sandbox.program_pool.wall_limit``,
   the rule suite-eval uses too), with everything it started.
3. **The judge** runs on the host, from the run's output and the suite, never in the sandbox
   (no expected output enters it):

   * ``tokens``: the same whitespace-separated tokens as ``expected``
     (:func:`synth.bootcamp.same_tokens`);
   * ``value``: the return value equals ``expected`` by the function contract's rule
     (:func:`synth.values.same_value` of the two decoded values);
   * ``check_output``: the bootcamp's own ``check_output(identity, expected, answer)``, through
     its ``verify_score`` on the output shown as an answer (an output holding the answer tags
     is shown as an empty answer), in the bootcamp's sandboxed worker pool (as the answer reward
     runs bootcamp code): the test passes on a score of 1.0. A test without an identity (a
     statement example, whose expected output is one valid output among several) cannot be
     judged by the bootcamp's rule, and tokens would reject the other valid outputs: it is not
     run under this judge, nor counted.

   Output beyond a cap fails the test (the run is killed there): ``8 x`` the expected output's bytes
   ``+ 1024`` under ``tokens`` (longer text cannot have the same tokens), at least 4 MB under
   ``check_output`` and for a function's printed output and its return value's JSON.
4. **The score** is 1.0 when every test passes, else 0.0, and the run stops at the first test
   that fails; with ``fraction=True`` every test runs and the score is the share that passed.

Broken *data* -- a ground truth that is not a suite of this format, a suite of another
bootcamp than the data source names, a bootcamp the library does not serve, a suite built from
a module whose sha256 is not the library's, an ``extra_info.suite_sha256`` that does not match
-- raises :class:`~synth.training.reward.RewardDataError`; a sandbox that cannot run programs
raises :class:`~synth.training.reward.RewardSandboxError`. A bootcamp's ``check_output`` that
raises, hangs or returns no score in [0, 1] is a finding (counted in
:data:`~synth.training.reward.FINDINGS`, logged) and the row scores 0.0; a quarantined
bootcamp's code rows score 0.0 as findings.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from synth.bootcamp import ANSWER_CLOSE, ANSWER_OPEN, same_tokens
from synth.library import Library, LibraryError
from synth.sandbox.program_pool import Program, ProgramPool, ProgramRun, ProgramSandboxError, Runner
from synth.training.reward_errors import FINDINGS, RewardDataError, RewardSandboxError
from synth.values import ValueProblem, decode, same_value

__all__ = ["CODE_PREFIX", "CodeReward", "CodeScore", "JudgeFailure", "Suite", "SuiteTest",
           "extract_program", "output_cap", "parse_suite"]

CODE_PREFIX = "code/"
log = logging.getLogger("synth.training.reward")  # the answer reward's: one place for findings

JUDGES = {"stdin": ("tokens", "check_output"), "function": ("value",)}
_SUITE_KEYS = {"version", "kind", "language", "bootcamp", "code_sha256", "entry_point", "judge",
               "time_limit_s", "memory_mb", "tests"}
_TEST_KEYS = {"level", "stdin", "args", "expected", "identity"}
_SHA256 = re.compile(r"[0-9a-f]{64}")
#: the longest time limit a suite may ask for, per test
MAX_TIME_LIMIT_S = 3600.0
MIN_CAP = 4_000_000


class JudgeFailure(Exception):
    """The bootcamp's ``check_output`` failed on an output (a defect of the library)."""


# -- the program in the response -------------------------------------------------------------

_OPEN = re.compile(r"[ \t]{0,3}(`{3,})[ \t]*([^`]*)")
_CLOSE = re.compile(r"[ \t]{0,3}(`{3,})[ \t]*")
_PYTHON = frozenset({"", "python", "python3", "py"})


def extract_program(response: Any) -> str | None:
    """The last complete fenced code block of ``response`` whose info string is ``python``,
    ``python3``, ``py`` or empty (any case, its first word), or None: no such block, or only a
    blank one. A block ends at a line of at least as many backticks as opened it and nothing
    else; an unclosed block is no program. Linear in the length of the response."""
    if not isinstance(response, str):
        return None
    found: str | None = None
    fence = 0
    python = False
    body: list[str] = []
    for raw in response.split("\n"):
        line = raw[:-1] if raw.endswith("\r") else raw
        if not fence:
            opened = _OPEN.fullmatch(line) if "```" in line[:8] else None
            if opened is not None:
                fence = len(opened.group(1))
                words = opened.group(2).split()
                python = (words[0].lower() if words else "") in _PYTHON
                body = []
            continue
        closed = _CLOSE.fullmatch(line) if "```" in line[:8] else None
        if closed is not None and len(closed.group(1)) >= fence:
            if python:
                found = "\n".join(body) + "\n"
            fence = 0
            continue
        body.append(line)
    if found is None or not found.strip():
        return None
    return found


# -- the suite -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SuiteTest:
    level: str
    stdin: str | None  # stdin kind
    args: Any  # function kind: the encoded argument list, as the suite holds it
    expected: Any  # stdin kind: text; function kind: the encoded return value
    identity: dict[str, Any] | None
    cap: int  # bytes of output (or of the return value's JSON) beyond which the test fails


@dataclass(frozen=True, slots=True)
class Suite:
    kind: str
    bootcamp: str
    code_sha256: str
    judge: str
    time_limit_s: float
    memory_mb: int
    tests: tuple[SuiteTest, ...]
    entry_point: str | None = None
    sha256: str = ""  # of the ground truth text

    def judged(self) -> tuple[SuiteTest, ...]:
        """The tests the judge decides: all but the identity-less ones under check_output."""
        if self.judge != "check_output":
            return self.tests
        return tuple(t for t in self.tests if t.identity is not None)


def output_cap(judge: str, expected: Any) -> int:
    """Bytes of output (of a return value's JSON) beyond which a test fails (module docstring)."""
    if judge == "tokens":
        return 8 * len(str(expected).encode("utf-8", "surrogatepass")) + 1024
    size = len(json.dumps(expected)) if judge == "value" else len(str(expected).encode(
        "utf-8", "surrogatepass"))
    return max(MIN_CAP, 8 * size + 1024)


def _bad(data_source: str, what: str) -> RewardDataError:
    return RewardDataError(f"ground_truth of {data_source!r} is not a code test suite: {what}")


def _plain_text(value: Any) -> bool:
    if type(value) is not str:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse_suite(data_source: str, ground_truth: Any) -> Suite:
    """The suite a code row's ground truth holds, checked against the format (RewardDataError
    naming what is wrong)."""
    if isinstance(ground_truth, str):
        try:
            data = json.loads(ground_truth)
        except (ValueError, RecursionError):
            raise _bad(data_source, f"not JSON: {ground_truth[:80]!r}") from None
        digest = hashlib.sha256(ground_truth.encode("utf-8", "surrogatepass")).hexdigest()
    else:
        data, digest = ground_truth, ""
    if type(data) is not dict:
        raise _bad(data_source, "not a JSON object")
    if set(data) - _SUITE_KEYS or not {"version", "kind", "language", "bootcamp", "code_sha256",
                                       "judge", "time_limit_s", "tests"} <= set(data):
        raise _bad(data_source, f"keys {sorted(data)[:20]} (expected {sorted(_SUITE_KEYS)})")
    kind, judge = data["kind"], data["judge"]
    if data["version"] != 1 or data["language"] != "python3":
        raise _bad(data_source, "version must be 1 and language python3")
    if kind not in JUDGES or judge not in JUDGES[kind]:
        raise _bad(data_source, f"kind {str(kind)[:20]!r} with judge {str(judge)[:20]!r}")
    if not _plain_text(data["bootcamp"]) or not data["bootcamp"]:
        raise _bad(data_source, "bootcamp must be a name")
    if type(data["code_sha256"]) is not str or not _SHA256.fullmatch(data["code_sha256"]):
        raise _bad(data_source, "code_sha256 must be 64 lowercase hex digits")
    entry = data.get("entry_point")
    if kind == "function" and (type(entry) is not str or not entry.isidentifier()):
        raise _bad(data_source, "a function suite needs an entry_point (a function name)")
    if kind == "stdin" and entry is not None:
        raise _bad(data_source, "a stdin suite has no entry_point")
    limit, memory = data["time_limit_s"], data.get("memory_mb", 256)
    if type(limit) not in (int, float) or not math.isfinite(limit) or \
            not 0 < limit <= MAX_TIME_LIMIT_S:
        raise _bad(data_source, f"time_limit_s must be in (0, {MAX_TIME_LIMIT_S:g}]")
    if type(memory) is not int or not 32 <= memory <= 65536:
        raise _bad(data_source, "memory_mb must be an int in [32, 65536]")
    raw_tests = data["tests"]
    if type(raw_tests) is not list or not raw_tests:
        raise _bad(data_source, "tests must be a non-empty list")
    tests = tuple(_test(data_source, kind, judge, i, t) for i, t in enumerate(raw_tests))
    suite = Suite(kind, data["bootcamp"], data["code_sha256"], judge, float(limit), memory,
                  tests, entry, digest)
    if not suite.judged():
        raise _bad(data_source, "no test the check_output judge can decide (none has an identity)")
    return suite


def _test(data_source: str, kind: str, judge: str, i: int, test: Any) -> SuiteTest:
    where = f"test {i}"
    if type(test) is not dict:
        raise _bad(data_source, f"{where} is not an object")
    need = {"level", "expected", "identity", "stdin" if kind == "stdin" else "args"}
    if set(test) != need:
        raise _bad(data_source, f"{where} has keys {sorted(test)[:8]} (expected {sorted(need)})")
    identity = test["identity"]
    if not _plain_text(test["level"]) or (identity is not None and type(identity) is not dict):
        raise _bad(data_source, f"{where}: level must be text, identity an object or null")
    if kind == "stdin":
        if not _plain_text(test["stdin"]) or not _plain_text(test["expected"]):
            raise _bad(data_source, f"{where}: stdin and expected must be text")
        return SuiteTest(test["level"], test["stdin"], None, test["expected"], identity,
                         output_cap(judge, test["expected"]))
    try:
        args, _ = decode(test["args"]), decode(test["expected"])
    except (ValueProblem, ValueError, TypeError, RecursionError) as exc:
        raise _bad(data_source, f"{where}: args/expected are not encoded values: {exc}") from None
    if type(args) is not list:
        raise _bad(data_source, f"{where}: args must encode a list of arguments")
    return SuiteTest(test["level"], None, test["args"], test["expected"], identity,
                     output_cap(judge, test["expected"]))


# -- judging one run -------------------------------------------------------------------------


def passes_value(expected: Any, result: str | None) -> bool:
    """Whether a function run's return value (its JSON) equals ``expected`` (encoded)."""
    if result is None:
        return False
    try:
        got = decode(json.loads(result))
        return same_value(decode(expected), got)
    except (ValueProblem, ValueError, TypeError, RecursionError):
        return False


def shown_as_answer(output: str) -> str:
    """A program's output as a response the bootcamp's ``verify_score`` reads an answer from
    (an output that holds the answer tags itself is shown as an empty answer)."""
    bad = ANSWER_OPEN in output or ANSWER_CLOSE in output
    return f"{ANSWER_OPEN}{'' if bad else output}{ANSWER_CLOSE}"


@dataclass(slots=True)
class TestOutcome:
    index: int
    level: str
    passed: bool
    status: str  # the run's status (exited, timeout, overflow, lost)
    code: int | None
    elapsed_s: float
    cpu_s: float
    detail: str = ""


@dataclass(slots=True)
class CodeScore:
    """A response's score and its evidence: one outcome per test that ran."""

    score: float
    program: bool  # a program was found in the response
    passed: int = 0
    total: int = 0  # the tests the judge decides
    outcomes: list[TestOutcome] = field(default_factory=list)


# -- the reward ------------------------------------------------------------------------------

Judge = Callable[[str, str, dict[str, Any]], float]


class CodeReward:
    """Scores code rows (the module docstring). ``library``: the library whose manifest the
    suites' module hashes are checked against. ``judge(bootcamp, response, identity) -> score``:
    the bootcamp's ``verify_score`` (sandboxed by the answer reward; raising
    :class:`JudgeFailure` for a defect). ``refused(bootcamp) -> bool``: the bootcamp is
    quarantined. ``size`` sandboxed runners at a time on ``backend``; ``fraction``: the default
    scoring (the share of tests passed instead of all-or-nothing). Thread-safe."""

    def __init__(self, library: Library, *, judge: Judge | None = None,
                 refused: Callable[[str], bool] | None = None, on_judged: Callable[
                     [str, dict[str, Any]], None] | None = None,
                 size: int = 2, backend: str = "auto", fraction: bool = False,
                 memory_mb: int = 1024, label: str = "synth-code-runner") -> None:
        self.library = library
        self.judge = judge
        self.refused = refused or (lambda name: False)
        self.on_judged = on_judged
        self.size, self.backend, self.fraction = size, backend, fraction
        self.memory_mb, self.label = memory_mb, label
        self._pool: ProgramPool | None = None
        self._lock = threading.Lock()
        self._suites: OrderedDict[tuple[str, str], Suite] = OrderedDict()
        self._hashes: dict[str, str] = {}  # bootcamp -> the library's module sha256

    def __call__(self, data_source: str, solution_str: Any, ground_truth: Any,
                 extra_info: dict[str, Any] | None = None, *, fraction: bool | None = None
                 ) -> float:
        return self.evaluate(data_source, solution_str, ground_truth, extra_info,
                             fraction=fraction).score

    def evaluate(self, data_source: str, solution_str: Any, ground_truth: Any,
                 extra_info: dict[str, Any] | None = None, *, fraction: bool | None = None
                 ) -> CodeScore:
        """The score with its evidence (what :meth:`__call__` returns the ``score`` of)."""
        suite = self.suite(data_source, ground_truth, extra_info)
        share = self.fraction if fraction is None else bool(fraction)
        program = extract_program(solution_str)
        if program is None or not _plain_text(program):
            return CodeScore(0.0, False, total=len(suite.judged()))
        if self.refused(suite.bootcamp):
            return CodeScore(0.0, True, total=len(suite.judged()))
        try:
            return self._pool_().call(lambda runner: self._run(runner, suite, program, share))
        except ProgramSandboxError as exc:
            raise RewardSandboxError(f"cannot run programs for {data_source!r}: {exc}") from exc
        except JudgeFailure as exc:
            FINDINGS[suite.bootcamp] += 1
            log.error("bootcamp %s: check_output failed on a program's output (%d so far): %s",
                      data_source, FINDINGS[suite.bootcamp], str(exc)[:2000])
            return CodeScore(0.0, True, total=len(suite.judged()))

    def suite(self, data_source: Any, ground_truth: Any,
              extra_info: dict[str, Any] | None = None) -> Suite:
        """The row's suite, checked against the format and the library (cached by its text)."""
        if not isinstance(data_source, str) or not data_source.startswith(CODE_PREFIX):
            raise RewardDataError(f"data_source {data_source!r} is not a code data source "
                                  f"(expected '{CODE_PREFIX}<name>')")
        name = data_source[len(CODE_PREFIX):]
        key = None
        if isinstance(ground_truth, str):
            key = (name, hashlib.sha256(ground_truth.encode("utf-8", "surrogatepass")).hexdigest())
        with self._lock:
            suite = self._suites.get(key) if key is not None else None
            if suite is not None:
                self._suites.move_to_end(key)  # type: ignore[arg-type]
        if suite is None:
            suite = parse_suite(data_source, ground_truth)
            if suite.bootcamp != name:
                raise RewardDataError(f"data_source {data_source!r} holds a suite of bootcamp "
                                      f"{suite.bootcamp!r}")
            self._check_module(data_source, name, suite.code_sha256)
            if key is not None:
                with self._lock:
                    self._suites[key] = suite
                    while len(self._suites) > 256:
                        self._suites.popitem(last=False)
        want = extra_info.get("suite_sha256") if isinstance(extra_info, dict) else None
        if isinstance(want, str) and suite.sha256 and want != suite.sha256:
            raise RewardDataError(f"extra_info.suite_sha256 of a {data_source!r} row does not "
                                  "match its ground truth (the row was changed after export)")
        return suite

    def _check_module(self, data_source: str, name: str, digest: str) -> None:
        known = self._hashes.get(name)
        if known is None:
            try:
                rec, _ = self.library.checked_code(name)
            except LibraryError as exc:
                raise RewardDataError(f"data_source {data_source!r}: {exc}") from exc
            known = self._hashes.setdefault(name, rec.code_sha256)
        if known != digest:
            raise RewardDataError(
                f"data_source {data_source!r}: the suite was built from a module with sha256 "
                f"{digest[:12]}..., the library's {name} is {known[:12]}...: export the code rows "
                "again from this library")

    def _pool_(self) -> ProgramPool:
        if self._pool is None:
            with self._lock:
                if self._pool is None:
                    try:
                        self._pool = ProgramPool(self.size, self.backend,
                                                 memory_mb=self.memory_mb, label=self.label)
                    except Exception as exc:
                        raise RewardSandboxError(f"cannot start program runners: {exc}") from exc
        return self._pool

    def _run(self, runner: Runner, suite: Suite, program: str, fraction: bool) -> CodeScore:
        tests = suite.judged()
        runner.load(Program(suite.kind, program, suite.time_limit_s, suite.memory_mb,
                            suite.entry_point))
        result = CodeScore(0.0, True, total=len(tests))
        for index, test in enumerate(tests):
            if suite.kind == "stdin":
                run = runner.test(stdin=test.stdin, max_output=test.cap)
            else:
                run = runner.test(args=test.args, max_output=test.cap)
            in_time = run.cpu_s <= suite.time_limit_s
            passed = run.ok and in_time and self._judged(suite, test, run)
            detail = run.detail or ("" if in_time else f"{run.cpu_s:.2f} s of CPU > "
                                    f"{suite.time_limit_s:g} s") or run.stderr[-300:]
            result.outcomes.append(TestOutcome(index, test.level, passed, run.status, run.code,
                                               run.elapsed_s, run.cpu_s, detail))
            result.passed += passed
            if not passed and not fraction:
                break
        result.score = result.passed / len(tests) if fraction else float(
            result.passed == len(tests))
        return result

    def _judged(self, suite: Suite, test: SuiteTest, run: ProgramRun) -> bool:
        if suite.judge == "value":
            return passes_value(test.expected, run.result)
        if suite.judge == "tokens":
            return same_tokens(test.expected, run.stdout)
        if self.judge is None:
            raise RewardSandboxError("no check_output judge is configured for code rows")
        assert test.identity is not None
        score = self.judge(suite.bootcamp, shown_as_answer(run.stdout), test.identity)
        if self.on_judged is not None:
            self.on_judged(suite.bootcamp, test.identity)
        return score == 1.0

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()
