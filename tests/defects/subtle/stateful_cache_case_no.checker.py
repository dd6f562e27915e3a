"""Independent checker for stateful_cache_case_no (a product modulo m)."""

import math
import re


def _value(identity):
    return math.prod(identity["numbers"]) % identity["mod"]


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == _value(identity)


def solve(identity):
    return str(_value(identity))


def probes(identity):
    v = _value(identity)
    return [str(v + identity["mod"]), str((v + 1) % identity["mod"])]
