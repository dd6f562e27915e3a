"""Compiled bootcamp of bootcamp-synth; task: "Same Remainder" (two positions p < q whose
numbers leave the same remainder modulo seven; any such pair is accepted).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c), with ONE
realistic code-model mistake (check_output): check_output tests only p < q <= N, so position 0
passes and a[0 - 1] silently reads the last number. The reference program is embedded by
``synth.compiled.assemble``; since several pairs qualify, ``check_output`` checks the pair by
the statement's rules.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

_POSITION = re.compile(r"[0-9]{1,6}")


class SameRemainderBootcamp(CompiledBootcamp):
    """Pigeonhole pairs modulo seven."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_count": 8, "max_count": 10, "max_value": 50},
        "medium": {"min_count": 10, "max_count": 18, "max_value": 1000},
        "hard": {"min_count": 18, "max_count": 30, "max_value": 10**9},
    }

    def __init__(self, seed: int | None = None, min_count: int = 10, max_count: int = 18,
                 max_value: int = 1000) -> None:
        super().__init__(seed=seed)
        if not 8 <= min_count <= max_count <= 10**5 or not 7 <= max_value <= 10**9:
            raise ValueError("need 8 <= min_count <= max_count <= 10^5, 7 <= max_value <= 10^9")
        self.min_count, self.max_count, self.max_value = min_count, max_count, max_value

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_count, self.max_count)
        return {"a": [rng.randint(1, self.max_value) for _ in range(n)]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a = identity["a"]
        return f"{len(a)}\n{' '.join(map(str, a))}\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        """Two positions 1 <= p < q <= N with A_p = A_q (mod 7)."""
        tokens = answer.split()
        if len(tokens) != 2 or not all(_POSITION.fullmatch(t) for t in tokens):
            return False
        a = identity["a"]
        p, q = int(tokens[0]), int(tokens[1])
        if not p < q <= len(a):
            return False
        return a[p - 1] % 7 == a[q - 1] % 7
