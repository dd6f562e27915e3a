"""Compiled bootcamp of bootcamp-synth; task: "Sum of Two" (t test cases: three pairwise
distinct indices i, j, k with a_i + a_j = a_k; any such triple is accepted).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): the task's
bootcamp with one realistic defect of kind 'check_output': check_output never checks that i, j
and k are pairwise distinct, so 'i i k' with 2*a_i = a_k is accepted. The reference program is
embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""Sum of Two

You are given an array of n positive integers. Find three pairwise distinct indices i, j and k such that a_i + a_j = a_k.

Input

The first line of the input contains an integer t ($1 \le t \le 1000$) — the number of test cases.

Each test case is given on two lines. The first of them contains one integer n ($3 \le n \le 500$), the second contains n integers $a_1, a_2, \dots, a_n$ ($1 \le a_i \le 10^6$). The sum of n over all test cases is at most 2000.

For every test case it is guaranteed that at least one valid triple of indices exists.

Output

For each test case print three pairwise distinct integers i, j and k ($1 \le i, j, k \le n$) such that $a_i + a_j = a_k$, on a line of their own. If there are several answers, print any of them.

Examples

Input

2
5
3 8 1 4 9
3
2 2 4


Output

1 3 4
1 2 3


Input

1
4
10 3 7 7


Output

2 3 1


Note

In the first test case of the first example 3 + 1 = 4, so the indices 1, 3 and 4 form a valid triple; 1 + 8 = 9 gives the answer 3 2 5 as well. In the second test case the two equal elements 2 and 2 sum to 4; their indices are different, so that is allowed.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys


def solve(a):
    n = len(a)
    where = {}
    for idx, x in enumerate(a):
        where.setdefault(x, []).append(idx)
    for i in range(n):
        for k in range(n):
            if k == i:
                continue
            need = a[k] - a[i]
            for j in where.get(need, ()):
                if j != i and j != k:
                    return "%d %d %d" % (i + 1, j + 1, k + 1)
    return "-1"


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        a = list(map(int, data[pos + 1:pos + 1 + n]))
        pos += 1 + n
        out.append(solve(a))
    print("\n".join(out))


main()
"""

_INDEX = re.compile(r"-?[0-9]{1,4}")


class SumOfTwoBootcamp(CompiledBootcamp):
    """One valid triple of indices per test case."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_tests": 1, "max_tests": 2, "max_length": 5, "max_value": 10},
        "medium": {"min_tests": 2, "max_tests": 3, "max_length": 8, "max_value": 30},
        "hard": {"min_tests": 3, "max_tests": 5, "max_length": 12, "max_value": 100},
    }

    def __init__(self, seed: int | None = None, min_tests: int = 2, max_tests: int = 3,
                 max_length: int = 8, max_value: int = 30) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_tests <= max_tests <= 100 or not 3 <= max_length <= 500 or \
                not 1 <= max_value <= 5 * 10**5:
            raise ValueError("need 1 <= min_tests <= max_tests <= 100, 3 <= max_length <= 500, "
                             "1 <= max_value <= 5*10^5")
        self.min_tests, self.max_tests = min_tests, max_tests
        self.max_length, self.max_value = max_length, max_value

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        tests = []
        for _ in range(rng.randint(self.min_tests, self.max_tests)):
            n = rng.randint(3, self.max_length)
            a = [rng.randint(1, self.max_value) for _ in range(n)]
            i, j, k = rng.sample(range(n), 3)  # plant the triple the statement promises
            a[k] = a[i] + a[j]
            tests.append(a)
        return {"tests": tests}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [str(len(identity["tests"]))]
        for a in identity["tests"]:
            lines += [str(len(a)), " ".join(map(str, a))]
        return "\n".join(lines) + "\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        """Per test case: -1 only where the reference found nothing, else a valid triple."""
        tests = identity["tests"]
        want = [line.split() for line in expected.splitlines() if line.strip()]
        got = [line.split() for line in answer.splitlines() if line.strip()]
        if len(got) != len(tests) or len(want) != len(tests):
            return False
        for a, exp, toks in zip(tests, want, got):
            if exp == ["-1"]:
                if toks != ["-1"]:
                    return False
                continue
            if len(toks) != 3 or not all(_INDEX.fullmatch(t) for t in toks):
                return False
            i, j, k = (int(t) for t in toks)
            if not all(1 <= x <= len(a) for x in (i, j, k)):
                return False
            if a[i - 1] + a[j - 1] != a[k - 1]:
                return False
        return True
