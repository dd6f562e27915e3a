"""Independent checker for wrongref_leap_years (Gregorian leap years in a range, by formula)."""

import re


def _upto(y):
    """Leap years in 1..y."""
    return y // 4 - y // 100 + y // 400


def _count(identity):
    return _upto(identity["last"]) - _upto(identity["first"] - 1)


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == _count(identity)


def solve(identity):
    return str(_count(identity))


def probes(identity):
    c = _count(identity)
    julian = identity["last"] // 4 - (identity["first"] - 1) // 4
    return [str(x) for x in (c + 1, c - 1, julian) if x != c]
