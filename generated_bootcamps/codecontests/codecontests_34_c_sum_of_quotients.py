"""Bootcamp for Sum of Quotients."""
from typing import Any

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Sum of Quotients

A bakery sells cookies in boxes, and for every k from 1 to n it has boxes that hold exactly k cookies. The baker has baked n cookies and wonders, for every k, how many boxes of size k the cookies would fill completely, that is, the value ⌊n / k⌋ (n divided by k, rounded down).

Find the sum ⌊n / 1⌋ + ⌊n / 2⌋ + ... + ⌊n / n⌋.

Input

The only line contains one integer n (1 ≤ n ≤ 10^12).

Output

Print one integer — the sum.

Examples

Input

5


Output

10


Input

1


Output

1


Note

In the first example the sum is 5 + 2 + 1 + 1 + 1 = 10.

In the second example there is a single term, ⌊1 / 1⌋ = 1.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
from math import isqrt

n = int(input())
k = isqrt(n)
total = 0
for i in range(1, k + 1):
    total += n // i
print(2 * total - k * k)
"""


class SumOfQuotientsBootcamp(CompiledBootcamp):
    # three sizes, small enough for a person to solve by hand
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS = {"easy": {"top": 12}, "medium": {"top": 200}, "hard": {"top": 3000}}

    def __init__(self, seed: int | None = None, top: int = 12) -> None:
        super().__init__(seed=seed)
        self.top = top

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(1, max(1, min((10 ** 12), 1 + self.top)))
        return {'n': n}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        out: list[str] = []
        out.append(' '.join(p for p in [str(identity['n'])] if p != ''))
        return '\n'.join(out) + '\n'
