"""The audit of InternBootcamp-style classes: the library's own semantics, judged on the host.

:class:`~synth.gate.suite.Suite` calls :func:`judge` on every check's result in intern mode:

* a failure caused by a missing third-party module becomes ``cannot_judge``
  (:func:`synth.gate.severity.classify_missing`);
* an exception the library's ``verify_score`` swallowed into a score during the check is
  reported as a ``convention`` (with the exception, its message and the response's head), or as
  ``cannot_judge`` when it is an ``ImportError`` of a missing dependency;
* a class that draws from the global ``random`` generator gets a ``convention`` finding on the
  determinism check (the shim seeds that generator for every instance).

:func:`roundtrip` decides whether cases with tuples -- which InternBootcamp stores as JSON, so
they come back as lists -- still verify the same way after the round trip.
"""

from __future__ import annotations

from typing import Any

from synth.gate import severity
from synth.gate.calls import Failure
from synth.gate.probes import case_answers
from synth.gate.results import failure_result, result
from synth.gate.suite import Suite

__all__ = ["ROUNDTRIP_BUDGET_S", "ROUNDTRIP_CASES", "judge", "roundtrip"]

#: How many converted (tuple) cases the generate check compares before and after the round trip.
ROUNDTRIP_CASES = 3
#: Verification time after which no further case is compared (one always is).
ROUNDTRIP_BUDGET_S = 1.0


def judge(s: Suite, name: str, res: dict[str, Any]) -> dict[str, Any]:
    """``res`` of the check ``name`` with the audited library's semantics applied (see the
    module docstring)."""
    swallowed, count = s.cand.swallowed, s.cand.swallowed_count
    s.cand.swallowed, s.cand.swallowed_count = [], 0
    if swallowed:
        s.notes.append(swallowed_note(swallowed, count))
    if name == "determinism" and res["status"] != "skipped":
        calls = severity.global_random(s.source)
        if calls:
            s.notes.append(severity.note(
                "convention", "global_random", "draws from the global random generator "
                f"({calls[0]}; InternBootcamp's convention): the audit seeds it for every "
                "instance, so its cases reproduce here only because of that seeding",
                global_random="\n".join(calls)))
    return severity.merge(severity.classify_refused(severity.classify_missing(res)), s.notes)


def swallowed_note(swallowed: list[dict[str, str]], count: int) -> dict[str, Any]:
    """The note for the exceptions ``verify_score`` swallowed during one check."""
    first = swallowed[0]
    examples = "\n\n".join(f"{e['where']} raised {e['message']}\nresponse (head): "
                           f"{e['response']!r}" for e in swallowed[:3])
    missing = next((m for e in swallowed
                    if (m := severity.missing_dependency(e["traceback"], e["message"]))), None)
    if missing is not None:
        return severity.note(
            "cannot_judge", "missing_dependency", f"cannot judge the verifier: it needs the "
            f"module {missing}, which is not installed where the sandbox runs (verify_score "
            "swallowed the ImportError into a score)", missing_module=missing,
            swallowed=examples, traceback=first["traceback"])
    return severity.note(
        "convention", "swallowed_exception", f"verify_score swallowed {count} exception(s) "
        f"into a score, as InternBootcamp's verify_score does (first: {first['where']} raised "
        f"{first['message'][:160]} on the response {first['response'][:60]!r})",
        swallowed=examples, swallowed_traceback=first["traceback"])


def _said(pair: tuple[Any, Any]) -> str:
    score, swallowed = pair
    return f"{score!r}" + (f" (swallowing a {swallowed})" if swallowed else "")


def roundtrip(s: Suite) -> dict[str, Any] | None:
    """Cases with tuples (or int keys) are used in their JSON form, as InternBootcamp's data
    pipeline stores them. That is a convention when verify_score behaves the same -- score and
    swallowed exception -- on the case as generated and after the round trip, for every probe
    response (garbage, and answers made of the case's own values); else the reject finding
    ``roundtrip_changes_verdict``. Returns that result, or None (a convention note was added)."""
    converted, total = s.cand.converted, s.cand.converted_count
    what = converted[0][1].split("; use only")[0]
    compared, cases, spent = 0, 0, 0.0
    for text, _ in converted[:ROUNDTRIP_CASES]:
        if spent > ROUNDTRIP_BUDGET_S:
            break
        responses = case_answers(text)
        cases += 1
        try:
            pairs, dt = s.cand.roundtrip(text, responses, s.limit(s.cfg.call_max_s))
        except Failure as f:
            return failure_result(f, "comparing verify_score on a case before and after its "
                                  "JSON round trip:", case=text)
        for response, (before, after) in zip(responses, pairs, strict=True):
            compared += 1
            if before != after:
                return result("failed", "the case changes meaning in a JSON round trip (as "
                              "InternBootcamp's pipeline stores it): verify_score gives "
                              f"{_said(before)} on the case as generated and {_said(after)} "
                              f"after the round trip ({what})",
                              finding="roundtrip_changes_verdict", case=text, response=response)
        spent += dt
    s.notes.append(severity.note(
        "convention", "tuples_in_case", f"{total} case(s) change in a JSON round trip ({what}); "
        "InternBootcamp stores cases as JSON, and verify_score behaves the same after the round "
        f"trip on {compared} probe response(s) over {cases} case(s)", case=converted[0][0][:2000]))
    return None

