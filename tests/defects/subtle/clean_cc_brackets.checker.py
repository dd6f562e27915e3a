"""Independent checker for clean_cc_brackets (fewest insertions, by repeated cancelling)."""

import re


def _needed(s):
    while "()" in s:
        s = s.replace("()", "")
    return len(s)  # what is left looks like ")))(((": one insertion per character


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == _needed(identity["s"])


def solve(identity):
    return str(_needed(identity["s"]))


def probes(identity):
    k = _needed(identity["s"])
    s = identity["s"]
    return [str(x) for x in (k + 1, k - 1, abs(s.count("(") - s.count(")"))) if x != k and x >= 0]
