"""Independent checker for degenerate_two_components (count components by graph search)."""

import re


def _components(identity):
    nbrs = {v: [] for v in range(1, identity["n"] + 1)}
    for a, b in identity["edges"]:
        nbrs[a].append(b)
        nbrs[b].append(a)
    seen, count = set(), 0
    for v in nbrs:
        if v in seen:
            continue
        count += 1
        stack = [v]
        while stack:
            u = stack.pop()
            if u not in seen:
                seen.add(u)
                stack.extend(nbrs[u])
    return count


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == _components(identity)


def solve(identity):
    return str(_components(identity))


def probes(identity):
    c = _components(identity)
    return [str(x) for x in (1, 2, c + 1) if x != c]
