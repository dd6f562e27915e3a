"""Independent checker for lenient_blocks_joined (digit sum of a product)."""

import re


def _digit_sum(n):
    total = 0
    while n:
        n, r = divmod(n, 10)
        total += r
    return total


def check(identity, answer):
    text = answer.strip()
    return (bool(re.fullmatch(r"[+-]?[0-9]+", text))
            and int(text) == _digit_sum(identity["a"] * identity["b"]))


def solve(identity):
    return str(_digit_sum(identity["a"] * identity["b"]))


def probes(identity):
    s = _digit_sum(identity["a"] * identity["b"])
    return [str(s + 1), str(s - 1), str(identity["a"] * identity["b"]), f"{s}\n{s + 1}"]
