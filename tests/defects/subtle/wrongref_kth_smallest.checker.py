"""Independent checker for wrongref_kth_smallest (k-th smallest with duplicates, 1-based k)."""

import heapq
import re


def _kth(identity):
    return heapq.nsmallest(identity["k"], identity["numbers"])[-1]


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[+-]?[0-9]+", text)) and int(text) == _kth(identity)


def solve(identity):
    return str(_kth(identity))


def probes(identity):
    ordered = sorted(identity["numbers"])
    k = identity["k"]
    return [str(ordered[k]), str(ordered[k - 2]) if k >= 2 else str(ordered[-1])]
