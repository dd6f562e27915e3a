"""Independent checker for clean_three_coloring (any proper colouring with R, G, B)."""

import itertools


def check(identity, answer):
    s = answer.strip()
    if len(s) != identity["n"] or not set(s) <= set("RGB"):
        return False
    return all(s[a - 1] != s[b - 1] for a, b in identity["borders"])


def _colourings(identity, limit):
    n, out = identity["n"], []
    order = sorted(range(1, n + 1), key=lambda v: -sum(v in e for e in identity["borders"]))
    nbrs = {v: {u for e in identity["borders"] if v in e for u in e if u != v}
            for v in range(1, n + 1)}

    def go(i, given):
        if len(out) >= limit:
            return
        if i == n:
            out.append("".join(given[v] for v in range(1, n + 1)))
            return
        v = order[i]
        for c in "BGR":
            if all(given.get(u) != c for u in nbrs[v]):
                given[v] = c
                go(i + 1, given)
                del given[v]

    go(0, {})
    return out


def solve(identity):
    return _colourings(identity, 1)[0]


def probes(identity):
    out = _colourings(identity, 4)
    perm = dict(zip("RGB", "GBR"))
    out.append("".join(perm[c] for c in out[0]))
    out += ["R" * identity["n"], "".join(itertools.islice(itertools.cycle("RG"), identity["n"]))]
    return out
