"""Independent checker for lenient_offbyone_sqrt (floor of a sum of square roots, exactly)."""

import re
from decimal import Decimal, getcontext


def _floor(identity):
    getcontext().prec = 60
    total = sum(Decimal(x).sqrt() for x in identity["numbers"])
    return int(total.to_integral_value(rounding="ROUND_FLOOR"))


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[+-]?[0-9]+", text)) and int(text) == _floor(identity)


def solve(identity):
    return str(_floor(identity))


def probes(identity):
    f = _floor(identity)
    return [str(f - 1), str(f + 1), str(f + 2)]
