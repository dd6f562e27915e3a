"""Bootcamp for Bulbs Without Long Glows."""
from typing import Any

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Bulbs Without Long Glows

A garland has n bulbs in a row; each bulb is either on or off. The garland is called calm if it never has k or more consecutive bulbs that are on. For example, with k = 2 the pattern on-off-on is calm, while off-on-on is not.

Count the calm garlands with n bulbs, that is, the number of strings of length n over {0, 1} that contain no k consecutive ones. Since n can be huge, print the answer modulo 10^9+7.

Input

The only line contains two integers n and k (1 ≤ n ≤ 10^18, 1 ≤ k ≤ 12).

Output

Print one integer — the number of calm garlands modulo 10^9+7.

Examples

Input

3 2


Output

5


Input

5 1


Output

1


Note

In the first example the calm garlands of 3 bulbs for k = 2 are 000, 001, 010, 100 and 101.

In the second example k = 1 means no bulb may be on, so only the garland with all bulbs off is calm.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys

MOD = 10**9 + 7


def mat_mult(a, b):
    size = len(a)
    res = [[0] * size for _ in range(size)]
    for i in range(size):
        row = a[i]
        out = res[i]
        for t in range(size):
            x = row[t]
            if x:
                col = b[t]
                for j in range(size):
                    out[j] += x * col[j]
        for j in range(size):
            out[j] %= MOD
    return res


def main():
    n, k = map(int, sys.stdin.read().split())
    # state j = number of trailing ones (0 <= j < k)
    step = [[0] * k for _ in range(k)]
    for j in range(k):
        step[j][0] = 1
        if j + 1 < k:
            step[j][j + 1] = 1
    result = [[int(i == j) for j in range(k)] for i in range(k)]
    power = step
    e = n
    while e:
        if e & 1:
            result = mat_mult(result, power)
        power = mat_mult(power, power)
        e >>= 1
    print(sum(result[0]) % MOD)


main()
"""


class BulbsWithoutLongGlowsBootcamp(CompiledBootcamp):
    # three sizes, small enough for a person to solve by hand
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS = {"easy": {"n": 10, "k": 4}, "medium": {"n": 20, "k": 8}, "hard": {"n": 40, "k": 12}}

    def __init__(self, seed: int | None = None, n: int = 5, k: int = 2) -> None:
        super().__init__(seed=seed)
        self.n, self.k = n, k

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        return {"n": rng.randint(1, self.n), "k": rng.randint(1, self.k)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return f"{identity['n']} {identity['k']}\n"
