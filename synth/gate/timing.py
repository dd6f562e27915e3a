"""The timing check of a single-turn bootcamp: case generation and the verify, answer and
prompt calls within their budgets, measured on the host's clock (what the bootcamp's own
clocks say is never asked). How long the job's processes waited for a CPU that the host gave to
other work is shown beside the verdict (:mod:`synth.sandbox.runqueue`), never subtracted: a
failure on a loaded host says so."""

from __future__ import annotations

from typing import Any

from synth.gate.calls import Failure
from synth.gate.results import mean, result
from synth.gate.suite import Suite

__all__ = ["check_timing"]

#: a timing failure where the job waited for a CPU this share of its calls' time or more says
#: that the host was loaded
LOADED_SHARE = 0.2


def _fresh_case_s(s: Suite, li: int) -> float:
    """Seconds to make one case of level ``li`` as production does (export, the filter and
    review construct an instance per case): construct with another seed, generate once."""
    import time

    _, params, seed = s.levels[li]
    t0 = time.perf_counter()
    handle = s.construct(params, seed + 7907)
    s.generate(handle)
    return time.perf_counter() - t0


def check_timing(s: Suite) -> dict[str, Any]:
    """Generation and answer calls within budget, per level. A case costs production an
    instance's construction and its first ``case_generator`` call (an instance per case), so a
    level whose ``__init__`` or first case is slow fails even when later cases of one instance
    are fast: the budget per fresh case is half the slowest-case budget (``gen_max_s``, 1 s by
    default); one over it is measured once more with another seed before it counts."""
    cfg = s.cfg
    lines, problems = [], []
    fresh_max = cfg.gen_max_s / 2
    for li, ((name, _, _), times) in enumerate(zip(s.levels, s.gen_times, strict=False)):
        if not times:
            continue
        avg, top = mean(times), max(times)
        built = s.construct_times[li] if li < len(s.construct_times) else 0.0
        lines.append(f"generate {name}: mean {avg * 1000:.1f} ms, max {top * 1000:.1f} ms "
                     f"over {len(times)} cases; construct {built * 1000:.1f} ms")
        fresh = built + times[0]
        if fresh > fresh_max and not s.hung:
            try:
                fresh = min(fresh, _fresh_case_s(s, li))
            except Failure as f:
                problems.append(f"level {name!r}: a fresh instance's first case {f.what[:120]}")
                continue
            if fresh > fresh_max:
                problems.append(f"level {name!r}: one case from a fresh instance (construct + "
                                f"first case_generator call, as export and training make each "
                                f"case) takes {fresh:.2f}s (max {fresh_max:g}s): precompute "
                                "nothing heavy in __init__ or on the first call")
        if avg > cfg.gen_mean_s:
            problems.append(f"case generation at level {name!r} takes {avg:.3f}s per case "
                            f"on average (max {cfg.gen_mean_s:g}s)")
        if top > cfg.gen_max_s:
            problems.append(f"one case at level {name!r} took {top:.2f}s (max {cfg.gen_max_s:g}s)")
    for label, times in (("verify_score", s.verify_times), ("reference_answer", s.answer_times),
                         ("prompt_func", s.prompt_times)):
        if not times:
            continue
        avg, top = mean(times), max(times)
        lines.append(f"{label}: mean {avg * 1000:.2f} ms, max {top * 1000:.1f} ms "
                     f"over {len(times)} calls")
        if avg > cfg.call_mean_s or top > cfg.call_max_s:
            problems.append(f"{label} takes {avg * 1000:.1f} ms on average, {top:.2f}s at most "
                            f"(budget {cfg.call_mean_s * 1000:g} ms / {cfg.call_max_s:g}s)")
    if s.too_slow:
        problems.append(f"the {s.too_slow} check ran out of its time budget")
    waited, asked = s.cand.server.waited(), s.cand.asked_s
    share = waited / asked if asked > 0 else 0.0
    lines.append(f"the job's processes waited {waited:.2f}s for a CPU over {asked:.2f}s of calls "
                 f"({share:.0%}; the host's other work)")
    if problems:
        if share >= LOADED_SHARE:
            problems.append(f"the host was loaded: the job waited for a CPU {share:.0%} of its "
                            f"calls' time, which the times above include (check again on a "
                            "quiet host)")
        return result("failed", "; ".join(problems), timings="\n".join(lines))
    return result("passed", "generation and verification within budget (times measured on "
                  "the host)", timings="\n".join(lines))
