"""Independent checker for lenient_sign_position (final coordinate of a walker)."""

import re


def _where(identity):
    x = 0
    for way, dist in identity["moves"]:
        x += dist if way == "R" else -dist
    return x


def check(identity, answer):
    text = answer.strip().replace("\u2212", "-")
    return bool(re.fullmatch(r"[+-]?[0-9]+", text)) and int(text) == _where(identity)


def solve(identity):
    return str(_where(identity))


def probes(identity):
    x = _where(identity)
    return [str(v) for v in (-x, abs(x), x + 1) if v != x] + [f"--{abs(x)}"]
