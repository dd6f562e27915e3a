"""Compiled bootcamp of bootcamp-synth; task: "Lantern Route" (a shortest route from square 1
to square n in an undirected graph; any shortest route is accepted).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): the task's
bootcamp with one realistic defect of kind 'check_output': check_output checks the length, the
end squares and that no square repeats, but not that consecutive squares of the route are
joined by a street. The reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

_NUMBER = re.compile(r"[0-9]{1,7}")


class LanternRouteBootcamp(CompiledBootcamp):
    """A shortest route from square 1 to square n."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_squares": 3, "max_squares": 6, "extra_streets": 2},
        "medium": {"min_squares": 7, "max_squares": 12, "extra_streets": 5},
        "hard": {"min_squares": 13, "max_squares": 20, "extra_streets": 10},
    }

    def __init__(self, seed: int | None = None, min_squares: int = 7, max_squares: int = 12,
                 extra_streets: int = 5) -> None:
        super().__init__(seed=seed)
        if not 3 <= min_squares <= max_squares <= 1000 or not 0 <= extra_streets <= 1000:
            raise ValueError("need 3 <= min_squares <= max_squares <= 1000, extra_streets >= 0")
        self.min_squares, self.max_squares = min_squares, max_squares
        self.extra_streets = extra_streets

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_squares, self.max_squares)
        # a random spanning tree keeps square n reachable from square 1
        order = list(range(1, n + 1))
        rng.shuffle(order)
        pairs = set()
        for i in range(1, n):
            u, v = order[i], order[rng.randrange(i)]
            pairs.add((min(u, v), max(u, v)))
        for _ in range(self.extra_streets):
            u, v = rng.sample(range(1, n + 1), 2)
            pairs.add((min(u, v), max(u, v)))
        edges = [list(p) for p in sorted(pairs)]
        rng.shuffle(edges)
        for edge in edges:
            if rng.randrange(2):
                edge.reverse()
        return {"n": n, "edges": edges}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        edges = identity["edges"]
        lines = [f"{identity['n']} {len(edges)}"] + [f"{u} {v}" for u, v in edges]
        return "\n".join(lines) + "\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        """The same number of streets as the reference; a route 1 -> n along streets."""
        want, got = expected.split(), answer.split()
        if want == ["-1"]:
            return got == ["-1"]
        if len(got) < 2 or not all(_NUMBER.fullmatch(t) for t in got):
            return False
        n = identity["n"]
        k, route = int(got[0]), [int(t) for t in got[1:]]
        if k != int(want[0]) or len(route) != k + 1:
            return False
        if route[0] != 1 or route[-1] != n or not all(1 <= p <= n for p in route):
            return False
        return len(set(route)) == len(route)  # a shortest route never repeats a square
