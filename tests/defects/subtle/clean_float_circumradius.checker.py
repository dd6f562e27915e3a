"""Independent checker for clean_float_circumradius (centre from the perpendicular bisectors)."""

import math
from fractions import Fraction


def _radius(points):
    (ax, ay), (bx, by), (cx, cy) = points
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    ux = Fraction((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay)
                  + (cx * cx + cy * cy) * (ay - by), d)
    uy = Fraction((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx)
                  + (cx * cx + cy * cy) * (bx - ax), d)
    sq = (ux - ax) ** 2 + (uy - ay) ** 2
    return math.sqrt(sq.numerator) / math.sqrt(sq.denominator)


def check(identity, answer):
    try:
        x = float(answer.strip())
    except ValueError:
        return False
    return math.isfinite(x) and abs(x - _radius(identity["points"])) <= 1e-3 * (1 + 1e-9)


def solve(identity):
    return f"{_radius(identity['points']):.5f}"


def probes(identity):
    r = _radius(identity["points"])
    return [f"{r + 0.0004:.4f}", f"{r + 0.003:.3f}", f"{r * 2:.3f}", "nan", f"{-r:.3f}"]
