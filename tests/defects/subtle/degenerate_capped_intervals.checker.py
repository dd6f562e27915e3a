"""Independent checker for degenerate_capped_intervals (most non-overlapping meetings, DP)."""

import bisect
import re


def _most(identity):
    ms = sorted(identity["meetings"], key=lambda m: m[1])
    ends = [b for _, b in ms]
    best = [0] * (len(ms) + 1)
    for i, (a, _b) in enumerate(ms, 1):
        j = bisect.bisect_right(ends, a, 0, i - 1)
        best[i] = max(best[i - 1], best[j] + 1)
    return best[-1]


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == _most(identity)


def solve(identity):
    return str(_most(identity))


def probes(identity):
    m = _most(identity)
    return [str(m + 1), str(m - 1)]
