"""Independent checker for lenient_offbyone_days (days between two Gregorian dates)."""

import re

MONTHS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _leap(y):
    return y % 400 == 0 or (y % 4 == 0 and y % 100 != 0)


def _ordinal(y, m, d):
    """Day number counted from 1 January of year 1."""
    days = 0
    for year in range(1, y):
        days += 366 if _leap(year) else 365
    for month in range(1, m):
        days += MONTHS[month - 1] + (1 if month == 2 and _leap(y) else 0)
    return days + d


def _gap(identity):
    return _ordinal(*identity["second"]) - _ordinal(*identity["first"])


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[+-]?[0-9]+", text)) and int(text) == _gap(identity)


def solve(identity):
    return str(_gap(identity))


def probes(identity):
    g = _gap(identity)
    return [str(g + 1), str(g - 1), str(-g)]
