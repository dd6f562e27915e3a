"""Bootcamp for 'Divisors Loyal to Their Digits': task codecontests/06-c-divisors-loyal-to-their-digits-73c81ce5 (source codecontests; bootcamp-synth bundled sample (CodeContests schema))."""

from typing import Any

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Divisors Loyal to Their Digits

Call a positive integer x loyal if x is divisible by the sum of its decimal digits. For example, 12 is loyal because 1 + 2 = 3 divides 12, while 13 is not loyal because 1 + 3 = 4 does not divide 13. Every integer from 1 to 9 is loyal.

Given a positive integer n, count the loyal divisors of n.

Input

The only line contains one integer n (1 ≤ n ≤ 10^12).

Output

Print one integer — the number of divisors of n (1 and n included) that are loyal.

Examples

Input

24


Output

8


Input

26


Output

2


Note

In the first example the divisors of 24 are 1, 2, 3, 4, 6, 8, 12 and 24. The digit sum of 24 is 6, which divides 24, and 12 is loyal as shown above, so all 8 divisors are loyal.

In the second example the divisors of 26 are 1, 2, 13 and 26; neither 13 nor 26 (digit sum 8) is loyal, so the answer is 2.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def loyal(x):
    return x % sum(map(int, str(x))) == 0


def main():
    n = int(sys.stdin.readline())
    count = 0
    i = 1
    while i * i <= n:
        if n % i == 0:
            j = n // i
            count += loyal(i)
            if j != i:
                count += loyal(j)
        i += 1
    print(count)


main()
"""


class DivisorsLoyalToTheirDigitsBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS = {"easy": {"n": 30}, "medium": {"n": 300}, "hard": {"n": 3000}}

    def __init__(self, seed: int | None = None, n: int = 10) -> None:
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        return {"n": rng.randint(1, self.n)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return f"{identity['n']}\n"
