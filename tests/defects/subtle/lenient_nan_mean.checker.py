"""Independent checker for lenient_nan_mean (mean of a list, tolerance 0.01)."""

import math
from fractions import Fraction


def _mean(identity):
    return Fraction(sum(identity["numbers"]), len(identity["numbers"]))


def check(identity, answer):
    try:
        value = float(answer.strip())
    except ValueError:
        return False
    if not math.isfinite(value):
        return False
    return abs(Fraction(value) - _mean(identity)) <= Fraction(1, 100) * (1 + Fraction(1, 10**9))


def solve(identity):
    return f"{float(_mean(identity)):.4f}"


def probes(identity):
    m = float(_mean(identity))
    return ["nan", "NaN", "inf", f"{m + 0.02:.3f}", f"{m + 0.009:.4f}", f"{-m:.2f}"]
