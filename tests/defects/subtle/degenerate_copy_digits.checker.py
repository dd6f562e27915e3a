"""Independent checker for degenerate_copy_digits (digit sums never decrease)."""

import re


def _digits(v):
    total = 0
    while v:
        total += v % 10
        v //= 10
    return total


def check(identity, answer):
    toks = answer.split()
    if not all(re.fullmatch(r"[0-9]{1,7}", t) for t in toks):
        return False
    got = [int(t) for t in toks]
    if sorted(got) != sorted(identity["numbers"]):
        return False
    return all(_digits(got[k]) <= _digits(got[k + 1]) for k in range(len(got) - 1))


def solve(identity):
    return " ".join(str(v) for v in sorted(identity["numbers"], key=lambda v: (_digits(v), -v)))


def probes(identity):
    nums = [str(v) for v in identity["numbers"]]
    return [" ".join(sorted(nums, key=int)), " ".join(reversed(nums)), ", ".join(nums)]
