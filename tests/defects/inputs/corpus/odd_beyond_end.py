"""Compiled bootcamp: Odd One Out (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Odd One Out

A row of n tiles is painted; tile i has colour c_i. Find two positions whose colours differ, the left one first.

Input

The input is a single test. Its first line contains the integer n (2 ≤ n ≤ 50). The next line lists the colours c_1 c_2 ... c_n, integers from 1 to 9 each.

It is guaranteed that the tiles do not all have the same colour.

Output

Print two positions p < q with c_p ≠ c_q. Any such pair is accepted.

Examples

Input

3
4 4 7


Output

1 3


Input

2
2 1


Output

1 2
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    c = [int(x) for x in data[1:n + 1]]
    lo, hi = c.index(min(c)), c.index(max(c))
    if lo == hi:
        print(-1)
        return
    print(min(lo, hi) + 1, max(lo, hi) + 1)


main()
"""


class OddOneOutBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5, "colours": 3},
        "medium": {"max_n": 15, "colours": 5},
        "hard": {"max_n": 40, "colours": 9},
    }

    def __init__(self, seed: int | None = None, max_n: int = 15, colours: int = 5) -> None:
        super().__init__(seed=seed)
        self.max_n, self.colours = max_n, colours

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(2, self.max_n)
        base = rng.randint(1, self.colours)
        c = [base] * n
        for k in rng.sample(range(n), rng.randint(1, n - 1)):
            c[k] = rng.choice([x for x in range(1, self.colours + 1) if x != base])
        return {"c": c}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        c = identity["c"]
        return f"{len(c)}\n{' '.join(map(str, c))}\n"

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        c = identity["c"]
        return ("Odd One Out. A row of tiles has colours c_1 ... c_n. Print two positions p < q "
                "(counted from 1) whose colours differ; any such pair is accepted.\n"
                f"Input:\n{len(c)}\n{' '.join(map(str, c))}\n"
                "Answer with p and q inside <answer></answer> tags.")

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        tokens = answer.split()
        if len(tokens) != 2 or not all(t.isdigit() for t in tokens):
            return False
        p, q = int(tokens[0]), int(tokens[1])
        c = identity["c"]
        return p < q and c[(p - 1) % len(c)] != c[(q - 1) % len(c)]
