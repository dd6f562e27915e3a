"""Compiled bootcamp of bootcamp-synth; task: "Putting Books Back" (sort each permutation with
the fewest swaps, listing the swaps as i < j; any shortest sequence is accepted).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c), with ONE
realistic code-model mistake (prompt): prompt_func lists each shelf 0-based (p_i - 1,
'positions as in Python') while render_stdin prints p_i. The reference program is embedded by
``synth.compiled.assemble``; since many swap sequences are shortest, ``check_output`` replays
the answer by the statement's rules.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""Putting Books Back

A librarian has a shelf with $n$ books numbered from $1$ to $n$; the book at position $i$ is the book number $p_i$. In one operation she picks two positions $i$ and $j$ ($i < j$) and exchanges the books standing there. She wants book $k$ to stand at position $k$ for every $k$.

Find the smallest number of operations, and a sequence of operations of that length that puts every book in its place.

Input

Each test contains multiple test cases. The first line contains the number of test cases $t$ ($1 \le t \le 10^4$). The description of the test cases follows.

The first line of each test case contains a single integer $n$ ($1 \le n \le 2 \cdot 10^5$) — the number of books.

The second line of each test case contains $n$ integers $p_1, p_2, \ldots, p_n$ ($1 \le p_i \le n$). It is guaranteed that $p$ is a permutation, that is, all $p_i$ are distinct.

It is guaranteed that the sum of $n$ over all test cases does not exceed $2 \cdot 10^5$.

Output

For each test case, first print an integer $k$ — the smallest number of operations. Then print $k$ lines; the $j$-th of them contains two integers $i$ and $j$ ($1 \le i < j \le n$) — the positions exchanged by the $j$-th operation. If there are several answers, print any of them.

Example

Input

2
3
2 3 1
2
1 2

Output

2
1 2
1 3
0

Input

1
4
4 3 2 1

Output

2
1 4
2 3

Note

In the first test case of the first example the shelf goes $[2, 3, 1] \to [3, 2, 1] \to [1, 2, 3]$.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys


def main():
    data = sys.stdin.buffer.read().split()
    pos = 0
    t = int(data[pos])
    pos += 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        pos += 1
        p = [int(v) for v in data[pos:pos + n]]
        pos += n
        seen = [False] * n
        swaps = []
        for i in range(n):
            cycle = []
            j = i
            while 0 <= j < n and not seen[j]:
                seen[j] = True
                cycle.append(j)
                j = p[j] - 1
            for k in range(1, len(cycle)):
                a, b = cycle[0], cycle[k]
                swaps.append((min(a, b) + 1, max(a, b) + 1))
        out.append(str(len(swaps)))
        out.extend(f"{a} {b}" for a, b in swaps)
    print("\n".join(out))


main()
"""

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
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

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
            p = list(range(1, rng.randint(self.min_books, self.max_books) + 1))
            rng.shuffle(p)
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
            "```\n" + _stdin({"tests": [[v - 1 for v in p] for p in identity["tests"]]}) + "```\n\n"
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
