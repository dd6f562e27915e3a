"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "05_B. Sparring Partners".

Provenance: record 5 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
bootcamp that the code model writes, written by hand for the suite benchmark
(``bench/compiled/build.py``). The task's reference program and problem text are embedded by
``synth.compiled.assemble``; the answer key is the program's output on ``render_stdin``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

#: the statement's limits: 1 <= n <= 2*10^5, 0 <= d <= 10^9, 1 <= a_i <= 10^9
MAX_N = 200_000
MAX_D = 10**9
MAX_A = 10**9
#: a case with more members than this holds the seed of its skills (render_stdin draws them)
SEEDED_N = 5000
#: skill shapes: chains of sorted neighbours whose gaps are d, d + 1 or smaller (a close pair
#: in the middle of a chain, the weakest member's only partner), repeated skills with d = 0,
#: skills of different digit counts
SHAPES = ("uniform", "chain", "chain", "repeats", "digits")
LARGE_SHAPES = ("uniform", "chain")


def _skills(rng: Any, shape: str, n: int, top: int) -> tuple[list[int], int]:
    """The skills, shuffled, and d."""
    if shape == "repeats":
        pool = [rng.randint(1, top) for _ in range(rng.randint(1, 3))]
        a, d = [rng.choice(pool) for _ in range(n)], rng.choice((0, 0, 1))
    elif shape == "digits":  # 9 < 10 < 99 < 100 ...: ordering them as text is wrong
        a = [min(top, max(1, 10 ** rng.randint(0, len(str(top)) - 1) + rng.randint(-2, 2))) for _ in range(n)]
        d = rng.randint(0, 3)
    elif shape == "chain":
        d = rng.randint(0, max(0, min(MAX_D, top // (2 * n))))
        gaps = [rng.choice((d, d, d + 1, rng.randint(0, d), 2 * d + 2)) for _ in range(n - 1)]
        start = rng.randint(1, max(1, top - sum(gaps)))
        a = [start]
        for g in gaps:
            a.append(min(top, a[-1] + g))
    else:
        a = [rng.randint(1, top) for _ in range(n)]
        d = rng.randint(0, max(0, min(MAX_D, 2 * top // max(1, n))))
    rng.shuffle(a)
    return a, d


class SparringPartnersBootcamp(CompiledBootcamp):
    """The most pairs of members whose skills differ by at most d."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_n": 1, "max_n": 6, "max_a": 12},
        "medium": {"min_n": 5, "max_n": 20, "max_a": 200},
        "hard": {"min_n": 20, "max_n": 60, "max_a": MAX_A},
    }
    # the statement's limits: for code test suites only, never in a prompt
    STRESS: ClassVar[dict[str, Any]] = {"min_n": MAX_N - 10, "max_n": MAX_N, "max_a": MAX_A}

    def __init__(self, seed: int | None = None, min_n: int = 5, max_n: int = 20,
                 max_a: int = 200) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n <= MAX_N:
            raise ValueError(f"need 1 <= min_n <= max_n <= {MAX_N}")
        if not 1 <= max_a <= MAX_A:
            raise ValueError(f"need 1 <= max_a <= {MAX_A}")
        self.min_n, self.max_n, self.max_a = min_n, max_n, max_a

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_n, self.max_n)
        if n > SEEDED_N:
            return {"n": n, "shape": rng.choice(LARGE_SHAPES), "max_a": self.max_a,
                    "seed": rng.getrandbits(62)}
        a, d = _skills(rng, rng.choice(SHAPES), n, self.max_a)
        return {"d": d, "a": a}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        if "a" in identity:
            a, d = identity["a"], identity["d"]
        else:  # a large case: its skills and d from its own seed
            a, d = _skills(random.Random(identity["seed"]), identity["shape"], identity["n"],
                           identity["max_a"])
        return f"{len(a)} {d}\n{' '.join(map(str, a))}\n"
