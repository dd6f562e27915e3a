"""Compiled bootcamp of bootcamp-synth; task: "Putting Books Back" (sort each permutation with
the fewest swaps, listing the swaps as i < j; any shortest sequence is accepted).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c), with ONE
realistic code-model mistake (guarantee): the generator draws every p_i from 1..n on its own,
so p repeats values and is not a permutation. The reference program is embedded by
``synth.compiled.assemble``; since many swap sequences are shortest, ``check_output`` replays
the answer by the statement's rules.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

_NUMBER = re.compile(r"[0-9]{1,7}")


def _stdin(identity: dict[str, Any]) -> str:
    lines = [str(len(identity["tests"]))]
    for p in identity["tests"]:
        lines += [str(len(p)), " ".join(map(str, p))]
    return "\n".join(lines) + "\n"


def _fewest(p: list[int]) -> int:
    seen, cycles = set(), 0
    for i in range(len(p)):
        if i not in seen:
            cycles += 1
            while i not in seen:
                seen.add(i)
                i = p[i] - 1
    return len(p) - cycles


class PuttingBooksBackBootcamp(CompiledBootcamp):
    """Fewest transpositions that sort a permutation, several per input."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_tests": 2, "min_books": 2, "max_books": 4},
        "medium": {"max_tests": 3, "min_books": 3, "max_books": 7},
        "hard": {"max_tests": 4, "min_books": 6, "max_books": 12},
    }

    def __init__(self, seed: int | None = None, max_tests: int = 3, min_books: int = 3,
                 max_books: int = 7) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_tests <= 100 or not 1 <= min_books <= max_books <= 1000:
            raise ValueError("need 1 <= max_tests <= 100, 1 <= min_books <= max_books <= 1000")
        self.max_tests, self.min_books, self.max_books = max_tests, min_books, max_books

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        tests = []
        for _ in range(rng.randint(1, self.max_tests)):
            n = rng.randint(self.min_books, self.max_books)
            p = [rng.randint(1, n) for _ in range(n)]
            tests.append(p)
        return {"tests": tests}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return _stdin(identity)

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        return (
            "Putting Books Back\n\nEach test case is a shelf of n books, p_i being the book at "
            "position i (a permutation of 1..n). One operation swaps the books at positions i < j."
            " For every test case give the smallest number k of operations, then k lines 'i j' "
            "(1 <= i < j <= n) that put book k at position k for every k.\n"
            "The input: t, then per test case n and p_1 ... p_n.\n\n"
            "```\n" + _stdin(identity) + "```\n\n"
            "Write the whole output (every test case) inside <answer></answer> tags."
        )

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        """Per test case: the fewest operations k, then k pairs 1 <= i < j <= n that sort p."""
        tokens = answer.split()
        if not all(_NUMBER.fullmatch(t) for t in tokens):
            return False
        values = [int(t) for t in tokens]
        pos = 0
        for p in identity["tests"]:
            n = len(p)
            if pos >= len(values) or values[pos] != _fewest(p):
                return False
            k = values[pos]
            pos += 1
            if pos + 2 * k > len(values):
                return False
            shelf = list(p)
            for _ in range(k):
                i, j = values[pos], values[pos + 1]
                pos += 2
                if not 1 <= i < j <= n:
                    return False
                shelf[i - 1], shelf[j - 1] = shelf[j - 1], shelf[i - 1]
            if shelf != sorted(shelf) or shelf != list(range(1, n + 1)):
                return False
        return pos == len(values)
