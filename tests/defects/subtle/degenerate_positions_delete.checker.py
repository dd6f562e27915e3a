"""Independent checker for degenerate_positions_delete.

Positions are not defined in the statement; this checker counts them from 1 (the first
character is at position 1).
"""


def _result(identity):
    chars = list(identity["word"])
    del chars[identity["p"] - 1]
    return "".join(chars)


def check(identity, answer):
    return answer.strip() == _result(identity)


def solve(identity):
    return _result(identity)


def probes(identity):
    w, p = identity["word"], identity["p"]
    return [w[:p] + w[p + 1:], w]
