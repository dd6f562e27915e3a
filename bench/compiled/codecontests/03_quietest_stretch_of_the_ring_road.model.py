"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "03_B. Quietest Stretch of the Ring Road".

Provenance: record 3 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
bootcamp that the code model writes, written by hand for the suite benchmark
(``bench/compiled/build.py``). The task's reference program and problem text are embedded by
``synth.compiled.assemble``; the answer key is the program's output on ``render_stdin``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

#: the statement's limits: 1 <= k <= n <= 2*10^5, 0 <= a_i <= 10^9
MAX_N = 200_000
MAX_A = 10**9
#: a case with more checkpoints than this holds the seed of its counts (render_stdin draws them)
SEEDED_N = 5000
#: count shapes: one strictly quietest closure planted at a chosen start (the first, the last
#: straight one, the first wrapping one, the last), ties between starts, a closure of zeros
SHAPES = ("uniform", "planted", "planted", "planted", "ties", "periodic", "zeros")
LARGE_SHAPES = ("uniform", "planted")


def _window(rng: Any, n: int, large: bool) -> int:
    if large:  # long closures: summing each closure afresh is n*k work
        return rng.randint(n // 4, 3 * n // 4)
    pick = rng.random()
    return 1 if pick < 0.15 else n if pick < 0.3 else rng.randint(1, n)


def _counts(rng: Any, shape: str, n: int, k: int, lo: int, hi: int) -> list[int]:
    if shape == "ties":
        return [rng.randint(lo, hi)] * n
    if shape == "periodic":  # a pattern repeated around the ring: equal closures recur
        period = rng.choice([p for p in range(1, min(n, 4) + 1) if n % p == 0])
        pattern = [rng.randint(lo, hi) for _ in range(period)]
        return [pattern[i % period] for i in range(n)]
    if shape == "zeros" and lo == 0:  # one closure of zero noise among louder ones
        a = [rng.randint(1, hi) for _ in range(n)]
        start = rng.randrange(n)
        for j in range(k):
            a[(start + j) % n] = 0
        return a
    if shape == "planted" and hi > lo:
        # 0-based starts: the first, the last straight one, the first wrapping one, the last
        starts = [0, n - k, n - 1, rng.randrange(n)]
        # half the time the first closure that wraps past checkpoint n
        start = n - k + 1 if k < n and rng.random() < 0.5 else rng.choice(starts)
        mid = lo + (hi - lo) // 2
        a = [rng.randint(mid + 1, hi) for _ in range(n)]
        for j in range(k):
            a[(start + j) % n] = rng.randint(lo, mid)
        return a
    return [rng.randint(lo, hi) for _ in range(n)]


class QuietestStretchBootcamp(CompiledBootcamp):
    """The least noisy closure of k consecutive checkpoints on a ring, and its first start."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_n": 1, "max_n": 6, "min_a": 0, "max_a": 9},
        "medium": {"min_n": 5, "max_n": 20, "min_a": 0, "max_a": 100},
        "hard": {"min_n": 20, "max_n": 60, "min_a": 0, "max_a": MAX_A},
    }
    # the statement's limits: for code test suites only, never in a prompt. Busy checkpoints:
    # every closure is louder than 10^12, a sentinel some programs take for "infinity"
    STRESS: ClassVar[dict[str, Any]] = {"min_n": MAX_N - 10, "max_n": MAX_N,
                                        "min_a": MAX_A // 2, "max_a": MAX_A}

    def __init__(self, seed: int | None = None, min_n: int = 5, max_n: int = 20, min_a: int = 0,
                 max_a: int = 100) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n <= MAX_N:
            raise ValueError(f"need 1 <= min_n <= max_n <= {MAX_N}")
        if not 0 <= min_a <= max_a <= MAX_A:
            raise ValueError(f"need 0 <= min_a <= max_a <= {MAX_A}")
        self.min_n, self.max_n, self.min_a, self.max_a = min_n, max_n, min_a, max_a

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_n, self.max_n)
        large = n > SEEDED_N
        shape = rng.choice(LARGE_SHAPES if large else SHAPES)
        k = _window(rng, n, large)
        if shape == "planted" and not large and n >= 3:  # a closure that can wrap, not all
            k = rng.randint(2, n - 1)
        if large:
            return {"n": n, "k": k, "shape": shape, "lo": self.min_a, "hi": self.max_a,
                    "seed": rng.getrandbits(62)}
        return {"k": k, "a": _counts(rng, shape, n, k, self.min_a, self.max_a)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a = identity.get("a")
        if a is None:  # a large case: its counts from its own seed
            a = _counts(random.Random(identity["seed"]), identity["shape"], identity["n"],
                        identity["k"], identity["lo"], identity["hi"])
        return f"{len(a)} {identity['k']}\n{' '.join(map(str, a))}\n"
