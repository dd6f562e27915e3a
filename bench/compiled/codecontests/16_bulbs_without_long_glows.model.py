"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "16_F. Bulbs Without Long Glows".

Provenance: record 16 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
bootcamp that the code model writes, written by hand for the suite benchmark (the shipped
library's generated bootcamp of this task has no STRESS and draws n and k uniformly). The task's
reference program and problem text are embedded by ``synth.compiled.assemble``; the answer key
is the program's output on ``render_stdin``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

MAX_N = 10**18
MAX_K = 12


class BulbsWithoutLongGlowsBootcamp(CompiledBootcamp):
    """Count the 0/1 strings of length n without k consecutive ones, modulo 10^9+7."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 12, "max_k": 4},
        "medium": {"max_n": 60, "max_k": 8},
        "hard": {"max_n": 300, "max_k": MAX_K},
    }
    # the statement's limits (n <= 10^18, k <= 12): for code test suites only, never in a prompt
    STRESS: ClassVar[dict[str, Any]] = {"min_n": 10**17, "max_n": MAX_N, "max_k": MAX_K}

    def __init__(self, seed: int | None = None, max_n: int = 40, max_k: int = 8,
                 min_n: int = 1) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n <= MAX_N or not 1 <= max_k <= MAX_K:
            raise ValueError(f"need 1 <= min_n <= max_n <= 10^18 and 1 <= max_k <= {MAX_K}")
        self.min_n, self.max_n, self.max_k = min_n, max_n, max_k

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        # k = 1 (nothing may glow) now and then; mostly k >= 2, the limit often
        k = rng.choices([1, self.max_k, min(self.max_k, rng.randint(2, max(2, self.max_k)))],
                        [1, 3, 6])[0]
        if self.min_n > 1:  # the stress level: every bit of a 60-bit n matters
            n = rng.choice([self.max_n, (1 << rng.randint(57, 59)) - 1,  # every bit set
                            (1 << 59) + rng.randint(0, 1 << 40),
                            *(rng.randint(self.min_n, self.max_n) for _ in range(3))])
            return {"n": n, "k": k}
        # n around k: shorter than k, k - 1, k, k + 1 are where closed forms slip
        near = [n for n in (k - 2, k - 1, k, k, k + 1, 1) if 1 <= n <= self.max_n]
        n = rng.choice(near) if near and rng.random() < 0.35 else rng.randint(1, self.max_n)
        return {"n": n, "k": k}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return f"{identity['n']} {identity['k']}\n"
