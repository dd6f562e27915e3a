"""Compiled bootcamp: Ticket Pair (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Ticket Pair

Two friends want to spend their voucher of s coins exactly. The shop sells n items, the i-th costing a_i coins. Choose two different items whose prices add up to s.

Input

The first line contains two integers n and s (2 ≤ n ≤ 100, 2 ≤ s ≤ 2000).

The second line contains n integers a_1, ..., a_n (1 ≤ a_i ≤ 1000).

It is guaranteed that at least one valid pair exists.

Output

Print two different indices i and j (1 ≤ i, j ≤ n, i ≠ j) with a_i + a_j = s. If there are several answers, print any of them.

Examples

Input

4 7
2 5 3 4


Output

1 2


Input

3 6
3 1 3


Output

1 3
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def main():
    data = sys.stdin.read().split()
    n, s = int(data[0]), int(data[1])
    a = [int(x) for x in data[2:2 + n]]
    where = {}
    for j, x in enumerate(a, 1):
        if s - x in where:
            print(where[s - x], j)
            return
        where.setdefault(x, j)
    print(-1)


main()
"""


class TicketPairBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5, "max_a": 10},
        "medium": {"max_n": 12, "max_a": 100},
        "hard": {"max_n": 30, "max_a": 1000},
    }

    def __init__(self, seed: int | None = None, max_n: int = 12, max_a: int = 100) -> None:
        super().__init__(seed=seed)
        self.max_n, self.max_a = max_n, max_a

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(3, self.max_n)
        a = [rng.randint(1, self.max_a) for _ in range(n)]
        i, j = rng.sample(range(n), 2)
        return {"s": a[i] + a[j], "a": a}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a = identity["a"]
        return f"{len(a)} {identity['s']}\n{' '.join(map(str, a))}\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        tokens = answer.split()
        if len(tokens) != 2 or not all(t.isdigit() for t in tokens):
            return False
        i, j = int(tokens[0]), int(tokens[1])
        a = identity["a"]
        if not (1 <= i <= len(a) and 1 <= j <= len(a)) or i == j:
            return False
        return a[i - 1] + a[j - 1] == identity["s"]
