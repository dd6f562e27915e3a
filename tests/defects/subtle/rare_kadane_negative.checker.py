"""Independent checker for rare_kadane_negative (largest sum of a non-empty contiguous run)."""

import itertools
import re


def _best(changes):
    prefix = [0, *itertools.accumulate(changes)]
    return max(prefix[j] - prefix[i] for i in range(len(changes))
               for j in range(i + 1, len(changes) + 1))


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[+-]?[0-9]+", text)) and int(text) == _best(identity["changes"])


def solve(identity):
    return str(_best(identity["changes"]))


def probes(identity):
    b = _best(identity["changes"])
    return [str(x) for x in (0, b + 1, sum(identity["changes"])) if x != b]
