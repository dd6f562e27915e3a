"""Compiled bootcamp of bootcamp-synth; task: "Exact Load" (a block of consecutive boxes that
weighs exactly s; any such block is accepted).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): the task's
bootcamp with one realistic defect of kind 'check_output': check_output sorts the two printed
positions before checking them, so an answer 'r l' with l < r is accepted although the
statement requires l <= r. The reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

_POSITION = re.compile(r"[0-9]{1,6}")


class ExactLoadBootcamp(CompiledBootcamp):
    """Positions l <= r of a block of boxes with total weight s."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_boxes": 3, "max_boxes": 6, "max_weight": 9},
        "medium": {"min_boxes": 7, "max_boxes": 14, "max_weight": 30},
        "hard": {"min_boxes": 15, "max_boxes": 30, "max_weight": 100},
    }

    def __init__(self, seed: int | None = None, min_boxes: int = 7, max_boxes: int = 14,
                 max_weight: int = 30) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_boxes <= max_boxes <= 1000 or not 1 <= max_weight <= 10**4:
            raise ValueError("need 1 <= min_boxes <= max_boxes <= 1000, 1 <= max_weight <= 10^4")
        self.min_boxes, self.max_boxes, self.max_weight = min_boxes, max_boxes, max_weight

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_boxes, self.max_boxes)
        a = [rng.randint(1, self.max_weight) for _ in range(n)]
        l = rng.randrange(n)  # the statement promises a block of weight s: take one
        r = rng.randint(l, min(n - 1, l + 5))
        return {"a": a, "s": sum(a[l:r + 1])}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a = identity["a"]
        return f"{len(a)} {identity['s']}\n{' '.join(map(str, a))}\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        """-1 only when the reference found nothing; else 1 <= l <= r <= n of weight s."""
        tokens = answer.split()
        if expected.split() == ["-1"]:
            return tokens == ["-1"]
        if len(tokens) != 2 or not all(_POSITION.fullmatch(t) for t in tokens):
            return False
        a = identity["a"]
        l, r = sorted((int(tokens[0]), int(tokens[1])))  # the block is the same either way
        if not 1 <= l <= r <= len(a):
            return False
        return sum(a[l - 1:r]) == identity["s"]
