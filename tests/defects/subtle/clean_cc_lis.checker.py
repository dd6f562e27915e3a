"""Independent checker for clean_cc_lis (longest strictly increasing subsequence)."""

import functools
import re


def _lis(values):
    vals = tuple(values)

    @functools.lru_cache(maxsize=None)
    def longest_from(i):
        return 1 + max((longest_from(j) for j in range(i + 1, len(vals)) if vals[j] > vals[i]),
                       default=0)

    return max(longest_from(i) for i in range(len(vals)))


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == _lis(identity["readings"])


def solve(identity):
    return str(_lis(identity["readings"]))


def probes(identity):
    k = _lis(identity["readings"])
    non_decreasing = 1
    run = 1
    r = identity["readings"]
    for a, b in zip(r, r[1:]):
        run = run + 1 if b >= a else 1
        non_decreasing = max(non_decreasing, run)
    return [str(k + 1), str(k - 1), str(non_decreasing)]
