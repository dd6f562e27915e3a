"""Independent checker for wrongref_palindrome_odd (longest palindromic substring, brute force)."""

import re


def _longest(text):
    n = len(text)
    return max(j - i for i in range(n) for j in range(i + 1, n + 1)
               if text[i:j] == text[i:j][::-1])


def check(identity, answer):
    a = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", a)) and int(a) == _longest(identity["text"])


def solve(identity):
    return str(_longest(identity["text"]))


def probes(identity):
    b = _longest(identity["text"])
    return [str(b - 1), str(b + 1)]
