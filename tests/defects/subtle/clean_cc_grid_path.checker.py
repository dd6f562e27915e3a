"""Independent checker for clean_cc_grid_path (cheapest right/down path, Dijkstra)."""

import heapq
import re


def _cheapest(grid):
    h, w = len(grid), len(grid[0])
    best = {(0, 0): grid[0][0]}
    heap = [(grid[0][0], 0, 0)]
    while heap:
        d, r, c = heapq.heappop(heap)
        if (r, c) == (h - 1, w - 1):
            return d
        if d > best[(r, c)]:
            continue
        for rr, cc in ((r + 1, c), (r, c + 1)):
            if rr < h and cc < w and d + grid[rr][cc] < best.get((rr, cc), float("inf")):
                best[(rr, cc)] = d + grid[rr][cc]
                heapq.heappush(heap, (best[(rr, cc)], rr, cc))
    raise AssertionError("unreachable")


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == _cheapest(identity["grid"])


def solve(identity):
    return str(_cheapest(identity["grid"]))


def probes(identity):
    c = _cheapest(identity["grid"])
    g = identity["grid"]
    border = sum(g[0]) + sum(row[-1] for row in g[1:])
    return [str(x) for x in (c + 1, c - 1, border) if x != c and x >= 0]
