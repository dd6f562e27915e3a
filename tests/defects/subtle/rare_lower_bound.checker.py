"""Independent checker for rare_lower_bound (count of sorted numbers strictly below x)."""

import re


def _count(identity):
    return sum(1 for v in identity["values"] if v < identity["query"])


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == _count(identity)


def solve(identity):
    return str(_count(identity))


def probes(identity):
    c = _count(identity)
    return [str(x) for x in (c - 1, c + 1, len(identity["values"]) - 1) if x != c and x >= 0]
