"""Compiled bootcamp; task: "Water Stations" (fill gaps between increasing positions).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (guarantee, one mistake
in the generator): the positions are shuffled after they are built, so the input is not in the
promised increasing order.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class WaterStationsBootcamp(CompiledBootcamp):
    """Fewest stations so that no gap between strictly increasing checkpoints exceeds d."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5, "max_start": 20, "max_gap": 6, "max_d": 4},
        "medium": {"max_n": 10, "max_start": 1000, "max_gap": 200, "max_d": 60},
        "hard": {"max_n": 20, "max_start": 900_000_000, "max_gap": 5_000_000,
                 "max_d": 2_000_000},
    }

    def __init__(self, seed: int | None = None, max_n: int = 10, max_start: int = 1000,
                 max_gap: int = 200, max_d: int = 60) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_n <= 1000 or not 1 <= max_d <= 10**9 or max_gap < 1 or max_start < 0:
            raise ValueError("need 1 <= max_n <= 1000, 1 <= max_d <= 10^9, max_gap >= 1")
        if max_start + max_n * max_gap > 10**9:
            raise ValueError("positions would pass 10^9")
        self.max_n, self.max_start, self.max_gap, self.max_d = max_n, max_start, max_gap, max_d

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(max(1, self.max_n // 2), self.max_n)
        d = rng.randint(1, self.max_d)
        x = rng.randint(0, self.max_start)
        a = []
        for _ in range(n):
            a.append(x)
            x += rng.randint(1, self.max_gap)
        rng.shuffle(a)  # do not give the checkpoints in a trivial order
        return {"d": d, "a": a}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a = identity["a"]
        return f"{len(a)} {identity['d']}\n{' '.join(map(str, a))}\n"
