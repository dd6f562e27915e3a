"""Independent checker for clean_cc_dice (dice totals by polynomial multiplication, exact)."""

import functools
import re

MOD = 10**9 + 7


@functools.lru_cache(maxsize=256)
def _ways(n, k, s):
    poly = [1]
    for _ in range(n):
        nxt = [0] * (len(poly) + k)
        for i, c in enumerate(poly):
            for face in range(1, k + 1):
                nxt[i + face] += c
        poly = nxt[: s + 1]
    return poly[s] % MOD if s < len(poly) else 0


def check(identity, answer):
    text = answer.strip()
    want = _ways(identity["n"], identity["k"], identity["s"])
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == want


def solve(identity):
    return str(_ways(identity["n"], identity["k"], identity["s"]))


def probes(identity):
    w = _ways(identity["n"], identity["k"], identity["s"])
    return [str((w + 1) % MOD), str(w + MOD)]
