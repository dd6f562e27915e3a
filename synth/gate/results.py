"""What every check returns, and the small measures checks share.

A check returns a result dict (:func:`result`): a status, the reason the revise prompt shows,
the finding's code, and artifacts (each a string: the failing case, expected vs got, a
traceback tail) that :class:`~synth.gate.report.CheckResult` carries into the report."""

from __future__ import annotations

import json
from typing import Any

from synth.gate.calls import Failure


def result(status: str, reason: str, finding: str = "", hard: bool = True,
           severity: str = "reject", **artifacts: Any) -> dict[str, Any]:
    """One check's result; an artifact that is not a string is shown as JSON (or repr)."""
    arts: dict[str, str] = {}
    for key, value in artifacts.items():
        if value is None:
            continue
        arts[key] = value if type(value) is str else show(value)
    out: dict[str, Any] = {"status": status, "reason": reason, "artifacts": arts, "finding": finding}
    if not hard:
        out["hard"] = False
    if severity != "reject":
        out["severity"] = severity
    return out


def failure_result(f: Failure, context: str, **artifacts: Any) -> dict[str, Any]:
    """The result of a call into the sandbox that failed (:class:`Failure`), after ``context``."""
    return result(f.status, f"{context} {f.what}", finding=f.finding,
                  traceback=f.trace or None, **{**f.artifacts, **artifacts})


def show(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)[:4000]


def norm(text: str) -> str:
    return " ".join(text.split())


def mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def median(xs: list[float]) -> float:
    ys = sorted(xs)
    if not ys:
        return 0.0
    mid = len(ys) // 2
    return ys[mid] if len(ys) % 2 else (ys[mid - 1] + ys[mid]) / 2


def case_size(obj: Any) -> int:
    """Structural size of a case: one per number, bool or null, one per character of a string
    (a grid or a word is a sequence), summed over lists and dicts. Longer numbers do not make a
    case larger: a "hard" level that only widens the value range while its size parameter is
    silently capped does not count as larger."""
    if isinstance(obj, dict):
        return sum(case_size(v) for v in obj.values())
    if isinstance(obj, list):
        return sum(case_size(v) for v in obj)
    if isinstance(obj, str):
        return len(obj)
    return 1


def level_names_result(names: list[str], wanted: tuple[str, ...]) -> dict[str, Any] | None:
    """The failed ``levels`` result when the first presets are not named ``wanted`` in order
    (:attr:`~synth.gate.report.CheckConfig.level_names`), else None."""
    if not wanted or tuple(names[:len(wanted)]) == wanted:
        return None
    return result("failed", f"LEVELS is named {', '.join(map(repr, names))}; the library's "
                  f"bootcamps name their first presets {', '.join(map(repr, wanted))}, in that "
                  "order (easiest first), each measurably larger or harder than the one before",
                  finding="level_names")
