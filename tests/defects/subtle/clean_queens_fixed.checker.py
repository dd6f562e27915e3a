"""Independent checker for clean_queens_fixed (n queens with one given queen)."""

import re


def check(identity, answer):
    n, toks = identity["n"], answer.split()
    if len(toks) != n or not all(re.fullmatch(r"[0-9]+", t) for t in toks):
        return False
    queens = [(r, int(t)) for r, t in enumerate(toks, 1)]
    if (identity["row"], identity["col"]) not in queens:
        return False
    if any(not 1 <= c <= n for _, c in queens):
        return False
    for i, (r1, c1) in enumerate(queens):
        for r2, c2 in queens[i + 1:]:
            if c1 == c2 or r1 - c1 == r2 - c2 or r1 + c1 == r2 + c2:
                return False
    return True


def _placements(identity, limit):
    n, out = identity["n"], []

    def go(cols):
        if len(out) >= limit:
            return
        r = len(cols) + 1
        if r > n:
            out.append(cols)
            return
        for c in range(n, 0, -1):
            if r == identity["row"] and c != identity["col"]:
                continue
            if all(c != d and abs(c - d) != r - q for q, d in enumerate(cols, 1)):
                go([*cols, c])

    go([])
    return out


def solve(identity):
    return " ".join(map(str, _placements(identity, 1)[0]))


def probes(identity):
    sols = _placements(identity, 3)
    out = [" ".join(map(str, s)) for s in sols]
    out.append(" ".join(map(str, range(1, identity["n"] + 1))))
    out.append(" ".join(map(str, sols[0][::-1])))
    return out
