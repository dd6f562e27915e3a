"""Independent checker for lenient_superset_reachable (vertices reachable from a start)."""

import re
from collections import deque


def _reachable(identity):
    adj = {}
    for u, v in identity["edges"]:
        adj.setdefault(u, []).append(v)
    seen = {identity["start"]}
    queue = deque(seen)
    while queue:
        for v in adj.get(queue.popleft(), []):
            if v not in seen:
                seen.add(v)
                queue.append(v)
    return sorted(seen)


def check(identity, answer):
    toks = answer.split()
    return (all(re.fullmatch(r"[0-9]+", t) for t in toks)
            and [int(t) for t in toks] == _reachable(identity))


def solve(identity):
    return " ".join(map(str, _reachable(identity)))


def probes(identity):
    want = _reachable(identity)
    everyone = list(range(1, identity["n"] + 1))
    missing = [v for v in everyone if v not in want]
    out = [everyone, want[1:]]
    if missing:
        out.append(sorted(want + missing[:1]))
    return [" ".join(map(str, p)) for p in out if p != want]
