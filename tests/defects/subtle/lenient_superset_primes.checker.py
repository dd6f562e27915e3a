"""Independent checker for lenient_superset_primes (distinct primes of a list, increasing)."""

import re


def _prime(n):
    return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))


def _want(identity):
    return sorted({x for x in identity["numbers"] if _prime(x)})


def check(identity, answer):
    toks = answer.split()
    if not all(re.fullmatch(r"[+-]?[0-9]+", t) for t in toks):
        return False
    return [int(t) for t in toks] == _want(identity)


def solve(identity):
    return " ".join(map(str, _want(identity)))


def probes(identity):
    want = _want(identity)
    others = sorted({x for x in identity["numbers"] if not _prime(x)})
    out = [sorted(set(identity["numbers"])), want[1:], want[::-1]]
    if others:
        out.append(sorted(want + others[:1]))
    return [" ".join(map(str, p)) for p in out if p != want]
