"""``run_checks``: the whole gate on one candidate module -> :class:`CheckReport`.

The static gate (L0, a lint) reads the source here; then :func:`run_suite` runs every other
check, in the report's order, on a :class:`~synth.gate.suite.Suite` (the state the checks share
and the candidate's sandboxed method server). This module is the one place that knows every
check (:data:`CHECKS`): the check modules import the suite, never the runner. The sandbox only
answers; the verdict is computed from validated answers in this process. ``sandbox_error`` is reserved for the
infrastructure and is never blamed on the candidate.

InternBootcamp-style modules (``from bootcamp import Basebootcamp`` and similar) are audited
with a shim (``synth/sandbox/intern_shim.py``): the checks that need what such classes lack
(``reference_answer``, ``LEVELS``) are skipped with the reason, the library's conventions are
``convention`` findings (the static gate's among them), and a missing dependency of the audited
code is ``cannot_judge`` (:mod:`synth.gate.severity`). Given an independent checker, such a
module gets the differential check too (it needs no reference answer: :class:`_Audit`).

A multi-turn bootcamp (its class derives from ``MultiTurnBootcamp``) gets the episode checks of
:mod:`synth.gate.episodes` instead of the single-turn answer checks.
"""

from __future__ import annotations

import ast
import hashlib
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from synth import compiled
from synth.gate import (
    answers,
    basics,
    differential,
    engines,
    functions,
    inputs,
    intern,
    intern_fields,
    intern_probes,
    key,
)
from synth.gate.calls import Failure
from synth.gate.episodes import EPISODE_CHECKS, EpisodeSuite, declares_multi_turn
from synth.gate.key import Voter
from synth.gate.report import CHECK_NAMES, CheckConfig, CheckReport, CheckResult, CheckStatus
from synth.gate.results import failure_result, result
from synth.gate.suite import NO_REFERENCE, Suite
from synth.sandbox import get_backend
from synth.sandbox.base import Backend
from synth.sandbox.static import check_source, format_violations
from synth.text import pyast
from synth.text.utf8 import describe, escape_surrogates, find_unencodable

__all__ = ["CHECKS", "detect_mode", "run_checks", "run_checks_file", "run_suite"]

_INTERN_BASES = frozenset({"bootcamp", "base", "internbootcamp.bootcamp", "internbootcamp.bootcamp.base",
                           "internbootcamp.bootcamp.base_bootcamp"})


def detect_mode(source: str) -> tuple[Literal["native", "intern"], bool]:
    """("intern", relative) when the module imports InternBootcamp's ``Basebootcamp``."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError):
        return "native", False
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == "Basebootcamp" for a in node.names):
            module = node.module or ""
            if node.level > 0 or module in _INTERN_BASES or module.endswith(".base"):
                return "intern", node.level > 0
    return "native", False


def _static(source: str, mode: str) -> tuple[CheckResult, bool]:
    """(result, parses) of the L0 gate. In intern mode its findings are informational."""
    start = time.perf_counter()
    violations = check_source(source, "intern" if mode == "intern" else "synth")
    elapsed = time.perf_counter() - start
    parses = not any(v.rule == "syntax" for v in violations)
    hard = mode == "native"
    if not violations:
        return CheckResult(name="static", status=CheckStatus.PASSED, hard=hard, elapsed_s=elapsed,
                           reason="shape, imports and names pass the static gate"), parses
    return CheckResult(
        name="static", status=CheckStatus.FAILED, hard=hard, elapsed_s=elapsed,
        reason=f"{len(violations)} static rule violation(s); first: {violations[0]}",
        artifacts={"violations": format_violations(violations)},
        severity="reject" if hard else "convention",
    ), parses


class _Audit(Suite):
    """The suite of an InternBootcamp-style module given an independent checker: the
    differential check needs no reference answer there (``differential._compare_intern``), so
    it runs whenever the generic rules let it (the module's gates passed, time is left)."""

    def skip_reason(self, name: str) -> str | None:
        why = super().skip_reason(name)
        if name == "differential" and why == f"not applicable: {NO_REFERENCE}":
            return None
        return why


#: Every check of a single-turn bootcamp, by name (a multi-turn one's: EPISODE_CHECKS)
CHECKS: dict[str, Callable[[Suite], dict[str, Any]]] = {
    **basics.CHECKS,
    **answers.CHECKS,
    "differential": differential.check_differential,
    **inputs.CHECKS,
    **key.CHECKS,
    **intern_probes.CHECKS,
    "case_fields": intern_probes.guarded(intern_fields.check_case_fields),
}


def _checks_of(suite: Suite) -> dict[str, Callable[[Any], dict[str, Any]]]:
    """The checks of ``suite``: a multi-turn bootcamp's episode checks; a function bootcamp's
    oracle and inputs checks (:mod:`synth.gate.functions`) in place of the stdin ones."""
    if isinstance(suite, EpisodeSuite):
        return dict(EPISODE_CHECKS)
    if suite.entry_point is not None and suite.reference is not None:
        return {**CHECKS, **functions.CHECKS}
    return dict(CHECKS)


def run_suite(suite: Suite) -> dict[str, dict[str, Any]]:
    """Run the suite's checks in the report's order, each on the state the earlier ones left
    (a check the rules skip says why), then end its sandbox sessions."""
    checks = _checks_of(suite)
    out: dict[str, dict[str, Any]] = {}
    rejected_by = ""
    try:
        for name in suite.names:
            if name == "static":  # judged before the sandbox starts (_static)
                continue
            skip = suite.skip_reason(name) if not rejected_by else \
                f"not run: the {rejected_by} check rejected the bootcamp (fail_fast)"
            if skip is not None:
                out[name] = {**result("skipped", skip), "elapsed_s": 0.0}
                continue
            suite.current, suite.spent, suite.notes = name, 0.0, []
            t0 = time.perf_counter()
            try:
                res = checks[name](suite)
            except Failure as f:
                res = failure_result(f, "the bootcamp")
            if suite.intern:
                res = intern_probes.collect_events(suite, name, res)
                res = intern.judge(suite, name, res)
            res["elapsed_s"] = round(time.perf_counter() - t0, 4)
            if not suite.cand.server.alive and not suite.hung:
                suite.hung = name  # the host killed it, or it died: nothing more to ask
            suite.record(name, res)
            out[name] = res
            if suite.cfg.fail_fast and res.get("status") == "failed" and res.get("hard", True) \
                    and res.get("severity", "reject") == "reject" and not rejected_by:
                rejected_by = name
            if name == "generate" and res.get("status") == "passed":
                suite.start_fresh_draw()  # the generation times are measured by now
    finally:
        suite.close()
    return out


def run_checks(
    source: str,
    *,
    reference: str | None = None,
    backend: str | Backend = "auto",
    config: CheckConfig | None = None,
    name: str = "",
    checker: str | None = None,
    example_inputs: list[str] | None = None,
    task_text: str | None = None,
    validator: str | None = None,
    voters: Sequence[Voter] = (),
    function_tests: str | None = None,
) -> CheckReport:
    """Run the whole gate on one candidate module's source. Never raises for candidate
    behaviour; an unavailable backend raises ``SandboxUnavailableError`` (from get_backend).

    ``example_inputs``: the task's example inputs (standard input texts), with ``reference``: the
    oracle check also compares the shape of ``render_stdin`` with them.

    ``task_text``: the task's problem text (statement, Input section, examples); ``validator``:
    the source of an input validator (``validate(stdin) -> None | str``). A compiled module
    (:mod:`synth.compiled`) brings its own program and text: when ``reference`` or
    ``task_text`` is not given, the embedded one is used, so ``synth check FILE`` runs the
    checks the workflow runs.

    ``voters``: other programs that vote on the answer key in the key check (the task's other
    solutions, a judge's solver: :mod:`synth.gate.key`); ``reference``, when it is not the
    module's own key, votes too.

    A function bootcamp (it embeds ``_ENTRY_POINT``) gets the function oracle and inputs
    checks; ``function_tests``, the task's test code (HumanEval's ``check``), adds the
    arguments of its calls to the evidence of what the function takes."""
    cfg = engines.budgets(config or CheckConfig(), source)  # engine time, where declared
    reference, task_text = _embedded(source, reference, task_text)
    start = time.perf_counter()
    mode, relative = detect_mode(source)
    place = find_unencodable(source, 1)
    if place:  # no file, no sandbox, no hash takes it: refused before anything reads it
        source = escape_surrogates(source)
    sha = hashlib.sha256(source.encode("utf-8")).hexdigest()
    static, parses = _static(source, mode)
    if place:
        static = CheckResult(name="static", status=CheckStatus.FAILED, finding="unencodable_text",
                             reason=f"the module's source is not valid UTF-8: "
                             f"{describe(place[0], 'the source')}")
        parses = False
    runner = get_backend(backend) if isinstance(backend, str) else backend
    checks = [static]
    sandbox_s = 0.0
    if not parses:
        checks.append(CheckResult(name="load", status=CheckStatus.FAILED,
                                  reason=f"the module does not parse: {static.reason}",
                                  artifacts=static.artifacts))
        checks += [CheckResult(name=n, status=CheckStatus.SKIPPED,
                               reason="not run: the module does not parse")
                   for n in CHECK_NAMES[2:]]
    else:
        t0 = time.perf_counter()
        kind: type[Suite] = _Audit if mode == "intern" and checker is not None else Suite
        if mode == "native" and declares_multi_turn(source):
            kind = EpisodeSuite  # reset/step episodes: the multi-turn checks
        suite = kind(cfg, source, mode=mode, relative=relative, reference=reference,
                     backend=runner, checker=checker, example_inputs=example_inputs,
                     task_text=task_text, validator=validator)
        suite.voters = tuple(voters)
        suite.entry_point = compiled.embedded_entry_point(source) if reference else None
        suite.function_tests = function_tests
        done = run_suite(suite)
        sandbox_s = time.perf_counter() - t0
        checks += [CheckResult(name=n, **done[n]) for n in suite.names if n != "static"]
    infra = any(c.status is CheckStatus.SANDBOX_ERROR for c in checks)
    passed = not infra and all(c.ok for c in checks)
    return CheckReport(
        candidate_sha256=sha,
        candidate_name=name,
        mode=mode,
        backend=runner.name,
        checks=checks,
        passed=passed,
        infrastructure_error=infra,
        timings={"static_s": round(static.elapsed_s, 4), "sandbox_s": round(sandbox_s, 4),
                 "total_s": round(time.perf_counter() - start, 4)},
    )


def _embedded(source: str, reference: str | None,
              task_text: str | None) -> tuple[str | None, str | None]:
    """The reference program and task text to judge ``source`` with: those given, else what
    an assembled compiled module embeds (read with ast, never run)."""
    if reference is not None and task_text is not None:
        return reference, task_text
    try:
        own = compiled.parts(source)
    except (compiled.AssemblyError, SyntaxError, ValueError, RecursionError):
        return reference, task_text
    return (reference if reference is not None else own.program,
            task_text if task_text is not None else own.task_text)


def run_checks_file(path: Path, *, reference: Path | None = None, backend: str | Backend = "auto",
                    config: CheckConfig | None = None, checker: Path | None = None,
                    task_text: str | None = None, validator: Path | None = None,
                    example_inputs: list[str] | None = None,
                    voters: Sequence[Voter] = ()) -> CheckReport:
    """:func:`run_checks` on a file (and optional reference program, checker and validator
    files, the task's text and example inputs, and the key's other voters)."""
    ref = reference.read_text(encoding="utf-8") if reference is not None else None
    chk = checker.read_text(encoding="utf-8") if checker is not None else None
    val = validator.read_text(encoding="utf-8") if validator is not None else None
    return run_checks(path.read_text(encoding="utf-8"), reference=ref, backend=backend,
                      config=config, name=path.name, checker=chk, task_text=task_text,
                      validator=val, example_inputs=example_inputs, voters=voters)
