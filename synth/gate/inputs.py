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
  (from the oracle check's runs): a "no solution" output there means the input breaks the promise.

A violation is a failed check with the case, its stdin, the rule and the statement's words it
came from; the result always lists what was checked and what could not be.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from synth.gate.calls import Failure
from synth.gate.multi_answer import defines_check_output
from synth.gate.results import failure_result, result
from synth.gate.suite import Suite
from synth.statement import InputChecker, derive, split_sections
from synth.statement.answers import answer_guaranteed, impossible_outputs, says_impossible

__all__ = ["CHECKS", "check_inputs", "input_checker"]

#: cases whose input is checked when no other check generated more (spread over the levels)
MIN_CASES = 60
#: seconds of generation the check may spend adding cases
GEN_BUDGET_S = 1.0


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
            return result("failed" if f.status == "failed" else f.status,
                          f"the input validator is broken: {f.what}", finding="validator_broken",
                          hard=False, severity="convention", trace=f.trace or None, **lists)
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
