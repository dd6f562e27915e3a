"""Independent checker for clean_topo_any (any course order respecting the prerequisites)."""

import re


def check(identity, answer):
    toks = answer.split()
    if not all(re.fullmatch(r"[0-9]+", t) for t in toks):
        return False
    order = [int(t) for t in toks]
    if sorted(order) != list(range(1, identity["n"] + 1)):
        return False
    seen = set()
    for c in order:
        if any(b == c and a not in seen for a, b in identity["prereq"]):
            return False
        seen.add(c)
    return True


def _latest_first(identity):
    n, pre = identity["n"], identity["prereq"]
    left, out = set(range(1, n + 1)), []
    while left:
        free = [c for c in left if not any(b == c and a in left for a, b in pre)]
        pick = max(free)
        out.append(pick)
        left.remove(pick)
    return out


def solve(identity):
    return " ".join(map(str, _latest_first(identity)))


def probes(identity):
    mine = _latest_first(identity)
    return [" ".join(map(str, range(1, identity["n"] + 1))), " ".join(map(str, mine[::-1])),
            " ".join(map(str, mine[:-1]))]
