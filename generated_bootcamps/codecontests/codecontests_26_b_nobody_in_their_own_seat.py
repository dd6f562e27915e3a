"""Bootcamp for 'Nobody in Their Own Seat': task codecontests/26-b-nobody-in-their-own-seat-07931bb6 (source codecontests; bootcamp-synth bundled sample (CodeContests schema))."""

from typing import Any

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Nobody in Their Own Seat

At a dinner there are n chairs numbered from 1 to n and n guests numbered from 1 to n; chair i carries the name card of guest i. The host, who likes a joke, wants to seat the guests so that no guest sits on the chair with their own name card.

A seating is a permutation p_1, p_2, ..., p_n of the numbers 1 to n: guest p_i sits on chair i. The host wants the seating with p_i ≠ i for every i that is lexicographically smallest. A sequence p is lexicographically smaller than a sequence q of the same length if at the first position where they differ p has the smaller number.

Find this seating, or report that there is no seating where nobody sits on their own chair.

Input

The only line contains one integer n (1 ≤ n ≤ 2·10^5) — the number of guests.

Output

If a seating with p_i ≠ i for every i exists, print the lexicographically smallest one: n integers p_1, p_2, ..., p_n separated by spaces. Otherwise print -1.

Examples

Input

5


Output

2 1 4 5 3


Input

1


Output

-1


Note

In the first example the seatings that start with 2 1 must seat guests 3, 4 and 5 on chairs 3, 4 and 5 without anybody on their own chair; the smallest way is 4 5 3.

In the second example the only guest has to sit on their own chair.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys


def main():
    n = int(sys.stdin.readline())
    if n == 1:
        print(-1)
        return
    p = list(range(1, n + 1))
    last = n if n % 2 == 0 else n - 3
    for i in range(0, last, 2):
        p[i], p[i + 1] = p[i + 1], p[i]
    if n % 2 == 1:
        p[n - 3], p[n - 2], p[n - 1] = n - 1, n, n - 2
    sys.stdout.write(" ".join(map(str, p)) + "\n")


main()
"""


class NobodyInTheirOwnSeatBootcamp(CompiledBootcamp):
    # three sizes, small enough for a person to solve by hand
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS = {"easy": {"top": 12}, "medium": {"top": 200}, "hard": {"top": 3000}}

    def __init__(self, seed: int | None = None, top: int = 12) -> None:
        super().__init__(seed=seed)
        self.top = top

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(1, max(1, min((2 * (10 ** 5)), 1 + self.top)))
        return {'n': n}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        out: list[str] = []
        out.append(' '.join(p for p in [str(identity['n'])] if p != ''))
        return '\n'.join(out) + '\n'
