"""Compiled bootcamp; task: "Balanced Weights" (partition n <= 20 weights into two pans).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (bounds, one mistake in
the generator): the hard preset uses the usual 10^9 cap for the masses although the statement
caps them at 10^6.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Balanced Weights

A shopkeeper has n brass weights and an old pan balance. She wants to put every weight on one of the two pans so that the balance is as close to level as possible.

Find the smallest possible absolute difference between the total mass on the left pan and the total mass on the right pan.

Input

The first line contains one integer n — the number of weights. n is positive and does not exceed 20.

You are given the masses of the weights on the second line: n integers w_1, w_2, ..., w_n. All w_i are between 1 and 10^6 inclusive.

Output

Output a single integer — the minimum possible difference.

Examples

Input

4
3 1 4 2


Output

0


Input

3
10 3 5


Output

2


Input

1
1000000


Output

1000000


Note

In the first example the weights 3 and 2 go on one pan and 1 and 4 on the other: both pans hold 5.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys
from bisect import bisect_left


def subset_sums(ws):
    sums = [0]
    for w in ws:
        sums += [s + w for s in sums]
    return sums


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    w = list(map(int, data[1:1 + n]))
    total = sum(w)
    left = subset_sums(w[: n // 2])
    right = sorted(set(subset_sums(w[n // 2:])))
    best = total
    for s in left:
        # want s + r as close to total / 2 as possible
        want = total // 2 - s
        k = bisect_left(right, want)
        for j in (k - 1, k, k + 1):
            if 0 <= j < len(right):
                best = min(best, abs(total - 2 * (s + right[j])))
    print(best)


main()
"""


class BalancedWeightsBootcamp(CompiledBootcamp):
    """The smallest difference between the pans' totals."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_n": 1, "max_n": 5, "max_w": 20},
        "medium": {"min_n": 6, "max_n": 10, "max_w": 1000},
        "hard": {"min_n": 11, "max_n": 20, "max_w": 10**9},
    }

    def __init__(self, seed: int | None = None, min_n: int = 6, max_n: int = 10,
                 max_w: int = 1000) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n or not 1 <= max_w:
            raise ValueError("need 1 <= min_n <= max_n and 1 <= max_w")
        self.min_n, self.max_n, self.max_w = min_n, max_n, max_w

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_n, self.max_n)
        return {"w": [rng.randint(1, self.max_w) for _ in range(n)]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        w = identity["w"]
        return f"{len(w)}\n{' '.join(map(str, w))}\n"
