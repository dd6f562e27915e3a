"""The ``inputs`` check: every generated case's standard input is one the statement allows.

A compiled bootcamp's answer key is the reference program's output on ``render_stdin(case)``:
right by construction only when the input is one the problem allows. This check reads the
task's problem text (a compiled module's embedded ``TASK_TEXT``, or ``--task``) and judges the
rendered input of **every** case the suite generated, on every level:

* against the checker :func:`synth.statement.derive` builds from the Input section and the
  example inputs, with no model (the layout, bounds, sums over test cases, alphabets, and the
  guarantees it recognises; rules that reject an example are dropped and reported);
* against an input validator (``validate(stdin) -> None | str``) when one is given: the judge
  role's in the workflow, or ``synth check --validator``; it runs in its own sandbox session
  (:mod:`synth.gate.validator`);
* when the statement promises that an answer exists, against the reference program's outputs
  (from the oracle check's runs): a "no solution" output there means the input breaks the promise;
* a compiled bootcamp's ``STRESS`` level (code test suites only, never a prompt), when it has
  one: :data:`STRESS_CASES` cases drawn with those parameters must pass the same statement
  checker and validator, be larger than every level's input (a stress level at the levels' sizes
  catches no slow program), and the reference program must finish on each within
  :data:`STRESS_TIMEOUT_S` (finding ``stress_invalid``).

A violation is a failed check with the case, its stdin, the rule and the statement's words it
came from; the result always lists what was checked and what could not be.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from synth.gate.calls import Failure
from synth.gate.multi_answer import defines_check_output
from synth.gate.programs import ProgramRuns, run_program
from synth.gate.results import failure_result, result
from synth.gate.suite import Suite
from synth.sandbox.base import Backend
from synth.sandbox.kit import json_problem
from synth.statement import InputChecker, derive, split_sections
from synth.statement.answers import answer_guaranteed, impossible_outputs, says_impossible

__all__ = ["ANSWER_SHOWN_SHARE", "CHECKS", "StressProblem", "answer_in_prompt", "check_inputs",
           "input_checker", "judge_stress", "stress_reference"]

#: cases whose input is checked when no other check generated more (spread over the levels)
MIN_CASES = 60
#: seconds of generation the check may spend adding cases
GEN_BUDGET_S = 1.0
#: the share of a level's cases that may be ones the prompt shows with their answer (the
#: statement's examples, a docstring's ``>>>`` calls) before that level gives answers away
ANSWER_SHOWN_SHARE = 0.3

#: STRESS cases drawn and checked (code test suites draw their own)
STRESS_CASES = 3
#: seconds the reference program may take on one STRESS input (a generous multiple of a
#: contest's limit: a Python reference in the sandbox is slower than the judge's)
STRESS_TIMEOUT_S = 20.0
#: seconds one STRESS case may take to generate, and to render
STRESS_CALL_S = 10.0
#: the largest STRESS input taken (2*10^5 values up to 10^9 is about 2.2 MB; a reply of the
#: sandboxed server is at most 4 MB)
STRESS_MAX_CHARS = 3_500_000


@lru_cache(maxsize=64)
def _derive(text: str, examples: tuple[str, ...] | None) -> InputChecker:
    return derive(text, list(examples) if examples is not None else None)


def input_checker(text: str, example_inputs: list[str] | None = None) -> InputChecker:
    """The model-free checker of a problem text (cached: the parser is pure)."""
    return _derive(text, tuple(example_inputs) if example_inputs else None)


def _render_all(s: Suite) -> list[tuple[int, int, str]]:
    """(level, index, stdin) of every generated case (``Suite.stdins``: batched, cached). A
    case whose rendering failed is asked once more alone, so that its failure is a finding
    with its evidence."""
    keys = [(li, i) for li, i, _ in s.each_case()]
    texts = s.stdins(keys)
    out: list[tuple[int, int, str]] = []
    for li, i in keys:
        text = texts[(li, i)]
        if text is None:
            text, _ = s.cand.stdin(s.cases[li][i], s.limit(2.0))  # raises Failure: the evidence
        out.append((li, i, text))
    return out


def _lines(items: list[str], limit: int = 40) -> str:
    shown = items[:limit] + ([f"... and {len(items) - limit} more"] if len(items) > limit else [])
    return "\n".join(f"- {x}" for x in shown) if shown else "(none)"


def answer_in_prompt(s: Suite, keyed: list[tuple[int, int, Any]], shown: Collection[Any],
                     what: str, show: Callable[[Any], str]) -> dict[str, Any] | None:
    """The failed result when more than :data:`ANSWER_SHOWN_SHARE` of some level's cases
    (``keyed``: level, index, key) have a key in ``shown`` -- cases whose answer the prompt
    itself shows -- else None."""
    if not shown:
        return None
    sizes: dict[int, int] = {}
    repeats: dict[int, list[tuple[int, Any]]] = {}
    for li, i, key in keyed:
        sizes[li] = sizes.get(li, 0) + 1
        if key in shown:
            repeats.setdefault(li, []).append((i, key))
    worst = max(repeats, key=lambda li: len(repeats[li]) / sizes[li], default=None)
    if worst is None or len(repeats[worst]) <= ANSWER_SHOWN_SHARE * sizes[worst]:
        return None
    i, key = repeats[worst][0]
    level = s.levels[worst][0]
    return result(
        "failed", f"{len(repeats[worst])} of the {sizes[worst]} cases of level {level!r} are "
        f"{what} (e.g. {show(key)}): the prompt gives those answers away. Generate cases the "
        "prompt does not show, e.g. draw again when a case is one of its examples",
        finding="answer_in_prompt", case=s.cases[worst][i], shown=show(key),
        level=level, share=f"{len(repeats[worst])}/{sizes[worst]}")


def _validator_broken(f: Failure, **artifacts: Any) -> dict[str, Any]:
    """The validator's own failure: reported, never blamed on the bootcamp."""
    return result("failed" if f.status == "failed" else f.status,
                  f"the input validator is broken: {f.what}", finding="validator_broken",
                  hard=False, severity="convention", trace=f.trace or None, **artifacts)


def _stress_failure(reason: str, **artifacts: Any) -> dict[str, Any]:
    return result("failed", f"STRESS: {reason}. STRESS is one more set of __init__ parameters at "
                  "the statement's limits (the largest sizes and values it allows), for code "
                  "test suites only: fix it, or leave STRESS out", finding="stress_invalid",
                  **artifacts)


@dataclass(frozen=True)
class StressProblem:
    """Why a STRESS level's inputs fail (:func:`judge_stress`): ``reason`` with the input at
    fault (``stdin``), or ``broken``: the input validator's own failure (never the preset's)."""

    reason: str
    stdin: str | None = None
    broken: Failure | None = None


def stress_reference(backend: Backend, program: str, memory_mb: int
                     ) -> Callable[[list[str]], ProgramRuns]:
    """The reference program's runs on STRESS inputs: each within :data:`STRESS_TIMEOUT_S`."""
    def run(stdins: list[str]) -> ProgramRuns:
        return run_program(backend, program, stdins, timeout_s=STRESS_TIMEOUT_S,
                           memory_mb=memory_mb, role="reference", filename="reference.py")
    return run


def judge_stress(stdins: list[str], largest_level: int, checker: InputChecker | None, *,
                 validate: Callable[[list[str]], list[str | None]] | None = None,
                 reference: Callable[[list[str]], ProgramRuns] | None = None
                 ) -> StressProblem | None:
    """The rules a STRESS level's drawn inputs must pass, a declared preset's (the gate) and a
    derived one's (:mod:`synth.suites.stress`) alike: at most :data:`STRESS_MAX_CHARS` each,
    larger than every level's input (``largest_level`` characters), allowed by the statement's
    ``checker`` and by ``validate`` (raises :class:`Failure` when the validator is broken), and
    the ``reference`` program finishes on each (:func:`stress_reference`). None: they pass."""
    biggest = max(len(x) for x in stdins)
    if biggest > STRESS_MAX_CHARS:
        return StressProblem(f"an input is {biggest} characters (at most {STRESS_MAX_CHARS})")
    if biggest <= largest_level:
        return StressProblem(
            f"its inputs ({biggest} characters at most) are no larger than the levels' "
            f"({largest_level}): a stress level at the levels' sizes catches no slow program",
            stdins[0])
    for k, stdin in enumerate(stdins):
        bad = checker.check(stdin) if checker is not None else None
        if bad is not None:
            return StressProblem(
                f"case {k} is an input the statement does not allow -- {bad.detail} (rule: "
                f"{bad.rule}; the statement says: \"{bad.words[:200]}\")", stdin)
    if validate is not None:
        try:
            reasons = validate(stdins)
        except Failure as f:
            return StressProblem(f"the input validator is broken: {f.what}", broken=f)
        for k, reason in enumerate(reasons):
            if reason is not None:
                return StressProblem(f"the input validator rejects case {k}: {reason}", stdins[k])
    if reference is not None:
        runs = reference(stdins)
        if runs.outputs is None:
            return StressProblem(runs.why("the reference program"))
        for k, run in enumerate(runs.outputs):
            if run.get("code") != 0:
                said = "does not finish within " f"{STRESS_TIMEOUT_S:g} s" \
                    if run.get("code") is None else f"fails ({str(run.get('stderr', ''))[-300:]})"
                return StressProblem(f"the reference program {said} on case {k}: the inputs "
                                     "must stay within the statement's limits", stdins[k])
    return None


def _check_stress(s: Suite, checker: InputChecker | None,
                  rendered: list[tuple[int, int, str]]) -> dict[str, Any] | str | None:
    """The STRESS level's verdict: a failed result, a line for the "checked" list, or None
    when the bootcamp has no STRESS."""
    params = s.info.get("stress")
    if params is None:
        return None
    if type(params) is not dict or "__not_plain__" in params:
        return _stress_failure("must be None or a dict of plain JSON __init__ parameters, like a "
                               "LEVELS entry", stress=params)
    problem = json_problem(params, "STRESS")
    if problem is not None:
        return _stress_failure(problem, stress=params)
    try:
        handle = s.construct(params, s.cfg.seed + 1009)
    except Failure as f:
        return failure_result(f, f"constructing STRESS = {params!r}:")
    stdins: list[str] = []
    for k in range(STRESS_CASES):
        try:
            case, _ = s.cand.generate(handle, s.limit(STRESS_CALL_S), cap=STRESS_MAX_CHARS)
            stdin, _ = s.cand.stdin(case, s.limit(STRESS_CALL_S), cap=STRESS_MAX_CHARS)
        except Failure as f:
            return failure_result(f, f"STRESS case {k}:")
        stdins.append(stdin)
    largest_level = max((len(x[2]) for x in rendered), default=0)
    validate = None
    if s.validator_source is not None:
        from synth.gate.validator import validate_all

        def validate(stdins: list[str]) -> list[str | None]:
            return validate_all(s, stdins)
    reference = stress_reference(s.backend, s.reference, s.cfg.limits.memory_mb) \
        if s.reference is not None else None
    bad = judge_stress(stdins, largest_level, checker, validate=validate, reference=reference)
    if bad is not None and bad.broken is not None:
        return _validator_broken(bad.broken)
    if bad is not None:
        return _stress_failure(bad.reason, stress=params, **(
            {"stdin": bad.stdin[:2000]} if bad.stdin is not None else {}))
    sizes = ", ".join(str(len(x)) for x in stdins)
    return (f"STRESS {params}: {len(stdins)} inputs of {sizes} characters (the levels' largest: "
            f"{largest_level}), legal" + (", and the reference finishes on each"
                                          if s.reference is not None else ""))


def check_inputs(s: Suite) -> dict[str, Any]:
    total = sum(len(c) for c in s.cases)
    if total < MIN_CASES:
        s.extend_cases(MIN_CASES, GEN_BUDGET_S)
    try:
        rendered = _render_all(s)
    except Failure as f:
        return failure_result(f, "the bootcamp")
    text = s.task_text or ""
    examples = s.example_inputs or None
    checked: list[str] = []
    not_checked: list[str] = []
    try:
        checker = input_checker(text, examples) if text else None
    except Exception as exc:  # the parser's own bug on this text: reported, never a verdict
        checker = None
        not_checked.append(f"the statement: the parser failed on it ({type(exc).__name__}: "
                           f"{str(exc)[:200]}); please report this statement")
    dropped: list[str] = []
    per_level: dict[str, int] = {}
    first: dict[str, Any] | None = None
    if checker is not None:
        checked += [f"statement {c}" for c in checker.checked()]
        not_checked += checker.not_checked
        dropped += checker.dropped
        for li, i, stdin in rendered:
            bad = checker.check(stdin)
            if bad is None:
                continue
            level = s.levels[li][0]
            per_level[level] = per_level.get(level, 0) + 1
            if first is None:
                first = {"where": s.where(li, i), "stdin": stdin, "case": s.cases[li][i],
                         "rule": bad.rule, "words": bad.words, "detail": bad.detail}
    elif not text:
        not_checked.append("the statement: no task text was given (a compiled module embeds "
                           "one; else --task)")
    summary = (f"{len(rendered)} generated inputs over {len(s.levels)} level(s); "
               f"{len(checked)} rule(s) derived from the statement, {len(not_checked)} phrase(s) "
               f"not checked, {len(dropped)} dropped (they rejected an example)")
    lists: dict[str, Any] = {"checked": _lines(checked), "not_checked": _lines(not_checked),
             "dropped": _lines(dropped)}
    if first is not None:
        spread = ", ".join(f"{k}: {v}" for k, v in per_level.items())
        return result(
            "failed", f"{first['where']}: render_stdin writes an input the statement does not "
            f"allow -- {first['detail']} (rule: {first['rule']}; the statement says: "
            f"\"{first['words'][:200]}\"). Inputs breaking it per level: {spread}. The "
            "reference program's answer on such an input means nothing for the problem: "
            "generate only inputs within the statement's bounds and guarantees",
            finding="input_violates_statement", rule=first["rule"], statement=first["words"],
            violation=first["detail"], stdin=first["stdin"], case=first["case"], **lists)
    # the prompt check (the prompt shows render_stdin's text) and the mutation check
    # (check_output probes) judge these for a compiled bootcamp; listed here with the rest
    if "prompt_input" in s.judged:
        checked.append("the prompt shows render_stdin's text (the prompt check)")
    if "check_output" in s.judged and defines_check_output(s.source):
        checked.append("check_output probes: an index reused, outside the input, pairs "
                       "reversed, another case's answer (the mutation check)")
    if s.validator_source is not None:
        from synth.gate.validator import validate_all

        try:
            reasons = validate_all(s, [x[2] for x in rendered])
        except Failure as f:
            return _validator_broken(f, **lists)
        rejected = [(k, r) for k, r in enumerate(reasons) if r is not None]
        checked.append(f"validator: {len(reasons)} inputs")
        if rejected:
            k, reason = rejected[0]
            li, i, stdin = rendered[k]
            return result(
                "failed", f"{s.where(li, i)}: the input validator rejects render_stdin's input "
                f"({len(rejected)} of {len(rendered)} inputs): {reason}",
                finding="validator_rejects_input", validator_says=reason, stdin=stdin,
                case=s.cases[li][i], **lists)
    # the examples the prompt shows with their outputs: the statement's (the embedded text)
    shown = {" ".join(x.split()) for x in
             [*(split_sections(text).example_inputs if text else []), *s.example_inputs]
             if x.strip()}
    leak = answer_in_prompt(s, [(li, i, " ".join(stdin.split())) for li, i, stdin in rendered],
                            shown, "the statement's example inputs, whose outputs it shows",
                            lambda key: repr(key[:200]))
    if leak is not None:
        leak["artifacts"].update({k: v for k, v in lists.items() if k not in leak["artifacts"]})
        return leak
    if shown:
        checked.append(f"generated inputs that are the statement's {len(shown)} example "
                       f"input(s): at most {ANSWER_SHOWN_SHARE:.0%} of a level's")
    stress = _check_stress(s, checker, rendered)
    if isinstance(stress, dict):
        stress["artifacts"].update({k: v for k, v in lists.items()
                                    if k not in stress["artifacts"]})
        return stress
    if stress is not None:
        checked.append(stress)
    promise = answer_guaranteed(text, split_sections(text).output_spec) if text else None
    if promise and s.reference_runs:
        outputs = impossible_outputs(split_sections(text).output_spec)
        checked.append(f"answer exists ({len(s.reference_runs)} reference outputs)")
        for li, i, stdin in rendered:
            run = s.reference_runs.get(stdin)
            if run is None or run.get("code") != 0:
                continue
            said = says_impossible(str(run.get("stdout", "")), outputs)
            if said is not None:
                return result(
                    "failed", f"{s.where(li, i)}: the statement promises an answer ("
                    f"\"{promise}\"), but the reference program prints {said!r} (no solution) "
                    "on render_stdin's input: generate only inputs that have an answer",
                    finding="no_solution_where_guaranteed", statement=promise, stdin=stdin,
                    stdout=str(run.get("stdout", ""))[:2000], case=s.cases[li][i], **lists)
    elif promise:
        not_checked.append(f"\"{promise}\": no reference program output to compare")
        lists["not_checked"] = _lines(not_checked)
    lists["checked"] = _lines(checked)
    if not checked:
        return result("passed", f"nothing could be checked: {summary}", **lists)
    return result("passed", summary, **lists)


CHECKS: dict[str, Callable[[Suite], dict[str, Any]]] = {"inputs": check_inputs}
