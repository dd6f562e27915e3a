"""Independent checker for clean_subset_any (any positions whose weights sum to the target)."""

import re


def check(identity, answer):
    toks = answer.split()
    if not toks or not all(re.fullmatch(r"[0-9]+", t) for t in toks):
        return False
    pos = [int(t) for t in toks]
    w = identity["weights"]
    if pos != sorted(set(pos)) or not all(1 <= p <= len(w) for p in pos):
        return False
    return sum(w[p - 1] for p in pos) == identity["target"]


def _all(identity, limit):
    w, target, out = identity["weights"], identity["target"], []
    for mask in range(1, 1 << len(w)):
        if sum(w[i] for i in range(len(w)) if mask >> i & 1) == target:
            out.append([i + 1 for i in range(len(w)) if mask >> i & 1])
            if len(out) >= limit:
                break
    return out


def solve(identity):
    return " ".join(map(str, _all(identity, 1)[0]))


def probes(identity):
    subs = _all(identity, 5)
    out = [" ".join(map(str, s)) for s in subs]
    out.append(" ".join(map(str, range(1, len(identity["weights"]) + 1))))
    out.append(" ".join(map(str, subs[0][::-1])))
    return out
