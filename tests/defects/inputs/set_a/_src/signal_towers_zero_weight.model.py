"""Compiled bootcamp; task: "Signal Towers" (the weighted diameter of a tree).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (bounds, one mistake in
the generator): cable delays are drawn from randint(0, max_w), so a delay can be 0 although the
statement says 1 <= w_i.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class SignalTowersBootcamp(CompiledBootcamp):
    """The largest distance between two vertices of a weighted tree."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_n": 2, "max_n": 6, "max_w": 9},
        "medium": {"min_n": 6, "max_n": 12, "max_w": 1000},
        "hard": {"min_n": 12, "max_n": 25, "max_w": 10**9},
    }

    def __init__(self, seed: int | None = None, min_n: int = 6, max_n: int = 12,
                 max_w: int = 1000) -> None:
        super().__init__(seed=seed)
        if not 2 <= min_n <= max_n <= 1000 or not 1 <= max_w <= 10**9:
            raise ValueError("need 2 <= min_n <= max_n <= 1000 and 1 <= max_w <= 10^9")
        self.min_n, self.max_n, self.max_w = min_n, max_n, max_w

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_n, self.max_n)
        order = list(range(1, n + 1))
        rng.shuffle(order)
        edges = []
        for i in range(1, n):
            j = rng.randint(0, i - 1)  # attach to a vertex already in the tree
            w = rng.randint(0, self.max_w)
            u, v = order[i], order[j]
            if rng.random() < 0.5:
                u, v = v, u
            edges.append([u, v, w])
        rng.shuffle(edges)
        return {"n": n, "edges": edges}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [str(identity["n"])]
        lines += [f"{u} {v} {w}" for u, v, w in identity["edges"]]
        return "\n".join(lines) + "\n"
