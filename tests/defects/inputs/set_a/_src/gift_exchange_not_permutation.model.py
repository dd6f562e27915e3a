"""Compiled bootcamp; task: "Gift Exchange" (swaps to sort a permutation, t test cases).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (guarantee, one mistake
in the generator): p_i are drawn independently from 1..n, so p is usually not a permutation.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class GiftExchangeBootcamp(CompiledBootcamp):
    """n minus the number of cycles of a permutation, and its longest cycle."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_t": 2, "min_n": 1, "max_n": 5},
        "medium": {"max_t": 3, "min_n": 4, "max_n": 10},
        "hard": {"max_t": 4, "min_n": 10, "max_n": 20},
    }

    def __init__(self, seed: int | None = None, max_t: int = 3, min_n: int = 4,
                 max_n: int = 10) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_t <= 100 or not 1 <= min_n <= max_n <= 1000:
            raise ValueError("need 1 <= max_t <= 100 and 1 <= min_n <= max_n <= 1000")
        self.max_t, self.min_n, self.max_n = max_t, min_n, max_n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        tests = []
        for _ in range(rng.randint(1, self.max_t)):
            n = rng.randint(self.min_n, self.max_n)
            p = [rng.randint(1, n) for _ in range(n)]
            tests.append(p)
        return {"tests": tests}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [str(len(identity["tests"]))]
        for p in identity["tests"]:
            lines += [str(len(p)), " ".join(map(str, p))]
        return "\n".join(lines) + "\n"
