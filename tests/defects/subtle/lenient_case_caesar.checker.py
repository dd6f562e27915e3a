"""Independent checker for lenient_case_caesar (case-preserving Caesar cipher)."""

import string

LOW, UP = string.ascii_lowercase, string.ascii_uppercase


def _encrypt(text, k):
    k %= 26
    table = str.maketrans(LOW + UP, LOW[k:] + LOW[:k] + UP[k:] + UP[:k])
    return text.translate(table)


def check(identity, answer):
    return answer.strip() == _encrypt(identity["text"], identity["shift"])


def solve(identity):
    return _encrypt(identity["text"], identity["shift"])


def probes(identity):
    want = _encrypt(identity["text"], identity["shift"])
    opts = [want.lower(), want.upper(), want.swapcase(), _encrypt(identity["text"], -identity["shift"])]
    return [p for p in dict.fromkeys(opts) if p != want]
