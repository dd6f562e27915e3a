"""Independent checker for degenerate_two_roots (distinct real roots of a quadratic)."""


def _count(identity):
    a, b, c = identity["a"], identity["b"], identity["c"]
    disc = b * b - 4 * a * c
    if disc < 0:
        return 0
    return 1 if disc == 0 else 2


def check(identity, answer):
    return answer.strip() in ("0", "1", "2") and int(answer.strip()) == _count(identity)


def solve(identity):
    return str(_count(identity))


def probes(identity):
    c = _count(identity)
    return [str(x) for x in (0, 1, 2) if x != c]
