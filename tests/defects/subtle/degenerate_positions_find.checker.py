"""Independent checker for degenerate_positions_find.

The statement does not say how positions are counted; like most readers this checker counts
from 1 (the first number is at position 1).
"""

import re


def _position(identity):
    for pos, value in enumerate(identity["numbers"], start=1):
        if value == identity["x"]:
            return pos
    raise ValueError("x does not occur")


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == _position(identity)


def solve(identity):
    return str(_position(identity))


def probes(identity):
    p = _position(identity)
    return [str(p - 1), str(p + 1)]
