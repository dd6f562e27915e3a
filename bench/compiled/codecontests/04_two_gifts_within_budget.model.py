"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "04_B. Two Gifts Within Budget".

Provenance: record 4 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
bootcamp that the code model writes, written by hand for the suite benchmark
(``bench/compiled/build.py``). The task's reference program and problem text are embedded by
``synth.compiled.assemble``; the answer key is the program's output on ``render_stdin``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

#: the statement's limits: 2 <= n <= 2*10^5, 1 <= S <= 2*10^9, 1 <= a_i <= 10^9
MAX_N = 200_000
MAX_S = 2 * 10**9
MAX_A = 10**9
#: a case with more items than this holds the seed of its prices (render_stdin draws them)
SEEDED_N = 5000
#: price shapes, each with a budget: exactly a pair's cost, repeated prices with items at
#: exactly S/2, every pair fitting, no pair fitting
SHAPES = ("uniform", "uniform", "repeats", "half_budget", "all_fit", "none_fit")
#: at the limits most pairs fit (a pair-by-pair count is ~n^2/2 work) and prices pass 10^6
LARGE_SHAPES = ("all_fit", "most_fit")


def _prices(rng: Any, shape: str, n: int, top: int) -> tuple[list[int], int]:
    """The prices and the budget S of a case."""
    if shape in ("repeats", "half_budget"):
        pool = [rng.randint(1, top) for _ in range(rng.randint(1, 3))]
        a = [rng.choice(pool) for _ in range(n)]
    else:
        a = [rng.randint(1, top) for _ in range(n)]
    ordered = sorted(a)
    if shape == "half_budget":  # some items cost exactly S/2: their pairs cost exactly S
        s = 2 * rng.choice(a)
    elif shape == "all_fit":
        s = ordered[-1] + ordered[-2] + rng.choice((0, 0, rng.randint(0, top)))
    elif shape == "most_fit":
        s = rng.randint(top, 2 * top)
    elif shape == "none_fit":
        s = ordered[0] + ordered[1] - 1
    else:  # the cost of some pair, give or take one coin
        i, j = rng.sample(range(n), 2)
        s = a[i] + a[j] + rng.choice((-1, 0, 0, 1))
    return a, min(max(s, 1), MAX_S)


class TwoGiftsWithinBudgetBootcamp(CompiledBootcamp):
    """How many pairs of different items cost at most S together."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_n": 2, "max_n": 6, "max_a": 10},
        "medium": {"min_n": 5, "max_n": 20, "max_a": 100},
        "hard": {"min_n": 20, "max_n": 60, "max_a": MAX_A},
    }
    # the statement's limits: for code test suites only, never in a prompt
    STRESS: ClassVar[dict[str, Any]] = {"min_n": MAX_N - 10, "max_n": MAX_N, "max_a": MAX_A}

    def __init__(self, seed: int | None = None, min_n: int = 5, max_n: int = 20,
                 max_a: int = 100) -> None:
        super().__init__(seed=seed)
        if not 2 <= min_n <= max_n <= MAX_N:
            raise ValueError(f"need 2 <= min_n <= max_n <= {MAX_N}")
        if not 1 <= max_a <= MAX_A:
            raise ValueError(f"need 1 <= max_a <= {MAX_A}")
        self.min_n, self.max_n, self.max_a = min_n, max_n, max_a

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_n, self.max_n)
        if n > SEEDED_N:
            return {"n": n, "shape": rng.choice(LARGE_SHAPES), "max_a": self.max_a,
                    "seed": rng.getrandbits(62)}
        a, s = _prices(rng, rng.choice(SHAPES), n, self.max_a)
        return {"s": s, "a": a}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        if "a" in identity:
            a, s = identity["a"], identity["s"]
        else:  # a large case: its prices and budget from its own seed
            a, s = _prices(random.Random(identity["seed"]), identity["shape"], identity["n"],
                           identity["max_a"])
        return f"{len(a)} {s}\n{' '.join(map(str, a))}\n"
