"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "17_G. How Many Longest Climbs".

Provenance: record 17 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
bootcamp that the code model writes, written by hand for the suite benchmark. The task's
reference program and problem text are embedded by ``synth.compiled.assemble``; the answer key
is the program's output on ``render_stdin``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

MAX_N = 200000
MAX_A = 10**9
#: above this n a case is stored as its shape and seed (a case's JSON stays small)
SEEDED_N = 1000


def _altitudes(rng: random.Random, n: int, shape: dict[str, Any]) -> list[int]:
    """n altitudes in 1..max_a of the given shape."""
    kind, max_a = shape["kind"], shape["max_a"]
    if kind == "equal":
        return [rng.randint(1, max_a)] * n
    if kind in ("rising", "falling"):  # strictly monotone where the range allows it
        values = sorted(rng.sample(range(1, max_a + 1), n)) if max_a >= n else \
            sorted(rng.randint(1, max_a) for _ in range(n))
        return values if kind == "rising" else values[::-1]
    if kind == "few":  # a handful of altitudes: many ties
        pool = [rng.randint(1, max_a) for _ in range(rng.randint(2, 4))]
        return [rng.choice(pool) for _ in range(n)]
    if kind == "blocks":  # falling (or level) groups in rising bands: counts multiply, and
        # pass 10^9+7 at the limits
        out: list[int] = []
        group = shape["group"]
        bands = max(1, -(-n // group))
        width = max(1, max_a // bands)
        for b in range(bands):
            lo = 1 + b * width
            size = min(group, n - len(out))
            if shape["level"]:
                out.extend([rng.randint(lo, lo + width - 1)] * size)
            else:
                out.extend(sorted((rng.randint(lo, lo + width - 1) for _ in range(size)),
                                  reverse=True))
        return out
    if kind == "noisy":  # a rising trend with noise: long climbs, many of them
        step = max(1, max_a // max(1, 2 * n))
        return [min(max_a, max(1, i * step + rng.randint(-3 * step, 3 * step) + 1))
                for i in range(n)]
    return [rng.randint(1, max_a) for _ in range(n)]


class HowManyLongestClimbsBootcamp(CompiledBootcamp):
    """Length of a longest strictly increasing subsequence, and how many there are."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 6, "max_a": 6},
        "medium": {"max_n": 15, "max_a": 40},
        "hard": {"max_n": 50, "max_a": MAX_A},
    }
    # the statement's limits (n <= 2*10^5, a_i <= 10^9): for code test suites only
    STRESS: ClassVar[dict[str, Any]] = {"min_n": MAX_N - 50, "max_n": MAX_N, "max_a": MAX_A}

    def __init__(self, seed: int | None = None, max_n: int = 15, max_a: int = 40,
                 min_n: int = 1) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n <= MAX_N or not 2 <= max_a <= MAX_A:
            raise ValueError(f"need 1 <= min_n <= max_n <= {MAX_N} and 2 <= max_a <= {MAX_A}")
        self.min_n, self.max_n, self.max_a = min_n, max_n, max_a

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        large = self.min_n > SEEDED_N
        if self.min_n == 1 and rng.random() < 0.08:
            n = 1
        else:
            n = rng.randint(max(self.min_n, 2), self.max_n)
        kinds = ["random", "few", "blocks", "noisy", "rising", "falling", "equal"]
        # at the limits mostly many distinct altitudes: the reference's slowest inputs, which
        # set the suite's time limit
        weights = [5, 1, 3, 2, 0, 0, 0] if large else [5, 3, 3, 2, 1, 1, 1]
        shape = {"kind": rng.choices(kinds, weights)[0], "max_a": self.max_a,
                 "group": rng.choice([2, 2, 3, rng.randint(2, 6)]),
                 "level": rng.random() < 0.3}
        if large:
            return {"n": n, "shape": shape, "seed": rng.getrandbits(62)}
        return {"a": _altitudes(rng, n, shape)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a = identity.get("a")
        if a is None:  # a large case: its altitudes from its own seed
            a = _altitudes(random.Random(identity["seed"]), identity["n"], identity["shape"])
        return f"{len(a)}\n{' '.join(map(str, a))}\n"
