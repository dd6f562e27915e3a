"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "15_E. Half-Price Ticket".

Provenance: record 15 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
bootcamp that the code model writes, written by hand for the suite benchmark. The task's
reference program and problem text are embedded by ``synth.compiled.assemble``; the answer key
is the program's output on ``render_stdin``.
"""

from __future__ import annotations

import heapq
import random
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

MAX_N = 10**5
MAX_M = 2 * 10**5
MAX_W = 10**9
#: above this many cities a case is stored as its shape and seed (a case's JSON stays small)
SEEDED_N = 300
#: the longest standard input a large case may render (the gate takes 3.5 MB at most)
MAX_CHARS = 3_300_000


def _weight(rng: random.Random, style: str, max_w: int) -> int:
    if style == "odd":  # odd prices: half rounded down differs from half rounded up
        return min(max_w, 2 * rng.randint(0, max_w // 2) + 1)
    if style == "spread":  # every order of magnitude, 1 (half of it is 0) and the limit too
        return rng.choice([1, max_w, rng.randint(1, min(max_w, 10**rng.randint(1, 9)))])
    if style == "small":  # short numbers (a large case stays within the size cap), and the limit
        return max_w if rng.random() < 0.02 else rng.randint(1, min(max_w, 999))
    if style == "heavy":
        return rng.randint(max(1, max_w // 2), max_w)
    return rng.randint(1, max_w)


def _lines(rng: random.Random, n: int, m: int, shape: dict[str, Any]) -> list[list[int]]:
    """m lines [u, v, w] over n cities of the given shape."""
    kind, style, max_w = shape["kind"], shape["style"], shape["max_w"]
    order = list(range(2, n))
    rng.shuffle(order)
    order = [1, *order, n]  # a route from city 1 to city n through every city
    edges: list[list[int]] = []
    if kind == "chain":  # a long route of dear lines: its cost passes 10^12 at the limits
        edges = [[order[i], order[i + 1], _weight(rng, "heavy", max_w)] for i in range(n - 1)]
        while len(edges) < m:  # dear hops over one or two cities: never much of a shortcut
            i = rng.randrange(n - 1)
            edges.append([order[i], order[min(n - 1, i + rng.randint(1, 3))],
                          _weight(rng, "heavy", max_w)])
    else:
        twins = max(1, m // 4) if kind == "parallel" and m > n else 0
        if kind in ("connected", "parallel"):  # a random tree first: city n is reachable
            for i in range(1, n):
                edges.append([order[i], order[rng.randrange(i)], _weight(rng, style, max_w)])
        while len(edges) < m - twins:
            u = rng.randint(1, n - 1 if kind == "split" else n)  # split: city n cut off
            v = rng.randint(1, n - 2 if kind == "split" else n - 1)
            edges.append([u, v + (v >= u), _weight(rng, style, max_w)])
        for _ in range(twins):  # the same pair again at another price: several lines
            u, v, _w = rng.choice(edges)
            edges.append([v, u, _weight(rng, style, max_w)])
    edges = edges[:m]
    for e in edges:
        if rng.random() < 0.5:
            e[0], e[1] = e[1], e[0]
    rng.shuffle(edges)
    return edges


def _cheapest(n: int, lines: list[list[int]]) -> int | None:
    """The cheapest journey from city 1 to city n without the voucher (None: unreachable)."""
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n + 1)]
    for u, v, w in lines:
        adj[u].append((v, w))
        adj[v].append((u, w))
    dist = {1: 0}
    heap = [(0, 1)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in adj[u]:
            if d + w < dist.get(v, d + w + 1):
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    return dist.get(n)


class HalfPriceTicketBootcamp(CompiledBootcamp):
    """Cheapest journey from city 1 to city n when one line may be taken at half price."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5, "max_m": 7, "max_w": 20},
        "medium": {"max_n": 9, "max_m": 16, "max_w": 100},
        "hard": {"max_n": 25, "max_m": 60, "max_w": MAX_W},
    }
    # the statement's limits (n <= 10^5, m <= 2*10^5, w <= 10^9): for code test suites only
    STRESS: ClassVar[dict[str, Any]] = {"min_n": MAX_N - 100, "max_n": MAX_N, "max_m": MAX_M,
                                        "max_w": MAX_W}

    def __init__(self, seed: int | None = None, max_n: int = 9, max_m: int = 16,
                 max_w: int = 100, min_n: int = 2) -> None:
        super().__init__(seed=seed)
        if not 2 <= min_n <= max_n <= MAX_N or not 0 <= max_m <= MAX_M:
            raise ValueError(f"need 2 <= min_n <= max_n <= {MAX_N}, 0 <= max_m <= {MAX_M}")
        if not 1 <= max_w <= MAX_W:
            raise ValueError(f"need 1 <= max_w <= {MAX_W}")
        self.min_n, self.max_n, self.max_m, self.max_w = min_n, max_n, max_m, max_w

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        large = self.min_n > SEEDED_N
        n = rng.randint(self.min_n, self.max_n)
        if large:
            kind = rng.choice(["chain", "chain", "connected", "parallel"])
            style = rng.choice(["small", "small", "spread"])
            m = self.max_m if kind != "chain" else rng.randint(n - 1, min(self.max_m, 13 * n // 10))
        else:
            kind = rng.choices(["connected", "parallel", "split", "random", "chain", "none"],
                               [5, 3, 1, 2, 1, 1])[0]
            style = rng.choice(["spread", "odd", "uniform", "uniform"])
            low = 0 if kind in ("random", "split", "none") else n - 1
            m = 0 if kind == "none" or (kind == "split" and n < 3) else \
                rng.randint(min(low, self.max_m), self.max_m)
            m = max(m, n - 1) if kind in ("connected", "parallel", "chain") else m
        shape = {"kind": kind, "style": style, "max_w": self.max_w}
        if large:
            return {"n": n, "m": m, "shape": shape, "seed": rng.getrandbits(62)}
        trap = kind == "connected" and self.max_m > n - 1 and rng.random() < 0.5
        lines = _lines(rng, n, min(m, self.max_m - 1) if trap else m, shape)
        cheapest = _cheapest(n, lines) if trap else None
        if cheapest:  # a direct line up to 1.5 times the cheapest journey: at half price it
            # often beats that journey with its dearest line halved
            w = min(self.max_w, cheapest + rng.randint(1, max(1, cheapest // 2)))
            u, v = (1, n) if rng.random() < 0.5 else (n, 1)
            lines.insert(rng.randint(0, len(lines)), [u, v, w])
        return {"n": n, "lines": lines}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        n, lines = identity["n"], identity.get("lines")
        if lines is None:  # a large case: its lines from its own seed, within the size cap
            lines = _lines(random.Random(identity["seed"]), n, identity["m"], identity["shape"])
            rows, size = [], 0
            for u, v, w in lines:
                row = f"{u} {v} {w}\n"
                size += len(row)
                if size > MAX_CHARS:
                    break
                rows.append(row)
            return f"{n} {len(rows)}\n" + "".join(rows)
        return f"{n} {len(lines)}\n" + "".join(f"{u} {v} {w}\n" for u, v, w in lines)
