"""Independent checker for lenient_path_weighted (minimum-weight path, Bellman-Ford)."""

import re


def _weights(identity):
    w = {}
    for a, b, c in identity["edges"]:
        w[(a, b)] = w[(b, a)] = c
    return w


def _dist(identity):
    w = _weights(identity)
    inf = float("inf")
    d = {v: inf for v in range(1, identity["n"] + 1)}
    d[identity["s"]] = 0
    for _ in range(identity["n"]):
        for (a, b), c in w.items():
            if d[a] + c < d[b]:
                d[b] = d[a] + c
    return d


def check(identity, answer):
    toks = answer.split()
    if not toks or not all(re.fullmatch(r"[0-9]+", t) for t in toks):
        return False
    path = [int(t) for t in toks]
    w = _weights(identity)
    if path[0] != identity["s"] or path[-1] != identity["t"]:
        return False
    if any((a, b) not in w for a, b in zip(path, path[1:])):
        return False
    return sum(w[(a, b)] for a, b in zip(path, path[1:])) == _dist(identity)[identity["t"]]


def _paths(identity, limit=300):
    w = _weights(identity)
    nbrs = {}
    for a, b in w:
        nbrs.setdefault(a, []).append(b)
    found, stack = [], [[identity["s"]]]
    while stack and len(found) < limit:
        path = stack.pop()
        if path[-1] == identity["t"]:
            found.append(path)
            continue
        for v in sorted(nbrs.get(path[-1], []), reverse=True):
            if v not in path:
                stack.append([*path, v])
    return found, w


def solve(identity):
    paths, w = _paths(identity)
    return " ".join(map(str, min(paths, key=lambda p: sum(w[e] for e in zip(p, p[1:])))))


def probes(identity):
    paths, w = _paths(identity)
    cost = [sum(w[e] for e in zip(p, p[1:])) for p in paths]
    best = min(cost)
    worse = [p for p, c in zip(paths, cost) if c > best]
    out = [" ".join(map(str, p)) for p in worse[:3]]
    out.append(f"{identity['s']} {identity['t']}")
    return out
