"""Compiled bootcamp of bootcamp-synth; task: "Relay Messages" (a shortest route from station
1 to station n in a connected simple graph; any shortest route is accepted).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c), with ONE
realistic code-model mistake (guarantee): the extra links draw their two ends independently
(randint twice), so a link can join a station to itself. The reference program is embedded by
``synth.compiled.assemble``; since several routes can be shortest, ``check_output`` checks the
route by the statement's rules.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

_NUMBER = re.compile(r"-?[0-9]{1,7}")


class RelayMessagesBootcamp(CompiledBootcamp):
    """Shortest routes in random connected simple graphs."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_nodes": 3, "max_nodes": 6, "extra_edges": 2},
        "medium": {"min_nodes": 6, "max_nodes": 12, "extra_edges": 5},
        "hard": {"min_nodes": 12, "max_nodes": 22, "extra_edges": 10},
    }

    def __init__(self, seed: int | None = None, min_nodes: int = 6, max_nodes: int = 12,
                 extra_edges: int = 5) -> None:
        super().__init__(seed=seed)
        if not 3 <= min_nodes <= max_nodes <= 1000 or not 1 <= extra_edges <= 1000:
            raise ValueError("need 3 <= min_nodes <= max_nodes <= 1000, 1 <= extra_edges")
        self.min_nodes, self.max_nodes, self.extra_edges = min_nodes, max_nodes, extra_edges

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_nodes, self.max_nodes)
        order = list(range(1, n + 1))
        rng.shuffle(order)
        edges = set()
        for i in range(1, n):  # a random spanning tree keeps the graph connected
            u, v = order[i], order[rng.randrange(i)]
            edges.add((min(u, v), max(u, v)))
        limit = n * (n - 1) // 2
        target = min(limit, len(edges) + rng.randint(1, self.extra_edges))  # m >= n when n >= 3
        while len(edges) < target:
            u, v = rng.randint(1, n), rng.randint(1, n)
            edges.add((min(u, v), max(u, v)))
        listed = [[u, v] if rng.random() < 0.5 else [v, u] for u, v in sorted(edges)]
        rng.shuffle(listed)
        return {"n": n, "edges": listed}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        edges = identity["edges"]
        return "\n".join([f"{identity['n']} {len(edges)}"] +
                         [f"{a} {b}" for a, b in edges]) + "\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        """The first number is the reference's d; then d + 1 stations from 1 to n along links."""
        tokens = answer.split()
        want = expected.split()
        if not tokens or not all(_NUMBER.fullmatch(t) for t in tokens) or not want:
            return False
        if want == ["-1"]:
            return tokens == ["-1"]
        d = int(tokens[0])
        route = [int(t) for t in tokens[1:]]
        n = identity["n"]
        if d != int(want[0]) or len(route) != d + 1:
            return False
        if route[0] != 1 or route[-1] != n or not all(1 <= s <= n for s in route):
            return False
        links = {frozenset(e) for e in identity["edges"]}
        return all(frozenset((route[i], route[i + 1])) in links for i in range(d))
