"""Independent checker for lenient_nan_root (root of a*x + b = c, tolerance 1e-6)."""

import math
from fractions import Fraction


def _root(identity):
    return Fraction(identity["c"] - identity["b"], identity["a"])


def check(identity, answer):
    try:
        x = float(answer.strip())
    except ValueError:
        return False
    if math.isnan(x) or math.isinf(x):
        return False
    want = _root(identity)
    return abs(Fraction(x) - want) <= Fraction(1, 10**6) * max(1, abs(want)) * (1 + Fraction(1, 10**9))


def solve(identity):
    r = _root(identity)
    return str(r.numerator) if r.denominator == 1 else f"{float(r):.10f}"


def probes(identity):
    r = float(_root(identity))
    return ["nan", "-nan", "inf", repr(-r) if r else "1", repr(r + 1e-3), repr(r * (1 + 5e-7))]
