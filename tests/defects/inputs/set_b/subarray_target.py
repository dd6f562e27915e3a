"""Compiled bootcamp of bootcamp-synth; task: "Exact Load" (a block of consecutive boxes that
weighs exactly s; any such block is accepted).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): a correct
bootcamp. The reference program is embedded by ``synth.compiled.assemble``; since several
blocks can weigh s, ``check_output`` checks the block by the statement's rules.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""Exact Load

A conveyor belt carries n boxes in a row; the i-th box weighs a_i kilograms. A crane can lift a block of consecutive boxes, and today it must lift exactly s kilograms — no more, no less.

Find a block of consecutive boxes whose total weight is exactly s.

Input

The input consists of two lines. The first line holds two integers n and s ($1 \le n \le 10^5$, $1 \le s \le 10^{9}$) — the number of boxes and the required weight.

The second line holds n integers $a_1, a_2, \ldots, a_n$ ($1 \le a_i \le 10^4$) — the weights of the boxes in the order they lie on the belt.

It is guaranteed that at least one block of consecutive boxes weighs exactly s kilograms.

Output

Print two integers l and r ($1 \le l \le r \le n$) such that $a_l + a_{l+1} + \ldots + a_r = s$. If there are several such blocks, print any of them.

Examples

Input

6 9
4 2 7 1 1 8


Output

2 3


Input

3 5
5 5 5


Output

1 1


Note

In the first example the blocks [2, 3] (2 + 7), [3, 5] (7 + 1 + 1) and [5, 6] (1 + 8) all weigh 9 kilograms; any of them is accepted. In the second example any single box is a correct answer.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def main():
    data = sys.stdin.read().split()
    n, s = int(data[0]), int(data[1])
    a = list(map(int, data[2:2 + n]))
    left = 0
    total = 0
    for right in range(n):
        total += a[right]
        while total > s and left <= right:
            total -= a[left]
            left += 1
        if total == s:
            print(left + 1, right + 1)
            return
    print(-1)


main()
"""

_POSITION = re.compile(r"[0-9]{1,6}")


class ExactLoadBootcamp(CompiledBootcamp):
    """Positions l <= r of a block of boxes with total weight s."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_boxes": 3, "max_boxes": 6, "max_weight": 9},
        "medium": {"min_boxes": 7, "max_boxes": 14, "max_weight": 30},
        "hard": {"min_boxes": 15, "max_boxes": 30, "max_weight": 100},
    }

    def __init__(self, seed: int | None = None, min_boxes: int = 7, max_boxes: int = 14,
                 max_weight: int = 30) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_boxes <= max_boxes <= 1000 or not 1 <= max_weight <= 10**4:
            raise ValueError("need 1 <= min_boxes <= max_boxes <= 1000, 1 <= max_weight <= 10^4")
        self.min_boxes, self.max_boxes, self.max_weight = min_boxes, max_boxes, max_weight

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_boxes, self.max_boxes)
        a = [rng.randint(1, self.max_weight) for _ in range(n)]
        l = rng.randrange(n)  # the statement promises a block of weight s: take one
        r = rng.randint(l, min(n - 1, l + 5))
        return {"a": a, "s": sum(a[l:r + 1])}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a = identity["a"]
        return f"{len(a)} {identity['s']}\n{' '.join(map(str, a))}\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        """-1 only when the reference found nothing; else 1 <= l <= r <= n of weight s."""
        tokens = answer.split()
        if expected.split() == ["-1"]:
            return tokens == ["-1"]
        if len(tokens) != 2 or not all(_POSITION.fullmatch(t) for t in tokens):
            return False
        a = identity["a"]
        l, r = int(tokens[0]), int(tokens[1])
        if not 1 <= l <= r <= len(a):
            return False
        return sum(a[l - 1:r]) == identity["s"]
