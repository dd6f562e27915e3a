"""Independent checker for clean_cc_pair_sum ("Two Prices": any valid pair, or -1)."""

import re


def _pairs(identity):
    a, x = identity["a"], identity["x"]
    return [(i + 1, j + 1) for i in range(len(a)) for j in range(i + 1, len(a)) if a[i] + a[j] == x]


def check(identity, answer):
    pairs = _pairs(identity)
    text = " ".join(answer.split())
    if not pairs:
        return text == "-1"
    m = re.fullmatch(r"([0-9]+) ([0-9]+)", text)
    return bool(m) and (int(m.group(1)), int(m.group(2))) in pairs


def solve(identity):
    pairs = _pairs(identity)
    return "-1" if not pairs else "{} {}".format(*pairs[-1])


def probes(identity):
    pairs = _pairs(identity)
    if not pairs:
        return ["1 2", "0"]
    out = [f"{i} {j}" for i, j in pairs[:3]]
    i, j = pairs[0]
    return [*out, f"{j} {i}", "-1", f"{i} {i}"]
