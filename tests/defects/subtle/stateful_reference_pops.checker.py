"""Independent checker for stateful_reference_pops (last survivor of the Josephus circle)."""


def _survivor(identity):
    n, k = len(identity["people"]), identity["k"]
    pos = 0
    for size in range(2, n + 1):  # the classic recurrence J(size) = (J(size-1) + k) mod size
        pos = (pos + k) % size
    return identity["people"][pos]


def check(identity, answer):
    return answer.strip() == _survivor(identity)


def solve(identity):
    return _survivor(identity)


def probes(identity):
    s = _survivor(identity)
    return [p for p in identity["people"] if p != s][:3]
