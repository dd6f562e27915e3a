"""Independent checker for rare_round_half (average, halves rounded towards +infinity)."""

import re


def _rounded(identity):
    s, n = sum(identity["readings"]), len(identity["readings"])
    return (2 * s + n) // (2 * n)  # floor(s/n + 1/2), exact in integers


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[+-]?[0-9]+", text)) and int(text) == _rounded(identity)


def solve(identity):
    return str(_rounded(identity))


def probes(identity):
    r = _rounded(identity)
    return [str(r - 1), str(r + 1)]
