"""Compiled bootcamp of bootcamp-synth; task: "Apples and Baskets" (for every basket limit,
count the apples that weigh at most the limit).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): the task's
bootcamp with one realistic defect of kind 'format': render_stdin prints m before n on the
first line, so the reference splits the numbers between the apples and the baskets at the wrong
place. The reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class ApplesAndBasketsBootcamp(CompiledBootcamp):
    """How many apples fit each basket."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_apples": 4, "max_baskets": 3, "max_weight": 20},
        "medium": {"max_apples": 8, "max_baskets": 6, "max_weight": 200},
        "hard": {"max_apples": 15, "max_baskets": 10, "max_weight": 1000},
    }

    def __init__(self, seed: int | None = None, max_apples: int = 8, max_baskets: int = 6,
                 max_weight: int = 200) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_apples <= 1000 or not 1 <= max_baskets <= 1000 or \
                not 2 <= max_weight <= 10**9:
            raise ValueError("need 1 <= max_apples, max_baskets <= 1000, 2 <= max_weight")
        self.max_apples, self.max_baskets = max_apples, max_baskets
        self.max_weight = max_weight

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        a = [rng.randint(1, self.max_weight) for _ in range(rng.randint(1, self.max_apples))]
        b = [rng.randint(1, self.max_weight) for _ in range(rng.randint(1, self.max_baskets))]
        return {"a": a, "b": b}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a, b = identity["a"], identity["b"]
        n, m = len(a), len(b)
        return f"{m} {n}\n{' '.join(map(str, a))}\n{' '.join(map(str, b))}\n"
