"""Independent checker for lenient_multiset_rotate (rotate a list right by k places)."""

import re


def _rotated(values, k):
    n = len(values)
    out = [0] * n
    for i, v in enumerate(values):
        out[(i + k) % n] = v
    return out


def check(identity, answer):
    want = _rotated(identity["values"], identity["k"])
    toks = answer.split()
    return len(toks) == len(want) and all(
        re.fullmatch(r"[+-]?[0-9]+", t) and int(t) == w for t, w in zip(toks, want))


def solve(identity):
    return " ".join(map(str, _rotated(identity["values"], identity["k"])))


def probes(identity):
    vals, k = identity["values"], identity["k"]
    want = _rotated(vals, k)
    opts = [vals, _rotated(vals, -k), _rotated(vals, k + 1), _rotated(vals, k - 1), sorted(vals)]
    return [" ".join(map(str, p)) for p in opts if p != want]
