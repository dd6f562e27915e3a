"""Compiled bootcamp of bootcamp-synth; task: "Exact Change" (count the non-empty sets of at
most 16 coins worth exactly X yen).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c), with ONE
realistic code-model mistake (bounds): the hard level draws up to 20 coins (the constructor
allows 20), above the statement's 16. The reference program is embedded by
``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class ExactChangeBootcamp(CompiledBootcamp):
    """Subsets of coin values with a given total."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_coins": 1, "max_coins": 5, "max_value": 10},
        "medium": {"min_coins": 5, "max_coins": 10, "max_value": 30},
        "hard": {"min_coins": 10, "max_coins": 20, "max_value": 60},
    }

    def __init__(self, seed: int | None = None, min_coins: int = 5, max_coins: int = 10,
                 max_value: int = 30) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_coins <= max_coins <= 20 or not 1 <= max_value <= 1000:
            raise ValueError("need 1 <= min_coins <= max_coins <= 20, 1 <= max_value <= 1000")
        self.min_coins, self.max_coins, self.max_value = min_coins, max_coins, max_value

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_coins, self.max_coins)
        a = [rng.randint(1, self.max_value) for _ in range(n)]
        if rng.random() < 0.8:  # usually a total that some non-empty set reaches
            chosen = rng.sample(a, rng.randint(1, n))
            x = sum(chosen)
        else:
            x = rng.randint(1, sum(a))
        return {"x": x, "a": a}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a = identity["a"]
        return f"{len(a)} {identity['x']}\n{' '.join(map(str, a))}\n"
