"""Independent checker for degenerate_capped_peaks (strict local maxima of a grid)."""

import re


def _peaks(grid):
    height, width = len(grid), len(grid[0])
    total = 0
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if r > 0 and grid[r - 1][c] >= v:
                continue
            if r + 1 < height and grid[r + 1][c] >= v:
                continue
            if c > 0 and row[c - 1] >= v:
                continue
            if c + 1 < width and row[c + 1] >= v:
                continue
            total += 1
    return total


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == _peaks(identity["grid"])


def solve(identity):
    return str(_peaks(identity["grid"]))


def probes(identity):
    p = _peaks(identity["grid"])
    return [str(p + 1), str(max(0, p - 1))]
