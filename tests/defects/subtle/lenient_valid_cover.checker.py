"""Independent checker for lenient_valid_cover (minimum vertex cover, smallest sizes first)."""

import itertools
import re


def _covers(edges, verts):
    return all(a in verts or b in verts for a, b in edges)


_MEMO = {}


def _smallest(identity):
    key = (identity["n"], tuple(map(tuple, identity["edges"])))
    if key not in _MEMO:
        _MEMO[key] = _search(identity)
    return _MEMO[key]


def _search(identity):
    edges = identity["edges"]
    for k in range(identity["n"] + 1):
        for combo in itertools.combinations(range(identity["n"], 0, -1), k):
            if _covers(edges, set(combo)):
                return sorted(combo)
    raise AssertionError("no cover")


def check(identity, answer):
    toks = answer.split()
    if not all(re.fullmatch(r"[0-9]+", t) for t in toks):
        return False
    got = [int(t) for t in toks]
    if got != sorted(set(got)) or any(not 1 <= v <= identity["n"] for v in got):
        return False
    return _covers(identity["edges"], set(got)) and len(got) == len(_smallest(identity))


def solve(identity):
    return " ".join(map(str, _smallest(identity)))


def probes(identity):
    best = _smallest(identity)
    extra = next(v for v in range(1, identity["n"] + 1) if v not in best)
    return [" ".join(map(str, range(1, identity["n"] + 1))),
            " ".join(map(str, sorted([*best, extra]))), " ".join(map(str, best[1:]))]
