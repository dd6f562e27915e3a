"""Compiled bootcamp of bootcamp-synth; task: "Longest Trail" (the diameter of each of t
trees).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c): a correct
bootcamp. The reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class LongestTrailBootcamp(CompiledBootcamp):
    """Diameters of random labelled trees, several per input."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_tests": 2, "min_nodes": 2, "max_nodes": 5},
        "medium": {"max_tests": 3, "min_nodes": 4, "max_nodes": 10},
        "hard": {"max_tests": 4, "min_nodes": 8, "max_nodes": 18},
    }

    def __init__(self, seed: int | None = None, max_tests: int = 3, min_nodes: int = 4,
                 max_nodes: int = 10) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_tests <= 100 or not 2 <= min_nodes <= max_nodes <= 1000:
            raise ValueError("need 1 <= max_tests <= 100, 2 <= min_nodes <= max_nodes <= 1000")
        self.max_tests, self.min_nodes, self.max_nodes = max_tests, min_nodes, max_nodes

    def _tree(self, n: int) -> list[list[int]]:
        rng = self.rng
        label = list(range(1, n + 1))
        rng.shuffle(label)
        edges = []
        for i in range(1, n):
            j = rng.randrange(i)  # attach to an earlier vertex: a tree
            u, v = label[i], label[j]
            edges.append([u, v] if rng.random() < 0.5 else [v, u])
        rng.shuffle(edges)
        return edges

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        tests = []
        for _ in range(rng.randint(1, self.max_tests)):
            n = rng.randint(self.min_nodes, self.max_nodes)
            tests.append({"n": n, "edges": self._tree(n)})
        return {"tests": tests}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [str(len(identity["tests"]))]
        for test in identity["tests"]:
            lines.append(str(test["n"]))
            lines.extend(f"{u} {v}" for u, v in test["edges"])
        return "\n".join(lines) + "\n"
