"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "10_D. Stairs with Rotten Steps".

Provenance: record 10 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
bootcamp that the code model writes, written by hand for the suite benchmark. The task's
reference program and problem text are embedded by ``synth.compiled.assemble``; the answer key
is the program's output on ``render_stdin``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

MAX_N = 200000
#: above this n a case is stored as its shape and seed (a case's JSON stays small)
SEEDED_N = 1000


def _rotten(rng: random.Random, n: int, k: int, shape: dict[str, Any]) -> list[int]:
    """The rotten steps (1..n-1, distinct, in random order) of the given shape."""
    if n == 1:
        return []
    kind = shape["rot"]
    if kind == "none":
        return []
    if kind == "all":  # every step between floor and landing
        steps = list(range(1, n))
    else:
        density = shape["density"]
        steps = [s for s in range(1, n) if rng.random() < density]
        if kind == "wall" and k <= n - 1:  # k rotten steps in a row: nothing gets past them
            start = rng.randint(1, n - k)
            steps = sorted(set(steps) | set(range(start, start + k)))
        elif kind == "gaps" and k >= 2:  # runs of k - 1 rotten steps: just jumpable
            steps = []
            s = rng.randint(1, k)
            while s + k - 2 <= n - 1:
                steps.extend(range(s, s + k - 1))
                s += k - 1 + rng.randint(1, 3)
    rng.shuffle(steps)
    return steps


class StairsWithRottenStepsBootcamp(CompiledBootcamp):
    """Count the ways up a staircase with jumps of 1..k that never land on a rotten step."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 8},
        "medium": {"max_n": 30},
        "hard": {"max_n": 90},
    }
    # the statement's limits (n <= 2*10^5): for code test suites only, never in a prompt
    STRESS: ClassVar[dict[str, Any]] = {"min_n": MAX_N - 50, "max_n": MAX_N}

    def __init__(self, seed: int | None = None, max_n: int = 30, min_n: int = 1) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n <= MAX_N:
            raise ValueError(f"need 1 <= min_n <= max_n <= {MAX_N}")
        self.min_n, self.max_n = min_n, max_n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        large = self.min_n > SEEDED_N
        if large:
            n = rng.choice([self.max_n, rng.randint(self.min_n, self.max_n)])
            # a long jump makes a sum over the last k steps cost n * k
            k = rng.choice([n, rng.randint(n // 4, n), rng.randint(n // 4, n),
                            rng.randint(2, 60)])
            rot = rng.choice(["none", "random", "random", "gaps"])
        else:
            n = 1 if self.min_n == 1 and rng.random() < 0.08 else \
                rng.randint(max(self.min_n, 2), max(self.max_n, 2))
            # k = 1 (one way at most: a rotten step blocks it), k = n, short and any jumps
            k = rng.choices([1, n, rng.randint(1, n), rng.randint(2, max(2, min(n, 5)))],
                            [2, 1, 2, 2])[0]
            k = min(k, n)
            rot = rng.choices(["none", "random", "wall", "gaps", "all"], [1, 5, 1, 2, 1])[0]
        shape = {"rot": rot, "density": rng.choice([0.1, 0.2, 0.3])}
        if large:
            return {"n": n, "k": k, "shape": shape, "seed": rng.getrandbits(62)}
        return {"n": n, "k": k, "rotten": _rotten(rng, n, k, shape)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        n, k = identity["n"], identity["k"]
        rotten = identity.get("rotten")
        if rotten is None:  # a large case: its rotten steps from its own seed
            rotten = _rotten(random.Random(identity["seed"]), n, k, identity["shape"])
        return f"{n} {k} {len(rotten)}\n{' '.join(map(str, rotten))}\n"
