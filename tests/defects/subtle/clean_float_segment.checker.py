"""Independent checker for clean_float_segment (exact squared distance, then a square root)."""

import math
from fractions import Fraction


def _distance(identity):
    (px, py), (ax, ay), (bx, by) = identity["p"], identity["a"], identity["b"]
    ux, uy = bx - ax, by - ay
    t = Fraction((px - ax) * ux + (py - ay) * uy, ux * ux + uy * uy)
    t = min(Fraction(1), max(Fraction(0), t))
    qx, qy = ax + t * ux, ay + t * uy
    sq = (px - qx) ** 2 + (py - qy) ** 2
    return math.sqrt(sq.numerator) / math.sqrt(sq.denominator)


def check(identity, answer):
    try:
        x = float(answer.strip())
    except ValueError:
        return False
    if math.isnan(x) or math.isinf(x):
        return False
    d = _distance(identity)
    return abs(x - d) <= 1e-6 * max(1.0, d) * (1 + 1e-9)


def solve(identity):
    return f"{_distance(identity):.10f}"


def probes(identity):
    d = _distance(identity)
    tol = 1e-6 * max(1.0, d)
    (px, py), (ax, ay) = identity["p"], identity["a"]
    return [f"{d + tol / 2:.12f}", f"{d - tol * 4:.12f}", f"{math.hypot(px - ax, py - ay):.9f}",
            "nan", f"{d:.2f}"]
