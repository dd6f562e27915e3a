"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "06_C. Divisors Loyal to Their Digits".

Provenance: record 6 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
bootcamp that the code model writes, written by hand for the suite benchmark (the shipped
library's generated bootcamp of this task has no STRESS and draws n uniformly). The task's
reference program and problem text are embedded by ``synth.compiled.assemble``; the answer key
is the program's output on ``render_stdin``.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

_SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23)


def _loyal(x: int) -> bool:
    return x % sum(map(int, str(x))) == 0


def _is_prime(x: int) -> bool:
    """Miller-Rabin with bases that are exact for every x below 3.4 * 10^14."""
    if x < 2:
        return False
    for p in _SMALL_PRIMES:
        if x % p == 0:
            return x == p
    d, s = x - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7, 11, 13, 17):
        y = pow(a, d, x)
        if y in (1, x - 1):
            continue
        for _ in range(s - 1):
            y = y * y % x
            if y == x - 1:
                break
        else:
            return False
    return True


class DivisorsLoyalToTheirDigitsBootcamp(CompiledBootcamp):
    """Count the divisors of n that are divisible by their own digit sum."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 100},
        "medium": {"max_n": 10**6},
        "hard": {"max_n": 10**10},
    }
    # the statement's limits (n <= 10^12): for code test suites only, never in a prompt
    STRESS: ClassVar[dict[str, Any]] = {"min_n": 10**11, "max_n": 10**12}

    def __init__(self, seed: int | None = None, max_n: int = 10**6, min_n: int = 1) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n // 4 or max_n > 10**12:
            raise ValueError("need 1 <= min_n <= max_n / 4 and max_n <= 10^12")
        self.min_n, self.max_n = min_n, max_n

    # -- shapes of n: the ones faulty programs get wrong, not only random middles -------------
    def _square(self) -> int:
        """A perfect square whose root is loyal (a root counted twice or never changes the
        count)."""
        lo, hi = math.isqrt(self.min_n - 1) + 1, math.isqrt(self.max_n)
        root = self.rng.randint(lo, hi)
        for _ in range(300):
            if _loyal(root):
                break
            root = self.rng.randint(lo, hi)
        return root * root

    def _smooth(self) -> int:
        """A product of small primes below a random bound: many divisors, many loyal ones."""
        rng = self.rng
        bound = rng.randint(max(self.min_n * 2, 2), self.max_n)
        n = 1
        while True:
            fits = [p for p in _SMALL_PRIMES[:rng.randint(3, len(_SMALL_PRIMES))] if n * p <= bound]
            if not fits:
                break
            n *= rng.choice(fits)
        return n if n >= self.min_n else self.min_n

    def _prime(self) -> int:
        rng = self.rng
        for _ in range(2000):
            x = rng.randint(max(self.min_n, 2), self.max_n)
            if _is_prime(x):
                return x
        return 2 if self.min_n <= 2 else self.min_n

    def _two_factors(self) -> int:
        """p * q with both factors near sqrt(n): divisors only a search up to sqrt(n) finds."""
        rng = self.rng
        root = math.isqrt(self.max_n)
        p = rng.randint(max(2, root // 4), root)
        q = rng.randint(max(p, self.min_n // p + 1), self.max_n // p)
        return p * q

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        kinds = ["random", "square", "smooth", "prime", "two_factors", "top"]
        weights = [3, 3, 3, 1, 2, 1]
        if self.min_n == 1 and self.max_n <= 10**6:  # small n, n = 1 among them
            kinds.append("tiny")
            weights.append(12 if self.max_n <= 1000 else 4)
        kind = rng.choices(kinds, weights)[0]
        if kind == "tiny":
            n = rng.choice([1, rng.randint(2, 30)])  # n = 1: its one divisor counts once
        elif kind == "square":
            n = self._square()
        elif kind == "smooth":
            n = self._smooth()
        elif kind == "prime":
            n = self._prime()
        elif kind == "two_factors":
            n = self._two_factors()
        elif kind == "top":
            n = self.max_n - rng.randint(0, 2)
        else:
            n = rng.randint(self.min_n, self.max_n)
        return {"n": n}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return f"{identity['n']}\n"
