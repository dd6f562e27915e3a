"""Independent checker for lenient_sign_determinant (determinant by the Leibniz formula)."""

import itertools
import re


def _det(m):
    n, total = len(m), 0
    for perm in itertools.permutations(range(n)):
        inversions = sum(1 for i in range(n) for j in range(i + 1, n) if perm[i] > perm[j])
        term = -1 if inversions % 2 else 1
        for row, col in enumerate(perm):
            term *= m[row][col]
        total += term
    return total


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[+-]?[0-9]+", text)) and int(text) == _det(identity["matrix"])


def solve(identity):
    return str(_det(identity["matrix"]))


def probes(identity):
    d = _det(identity["matrix"])
    return [str(x) for x in (-d, abs(d), d + 1, d - 1) if x != d]
