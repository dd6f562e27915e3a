"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "09_D. Bounty Board".

Provenance: record 9 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
bootcamp that the code model writes, written by hand for the suite benchmark. The task's
reference program and problem text are embedded by ``synth.compiled.assemble``; the answer key
is the program's output on ``render_stdin``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

MAX_N = 200000
MAX_V = 10**9
#: above this many contracts a case is stored as its shape and seed (a case's JSON stays small)
SEEDED_N = 1000


def _contracts(rng: random.Random, n: int, shape: dict[str, Any]) -> list[list[int]]:
    """n contracts [deadline, pay] of the given shape, all drawn from ``rng``."""
    max_d, max_p, cap = shape["max_d"], shape["max_p"], shape["cap"]
    far, pays = shape["far_share"], shape["pays"]
    jobs = []
    for _ in range(n):
        if max_d >= n and rng.random() < far:  # a deadline that never binds
            d = max_d if rng.random() < 0.05 else rng.randint(n, min(max_d, 2 * n))
        else:
            d = rng.randint(1, cap)
        if pays == "few":  # many equal pays
            p = rng.randint(1, min(max_p, 4))
        elif pays == "spread":  # every order of magnitude, the limit included
            p = max_p if rng.random() < 0.05 else rng.randint(1, min(max_p, 10**rng.randint(1, 9)))
        else:
            p = rng.randint(1, max_p)
        jobs.append([d, p])
    if n >= 2 and shape["copies"]:  # identical contracts are still separate contracts
        for _ in range(shape["copies"]):
            jobs[rng.randrange(n)] = list(jobs[rng.randrange(n)])
    return jobs


class BountyBoardBootcamp(CompiledBootcamp):
    """Schedule one-day contracts with deadlines (at most one a day) for the largest pay."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 6, "max_d": 4, "max_p": 20},
        "medium": {"max_n": 12, "max_d": 10, "max_p": 100},
        "hard": {"max_n": 40, "max_d": MAX_V, "max_p": MAX_V},
    }
    # the statement's limits (n <= 2*10^5, d_i, p_i <= 10^9): code test suites only
    STRESS: ClassVar[dict[str, Any]] = {"min_n": MAX_N, "max_n": MAX_N, "max_d": MAX_V,
                                        "max_p": MAX_V}

    def __init__(self, seed: int | None = None, max_n: int = 12, max_d: int = 10,
                 max_p: int = 100, min_n: int = 1) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n <= MAX_N:
            raise ValueError(f"need 1 <= min_n <= max_n <= {MAX_N}")
        if not 1 <= max_d <= MAX_V or not 1 <= max_p <= MAX_V:
            raise ValueError(f"need 1 <= max_d, max_p <= {MAX_V}")
        self.min_n, self.max_n, self.max_d, self.max_p = min_n, max_n, max_d, max_p

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        if self.min_n == 1 and rng.random() < 0.1:
            n = 1
        else:
            n = rng.randint(max(self.min_n, 2), max(self.max_n, 2)) if self.max_n > 1 else 1
        large = n > SEEDED_N
        shape = {
            "max_d": self.max_d, "max_p": self.max_p,
            # how tight the deadlines are: all on day 1, well below n (contracts compete), or n
            "cap": min(self.max_d, rng.choice([1, max(1, n // 3), max(1, n // 2), n, n])),
            # a share of deadlines past n: many of them make a day-by-day search quadratic
            "far_share": rng.choice([0.5, 0.7, 0.9, 1.0] if large else [0.0, 0.0, 0.0, 0.4]),
            "pays": rng.choice(["few", "spread"] if large else ["few", "spread", "uniform"]),
            "copies": rng.choice([0, 0, rng.randint(1, max(1, n // 3))]),
        }
        if large:
            return {"n": n, "shape": shape, "seed": rng.getrandbits(62)}
        return {"jobs": _contracts(rng, n, shape)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        jobs = identity.get("jobs")
        if jobs is None:  # a large case: its contracts from its own seed
            jobs = _contracts(random.Random(identity["seed"]), identity["n"], identity["shape"])
        return f"{len(jobs)}\n" + "".join(f"{d} {p}\n" for d, p in jobs)
