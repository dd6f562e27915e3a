"""Independent checker for clean_stab_points (fewest points hitting every interval)."""

import re


def _optimum(intervals):
    """Greedy from the left end: keep the smallest right end of the current group."""
    groups, reach = 0, None
    for a, b in sorted(intervals):
        if reach is None or a > reach:
            groups, reach = groups + 1, b
        else:
            reach = min(reach, b)
    return groups


def check(identity, answer):
    toks = answer.split()
    if not toks or not all(re.fullmatch(r"[+-]?[0-9]+", t) for t in toks):
        return False
    pts = [int(t) for t in toks]
    if pts != sorted(set(pts)):
        return False
    ivs = identity["intervals"]
    return all(any(a <= p <= b for p in pts) for a, b in ivs) and len(pts) == _optimum(ivs)


def solve(identity):
    """Points at the LEFT-most possible spot of each group (the reference uses right ends)."""
    out, group = [], None
    for a, b in sorted(identity["intervals"], key=lambda iv: iv[1]):
        if group is not None and a <= group[1] and max(group[0], a) <= group[1]:
            group = [max(group[0], a), min(group[1], b)]
        else:
            if group is not None:
                out.append(group[0])
            group = [a, b]
    out.append(group[0])
    return " ".join(map(str, sorted(set(out))))


def probes(identity):
    ends = sorted({b for _, b in identity["intervals"]})
    best = [int(t) for t in solve(identity).split()]
    return [" ".join(map(str, ends)), " ".join(map(str, best[1:])),
            " ".join(map(str, [p + 1 for p in best]))]
