"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "07_C. Flip to Balance".

Provenance: record 7 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
bootcamp that the code model writes, written by hand for the suite benchmark
(``bench/compiled/build.py``). The task's reference program and problem text are embedded by
``synth.compiled.assemble``; the answer key is the program's output on ``render_stdin``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

#: the statement's limit: 1 <= n <= 2*10^5
MAX_N = 200_000
#: a case longer than this holds the seed of its brackets (render_stdin draws them)
SEEDED_N = 5000
#: bracket shapes: random, a balanced sequence with a few flips, closers then openers (odd
#: counts need a flip more on each side), one kind only, deep nesting
SHAPES = ("uniform", "uniform", "flipped", "closers_openers", "one_kind", "nested")
#: at the limits: over 10^5 openers pending at once, nested about as deep
LARGE_SHAPES = ("deep", "deep_noisy")


def _brackets(rng: Any, shape: str, n: int) -> str:
    if shape == "closers_openers":
        closers = rng.randint(0, n)
        return ")" * closers + "(" * (n - closers)
    if shape == "one_kind":
        return rng.choice("()") * n
    if shape in ("deep", "deep_noisy"):
        openers = rng.randint(n // 2 + n // 20, n - n // 8)
        s = ["("] * openers + [")"] * (n - openers)
        if shape == "deep_noisy":  # a few flips among the closers
            for _ in range(rng.randint(1, 50)):
                s[rng.randrange(openers, n)] = rng.choice("()")
        return "".join(s)
    if shape in ("flipped", "nested"):
        depth, s = 0, []
        for i in range(n):
            left = n - i
            if depth == 0 or (depth < left and rng.random() < (0.8 if shape == "nested" else 0.5)):
                s.append("(")
                depth += 1
            else:
                s.append(")")
                depth -= 1
        for _ in range(rng.randint(0 if shape == "nested" else 1, 3)):
            k = rng.randrange(n)
            s[k] = "(" if s[k] == ")" else ")"
        return "".join(s)
    return "".join(rng.choice("()") for _ in range(n))


class FlipToBalanceBootcamp(CompiledBootcamp):
    """The fewest bracket flips that balance a sequence, or -1."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_n": 1, "max_n": 6},
        "medium": {"min_n": 6, "max_n": 20},
        "hard": {"min_n": 20, "max_n": 80},
    }
    # the statement's limit: for code test suites only, never in a prompt
    STRESS: ClassVar[dict[str, Any]] = {"min_n": MAX_N - 10, "max_n": MAX_N}

    def __init__(self, seed: int | None = None, min_n: int = 6, max_n: int = 20) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n <= MAX_N:
            raise ValueError(f"need 1 <= min_n <= max_n <= {MAX_N}")
        self.min_n, self.max_n = min_n, max_n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_n, self.max_n)
        # mostly even lengths (an odd one is -1 at once), odd ones now and then
        if n % 2 == 1 and rng.random() < 0.75:
            n = n + 1 if n < self.max_n else max(self.min_n, n - 1)
        if n > SEEDED_N:
            if n % 2 == 1:
                n -= 1
            return {"n": n, "shape": rng.choice(LARGE_SHAPES), "seed": rng.getrandbits(62)}
        return {"s": _brackets(rng, rng.choice(SHAPES), n)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        s = identity.get("s")
        if s is None:  # a large case: its brackets from its own seed
            s = _brackets(random.Random(identity["seed"]), identity["shape"], identity["n"])
        return f"{len(s)}\n{s}\n"
