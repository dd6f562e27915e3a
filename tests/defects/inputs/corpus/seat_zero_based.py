"""Compiled bootcamp: Seat Cycles (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Seat Cycles

After the break, every one of n students sits down in the seat of another student: student i takes seat p_i. Students who keep passing the seat along form a cycle. Count the cycles.

Input

In the first line you are given n (1 ≤ n ≤ 1000).

In the second line you are given n integers p_1, p_2, ..., p_n. It is guaranteed that p is a permutation of 1, 2, ..., n.

Output

Output the number of cycles of the permutation.

Examples

Input

4
2 1 4 3


Output

2


Input

3
1 2 3


Output

3
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    p = [0] + [int(x) for x in data[1:n + 1]]
    seen = [False] * (n + 2)
    cycles = 0
    for i in range(1, n + 1):
        if not seen[i]:
            cycles += 1
            j = i
            while 1 <= j <= n and not seen[j]:
                seen[j] = True
                j = p[j]
    print(cycles)


main()
"""


class SeatCyclesBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 6}, "medium": {"max_n": 15}, "hard": {"max_n": 40},
    }

    def __init__(self, seed: int | None = None, max_n: int = 15) -> None:
        super().__init__(seed=seed)
        self.max_n = max_n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(2, self.max_n)
        p = list(range(n))
        rng.shuffle(p)
        return {"p": p}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        p = identity["p"]
        return f"{len(p)}\n{' '.join(map(str, p))}\n"
