"""Compiled bootcamp; task: "Nearest Ratings" (closest pair of distinct ratings, t test cases).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (guarantee, one mistake
in the generator): ratings are drawn independently with randint, so a test case can repeat a
rating although the statement promises pairwise distinct ratings.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""Nearest Ratings

A chess club keeps the rating of every member. Before a training session the coach wants to pair up two members whose ratings are as close as possible. She would also like to know in how many ways such a closest pair can be chosen, so that she can rotate the pairs between sessions.

The club has several groups, and the question has to be answered for each group separately.

Input

The first line of input contains a single integer $t$ ($1 \le t \le 100$) — the number of test cases. The description of the test cases follows.

The first line of each test case contains a single integer $n$ ($2 \le n \le 100$) — the number of members in the group.

The second line of each test case contains $n$ integers $a_1, a_2, \ldots, a_n$ ($1 \le a_i \le 10^9$) — the ratings of the members. All ratings within one test case are pairwise distinct.

It is guaranteed that the sum of $n$ over all test cases does not exceed $120$.

Output

For each test case print two integers: the smallest value of $|a_i - a_j|$ over all pairs $1 \le i < j \le n$, and the number of pairs $i < j$ for which $|a_i - a_j|$ equals this smallest value.

Examples

Input

3
4
10 3 7 1
2
5 1000000000
5
8 6 4 2 10


Output

2 1
999999995 1
2 4


Input

1
6
100 1 50 51 2 99


Output

1 3


Note

In the first test case of the first example the closest ratings are 1 and 3. In the third test case every two neighbouring even numbers from 2 to 10 form a closest pair, which gives 4 pairs.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        pos += 1
        a = sorted(map(int, data[pos:pos + n]))
        pos += n
        best = None
        count = 0
        for i in range(n - 1):
            d = a[i + 1] - a[i]
            if best is None or d < best:
                best, count = d, 1
            elif d == best:
                count += 1
        out.append(f"{best} {count}")
    sys.stdout.write("\n".join(out) + "\n")


main()
"""

SUM_LIMIT = 120  # the statement: the sum of n over all test cases does not exceed 120


class NearestRatingsBootcamp(CompiledBootcamp):
    """Smallest difference of two ratings and the number of pairs achieving it."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_t": 3, "min_n": 2, "max_n": 6, "max_value": 20},
        "medium": {"max_t": 4, "min_n": 4, "max_n": 12, "max_value": 1000},
        "hard": {"max_t": 8, "min_n": 8, "max_n": 30, "max_value": 10**9},
    }

    def __init__(self, seed: int | None = None, max_t: int = 4, min_n: int = 4,
                 max_n: int = 12, max_value: int = 1000) -> None:
        super().__init__(seed=seed)
        if not 2 <= min_n <= max_n <= 100 or not 1 <= max_t <= 100:
            raise ValueError("need 2 <= min_n <= max_n <= 100 and 1 <= max_t <= 100")
        if not max_n <= max_value <= 10**9:
            raise ValueError("need max_n <= max_value <= 10^9 (the ratings are distinct)")
        self.max_t, self.min_n, self.max_n = max_t, min_n, max_n
        self.max_value = max_value

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        t = rng.randint(1, self.max_t)
        budget = SUM_LIMIT
        tests = []
        for k in range(t):
            left = t - k - 1  # every later test case still needs at least 2 members
            n = rng.randint(self.min_n, self.max_n)
            n = max(2, min(n, budget - 2 * left))
            budget -= n
            a = [rng.randint(1, self.max_value) for _ in range(n)]
            if n >= 3 and rng.random() < 0.3:  # several closest pairs
                step = rng.randint(1, max(1, self.max_value // (2 * n)))
                base = rng.randint(1, self.max_value - step * (n - 1))
                a = [base + step * i for i in range(n)]
                rng.shuffle(a)
            tests.append(a)
        return {"tests": tests}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [str(len(identity["tests"]))]
        for a in identity["tests"]:
            lines.append(str(len(a)))
            lines.append(" ".join(map(str, a)))
        return "\n".join(lines) + "\n"
