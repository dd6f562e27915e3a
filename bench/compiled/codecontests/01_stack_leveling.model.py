"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "01_A. Stack Leveling".

Provenance: record 1 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
bootcamp that the code model writes, written by hand for the suite benchmark
(``bench/compiled/build.py``). The task's reference program and problem text are embedded by
``synth.compiled.assemble``; the answer key is the program's output on ``render_stdin``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

#: the statement's limits: 1 <= n <= 2*10^5, 0 <= h_i <= 10^9
MAX_N = 200_000
MAX_H = 10**9
#: a case with more stacks than this holds the seed of its heights, not the heights (a case's
#: JSON is at most 10^6 characters; 2*10^5 heights take about 2*10^6); render_stdin draws them
SEEDED_N = 5000
#: height shapes of a case: the median's edge cases (repeats, one value, two extremes, a few
#: outliers that drag the mean away) beside plain random heights
SHAPES = ("uniform", "uniform", "repeats", "skewed", "all_same", "extremes", "odd_distinct")
#: shapes of a case at the statement's limits: every height distinct or nearly, so that a
#: program trying every height as the target does n^2 work, and heights beyond 10^6
LARGE_SHAPES = ("uniform", "skewed")


def _heights(rng: Any, shape: str, n: int, top: int) -> list[int]:
    if shape == "all_same":
        return [rng.randint(0, top)] * n
    if shape == "extremes":
        return [rng.choice((0, top)) for _ in range(n)]
    if shape == "repeats":  # a few values, unevenly repeated: the distinct median is not the median
        pool = [rng.randint(0, top) for _ in range(rng.randint(2, 4))]
        weights = [rng.randint(1, 6) for _ in pool]
        return rng.choices(pool, weights=weights, k=n)
    if shape == "skewed":  # most heights low, some near the top: the mean is far from the median
        low = max(1, top // 1000) if n > 1000 else max(1, top // 10)
        return [rng.randint(top - top // 4, top) if rng.random() < 0.3 else rng.randint(0, low)
                for _ in range(n)]
    return [rng.randint(0, top) for _ in range(n)]  # uniform, odd_distinct


class StackLevelingBootcamp(CompiledBootcamp):
    """The fewest one-crate moves that give n stacks one height."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_n": 1, "max_n": 6, "max_h": 10},
        "medium": {"min_n": 5, "max_n": 25, "max_h": 1000},
        "hard": {"min_n": 20, "max_n": 80, "max_h": MAX_H},
    }
    # the statement's limits: for code test suites only, never in a prompt
    STRESS: ClassVar[dict[str, Any]] = {"min_n": MAX_N - 1, "max_n": MAX_N, "max_h": MAX_H}

    def __init__(self, seed: int | None = None, min_n: int = 5, max_n: int = 25,
                 max_h: int = 1000) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n <= MAX_N:
            raise ValueError(f"need 1 <= min_n <= max_n <= {MAX_N}")
        if not 1 <= max_h <= MAX_H:
            raise ValueError(f"need 1 <= max_h <= {MAX_H}")
        self.min_n, self.max_n, self.max_h = min_n, max_n, max_h

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_n, self.max_n)
        shape = rng.choice(LARGE_SHAPES if n > 1000 else SHAPES)
        if shape == "odd_distinct" and n % 2 == 0:  # one middle stack: its index matters
            n = n + 1 if n < self.max_n else max(self.min_n, n - 1)
        if n > SEEDED_N:
            return {"n": n, "shape": shape, "max_h": self.max_h, "seed": rng.getrandbits(62)}
        return {"h": _heights(rng, shape, n, self.max_h)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        h = identity.get("h")
        if h is None:  # a large case: its heights from its own seed
            h = _heights(random.Random(identity["seed"]), identity["shape"], identity["n"],
                         identity["max_h"])
        return f"{len(h)}\n{' '.join(map(str, h))}\n"
