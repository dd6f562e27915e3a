"""Compiled bootcamp of bootcamp-synth; task: "Apples and Baskets" (for every basket limit,
count the apples that weigh at most the limit).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): the task's
bootcamp with one realistic defect of kind 'format': render_stdin prints m before n on the
first line, so the reference splits the numbers between the apples and the baskets at the wrong
place. The reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""Apples and Baskets

A farmer has picked n apples; the i-th apple weighs a_i grams. She also has m baskets, and the j-th basket breaks if something heavier than b_j grams is put into it.

For every basket she wants to know how many of her apples could be put into it on their own, that is, how many apples weigh at most b_j grams. Each basket is considered separately.

Input

The input consists of three lines. The first line holds two integers $n$ and $m$ ($1 \le n, m \le 10^{5}$) — the number of apples and the number of baskets.

The second line holds $n$ integers $a_1, a_2, \ldots, a_n$ ($1 \le a_i \le 10^{9}$) — the weights of the apples.

The third line holds $m$ integers $b_1, b_2, \ldots, b_m$ ($1 \le b_j \le 10^{9}$) — the limits of the baskets.

Output

Print $m$ integers separated by spaces: the $j$-th of them is the number of apples whose weight does not exceed $b_j$.

Examples

Input

4 3
150 90 210 90
100 300 80


Output

2 4 0


Input

1 2
5
5 4


Output

1 0


Note

In the first example the basket with limit 100 can hold either of the two apples of 90 grams, the basket with limit 300 any of the four apples, and the basket with limit 80 none of them.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys
from bisect import bisect_right


def main():
    data = sys.stdin.read().split()
    n, m = int(data[0]), int(data[1])
    a = sorted(map(int, data[2:2 + n]))
    b = list(map(int, data[2 + n:2 + n + m]))
    print(" ".join(str(bisect_right(a, x)) for x in b))


main()
"""


class ApplesAndBasketsBootcamp(CompiledBootcamp):
    """How many apples fit each basket."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_apples": 4, "max_baskets": 3, "max_weight": 20},
        "medium": {"max_apples": 8, "max_baskets": 6, "max_weight": 200},
        "hard": {"max_apples": 15, "max_baskets": 10, "max_weight": 1000},
    }

    def __init__(self, seed: int | None = None, max_apples: int = 8, max_baskets: int = 6,
                 max_weight: int = 200) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_apples <= 1000 or not 1 <= max_baskets <= 1000 or \
                not 2 <= max_weight <= 10**9:
            raise ValueError("need 1 <= max_apples, max_baskets <= 1000, 2 <= max_weight")
        self.max_apples, self.max_baskets = max_apples, max_baskets
        self.max_weight = max_weight

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        a = [rng.randint(1, self.max_weight) for _ in range(rng.randint(1, self.max_apples))]
        b = [rng.randint(1, self.max_weight) for _ in range(rng.randint(1, self.max_baskets))]
        return {"a": a, "b": b}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a, b = identity["a"], identity["b"]
        n, m = len(a), len(b)
        return f"{m} {n}\n{' '.join(map(str, a))}\n{' '.join(map(str, b))}\n"
