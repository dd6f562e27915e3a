"""Compiled bootcamp; task: "Road Repairs" (components of a simple undirected graph).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (guarantee, one mistake
in the generator): the edge sampler deduplicates ordered pairs (x, y), so a road and its reverse
(y, x) both appear: multiple edges although the statement forbids them.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class RoadRepairsBootcamp(CompiledBootcamp):
    """New roads needed to connect a graph, and its largest component."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_n": 3, "max_n": 6, "max_m": 8},
        "medium": {"min_n": 6, "max_n": 12, "max_m": 14},
        "hard": {"min_n": 12, "max_n": 24, "max_m": 30},
    }

    def __init__(self, seed: int | None = None, min_n: int = 6, max_n: int = 12,
                 max_m: int = 14) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n <= 200 or not 0 <= max_m <= 1000:
            raise ValueError("need 1 <= min_n <= max_n <= 200 and 0 <= max_m <= 1000")
        self.min_n, self.max_n, self.max_m = min_n, max_n, max_m

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_n, self.max_n)
        m = rng.randint(0, min(self.max_m, n * (n - 1) // 2))
        seen: set[tuple[int, int]] = set()
        edges = []
        while len(edges) < m:
            x = rng.randint(1, n)
            y = rng.randint(1, n)
            if x == y:
                continue
            key = (x, y)
            if key in seen:
                continue
            seen.add(key)
            edges.append([x, y])
        return {"n": n, "edges": edges}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [f"{identity['n']} {len(identity['edges'])}"]
        lines += [f"{x} {y}" for x, y in identity["edges"]]
        return "\n".join(lines) + "\n"
