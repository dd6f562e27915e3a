"""Independent checker for clean_float_polyline (polyline length, tolerance 1e-6)."""

from decimal import Decimal, InvalidOperation, localcontext


def _length(points):
    with localcontext() as ctx:
        ctx.prec = 40
        total = Decimal(0)
        for (x1, y1), (x2, y2) in zip(points, points[1:]):
            total += Decimal((x2 - x1) ** 2 + (y2 - y1) ** 2).sqrt()
        return total


def check(identity, answer):
    try:
        x = Decimal(answer.strip())
    except InvalidOperation:
        return False
    if not x.is_finite():
        return False
    want = _length(identity["points"])
    return abs(x - want) <= Decimal("1e-6") * max(Decimal(1), want) * (1 + Decimal("1e-9"))


def solve(identity):
    return f"{_length(identity['points']):.9f}"


def probes(identity):
    v = _length(identity["points"])
    tol = Decimal("1e-6") * max(Decimal(1), v)
    return [f"{v + tol / 2:.12f}", f"{v - tol / 3:.12f}", f"{v + tol * 3:.12f}", f"{v:.3f}",
            "nan", "inf", f"{-v:.9f}"]
