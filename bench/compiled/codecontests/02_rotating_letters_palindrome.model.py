"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "02_A. Rotating Letters Palindrome".

Provenance: record 2 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
bootcamp that the code model writes, written by hand for the suite benchmark
(``bench/compiled/build.py``). The task's reference program and problem text are embedded by
``synth.compiled.assemble``; the answer key is the program's output on ``render_stdin``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

#: the statement's limit: 1 <= |s| <= 2*10^5
MAX_LEN = 200_000
LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: a case longer than this holds the seed of its string (render_stdin draws it): the string
#: itself is kept for the readable levels
SEEDED_LEN = 5000
#: string shapes: pairs whose shorter way round the circle crosses 'z'/'a', pairs more than 13
#: letters apart, a palindrome but for a few (or only the middle) pairs, a palindrome
SHAPES = ("uniform", "uniform", "far_pairs", "near_wrap", "few_changes", "middle_pair",
          "palindrome")
LARGE_SHAPES = ("uniform", "far_pairs", "few_changes")


def _string(rng: Any, shape: str, n: int) -> str:
    if shape == "far_pairs":  # letters from the two ends of the alphabet
        return "".join(rng.choice("abcdef" if rng.random() < 0.5 else "qrstuvwxyz")
                       for _ in range(n))
    if shape == "near_wrap":
        return "".join(rng.choice("xyzabc") for _ in range(n))
    if shape in ("few_changes", "middle_pair", "palindrome"):
        half = [rng.choice(LETTERS) for _ in range(n // 2)]
        middle = [rng.choice(LETTERS)] if n % 2 else []
        s = half + middle + half[::-1]
        if shape == "middle_pair" and n >= 2:  # only the innermost pair differs
            s[n // 2 - 1] = rng.choice(LETTERS.replace(s[n // 2], ""))
        elif shape == "few_changes":
            for _ in range(rng.randint(1, max(1, n // 50 if n > 1000 else 2))):
                s[rng.randrange(n)] = rng.choice(LETTERS)
        return "".join(s)
    return "".join(rng.choice(LETTERS) for _ in range(n))


class RotatingLettersPalindromeBootcamp(CompiledBootcamp):
    """The fewest one-letter rotations (on a circular alphabet) that make s a palindrome."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_len": 1, "max_len": 8},
        "medium": {"min_len": 8, "max_len": 30},
        "hard": {"min_len": 30, "max_len": 120},
    }
    # the statement's limits: for code test suites only, never in a prompt
    STRESS: ClassVar[dict[str, Any]] = {"min_len": MAX_LEN - 1, "max_len": MAX_LEN}

    def __init__(self, seed: int | None = None, min_len: int = 8, max_len: int = 30) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_len <= max_len <= MAX_LEN:
            raise ValueError(f"need 1 <= min_len <= max_len <= {MAX_LEN}")
        self.min_len, self.max_len = min_len, max_len

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_len, self.max_len)
        shape = rng.choice(LARGE_SHAPES if n > 1000 else SHAPES)
        if shape == "middle_pair" and n % 2 == 1:  # an even length has a middle pair
            n = n + 1 if n < self.max_len else max(self.min_len, n - 1)
        if n > SEEDED_LEN:
            return {"n": n, "shape": shape, "seed": rng.getrandbits(62)}
        return {"s": _string(rng, shape, n)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        s = identity.get("s")
        if s is None:  # a large case: its string from its own seed
            s = _string(random.Random(identity["seed"]), identity["shape"], identity["n"])
        return f"{s}\n"
