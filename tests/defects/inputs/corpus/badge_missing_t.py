"""Compiled bootcamp: Badge Pairs (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""Badge Pairs

A club hands out badges with numbers on them. Two badges form a lucky pair when the sum of their numbers is divisible by 3. For each test, count the lucky pairs.

Input

The first line of the input holds a single integer $t$ ($1 \le t \le 50$) — the number of tests. Descriptions of the tests follow.

The first line of each test contains an integer $n$ ($2 \le n \le 100$).

The second line of each test contains $n$ integers $b_1, b_2, \ldots, b_n$ ($1 \le b_i \le 10^{6}$), the badge numbers. All badge numbers within one test are pairwise distinct.

It is guaranteed that the sum of $n$ over all tests does not exceed $120$.

Output

For each test print one line: the number of pairs $i < j$ with $b_i + b_j$ divisible by 3.

Example

Input

2
3
1 2 3
4
3 6 9 1


Output

1
3
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        b = [int(x) for x in data[pos + 1:pos + 1 + n]]
        pos += 1 + n
        cnt = [0, 0, 0]
        for x in b:
            cnt[x % 3] += 1
        out.append(cnt[0] * (cnt[0] - 1) // 2 + cnt[1] * cnt[2])
    print("\n".join(map(str, out)))


main()
"""


class BadgePairsBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"tests": 2, "max_n": 5, "max_b": 30},
        "medium": {"tests": 3, "max_n": 12, "max_b": 1000},
        "hard": {"tests": 4, "max_n": 30, "max_b": 10**6},
    }

    def __init__(self, seed: int | None = None, tests: int = 3, max_n: int = 12,
                 max_b: int = 1000) -> None:
        super().__init__(seed=seed)
        self.tests, self.max_n, self.max_b = tests, max_n, max_b

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        cases = []
        for _ in range(rng.randint(1, self.tests)):
            n = rng.randint(2, self.max_n)
            cases.append(rng.sample(range(1, self.max_b + 1), n))
        return {"tests": cases}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = []
        for b in identity["tests"]:
            lines += [str(len(b)), " ".join(map(str, b))]
        return "\n".join(lines) + "\n"
