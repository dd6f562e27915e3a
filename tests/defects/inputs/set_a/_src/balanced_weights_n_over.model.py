"""Compiled bootcamp; task: "Balanced Weights" (partition n <= 20 weights into two pans).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (bounds, one mistake in
the generator): the hard preset draws n up to 28, above the statement's limit of 20, only at the
hard level.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class BalancedWeightsBootcamp(CompiledBootcamp):
    """The smallest difference between the pans' totals."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_n": 1, "max_n": 5, "max_w": 20},
        "medium": {"min_n": 6, "max_n": 10, "max_w": 1000},
        "hard": {"min_n": 11, "max_n": 28, "max_w": 10**6},
    }

    def __init__(self, seed: int | None = None, min_n: int = 6, max_n: int = 10,
                 max_w: int = 1000) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n or not 1 <= max_w:
            raise ValueError("need 1 <= min_n <= max_n and 1 <= max_w")
        self.min_n, self.max_n, self.max_w = min_n, max_n, max_w

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_n, self.max_n)
        return {"w": [rng.randint(1, self.max_w) for _ in range(n)]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        w = identity["w"]
        return f"{len(w)}\n{' '.join(map(str, w))}\n"
