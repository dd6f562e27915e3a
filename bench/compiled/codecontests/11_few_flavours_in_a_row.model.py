"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "11_D. Few Flavours in a Row".

Provenance: record 11 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
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


def _palette(rng: random.Random, size: int, max_a: int) -> list[int]:
    """``size`` distinct flavours up to ``max_a``, the limit itself now and then."""
    size = min(size, max_a)
    chosen = {max_a} if max_a > size and rng.random() < 0.3 else set()
    while len(chosen) < size:
        chosen.add(rng.randint(1, max_a))
    out = list(chosen)
    rng.shuffle(out)
    return out


def _row(rng: random.Random, n: int, k: int, shape: dict[str, Any]) -> list[int]:
    """n flavours of the given shape: runs of flavours from a palette of a chosen size."""
    kind, max_a, run = shape["kind"], shape["max_a"], shape["run"]
    if kind == "same":
        return [rng.randint(1, max_a)] * n
    if kind == "distinct":
        return _palette(rng, n, max_a) if max_a >= n else [rng.randint(1, max_a) for _ in range(n)]
    if kind == "periodic":  # one pattern repeated: many longest blocks tie
        pattern = [rng.choice(_palette(rng, k + 1, max_a)) for _ in range(rng.randint(2, 6))]
        return [pattern[i % len(pattern)] for i in range(n)]
    colours = _palette(rng, max(1, shape["colours"]), max_a)
    out: list[int] = []
    if kind == "drift":  # the window of usable flavours slides along the row: long blocks
        pos = 0
        while len(out) < n:
            out.extend([colours[pos % len(colours)]] * rng.randint(1, run))
            pos += rng.choice([-1, 1, 1])
    else:  # random runs
        while len(out) < n:
            out.extend([rng.choice(colours)] * rng.randint(1, run))
    out = out[:n]
    if kind == "tail" and n >= 4:  # the best block is the suffix, after the window shrank
        cut = rng.randint(n // 4, n // 2)
        few = rng.sample(colours, min(k, len(colours)))
        out[n - cut:] = [rng.choice(few) for _ in range(cut)]
    return out


class FewFlavoursInARowBootcamp(CompiledBootcamp):
    """Longest block with at most k distinct values, and its smallest start."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 8, "max_a": 9},
        "medium": {"max_n": 20, "max_a": 100},
        "hard": {"max_n": 60, "max_a": MAX_A},
    }
    # the statement's limits (n <= 2*10^5, a_i <= 10^9): for code test suites only
    STRESS: ClassVar[dict[str, Any]] = {"min_n": MAX_N - 50, "max_n": MAX_N, "max_a": MAX_A}

    def __init__(self, seed: int | None = None, max_n: int = 20, max_a: int = 100,
                 min_n: int = 1) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n <= MAX_N:
            raise ValueError(f"need 1 <= min_n <= max_n <= {MAX_N}")
        if not 2 <= max_a <= MAX_A:
            raise ValueError(f"need 2 <= max_a <= {MAX_A}")
        self.min_n, self.max_n, self.max_a = min_n, max_n, max_a

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        large = self.min_n > SEEDED_N
        if self.min_n == 1 and rng.random() < 0.08:
            n = 1
        else:
            n = rng.randint(max(self.min_n, 2), self.max_n)
        if large:  # long blocks: growing a block from every start is quadratic
            kind = rng.choice(["same", "runs", "drift", "drift", "tail", "periodic"])
            k = rng.choice([1, 2, 3, rng.randint(4, 50), rng.randint(1, n)])
            run = rng.choice([1000, 5000, 20000])
        else:
            kind = rng.choices(["same", "distinct", "runs", "drift", "tail", "periodic"],
                               [1, 1, 4, 2, 3, 2])[0]
            # k = 1, k = n, and k >= 3 (where keeping only the last run's flavour is wrong)
            k = rng.choice([1, n, rng.randint(1, n), rng.randint(1, min(n, 3)),
                            rng.randint(3, max(3, min(n, 5)))])
            k = min(k, n)
            run = rng.choice([1, 2, 3])
        shape = {"kind": kind, "max_a": self.max_a, "run": run,
                 "colours": rng.choice([k + 1, k + 2, 2 * k + 1, k + rng.randint(1, 6)])}
        if large:
            return {"n": n, "k": k, "shape": shape, "seed": rng.getrandbits(62)}
        return {"k": k, "a": _row(rng, n, k, shape)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a = identity.get("a")
        if a is None:  # a large case: its flavours from its own seed
            a = _row(random.Random(identity["seed"]), identity["n"], identity["k"],
                     identity["shape"])
        return f"{len(a)} {identity['k']}\n{' '.join(map(str, a))}\n"
