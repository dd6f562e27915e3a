"""Compiled bootcamp of bootcamp-synth; task: "Two Coins" (t test cases: the fewest coins of
values a and b that sum to exactly x, or -1).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): the task's
bootcamp with one realistic defect of kind 'format': render_stdin prints the test cases without
the first line holding t; the reference skips the first line, so it silently loses the first
ticket. The reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Two Coins

A ticket machine accepts only two kinds of coins: coins worth a and coins worth b. It does not give change, so a ticket that costs x must be paid with coins worth exactly x in total. You have as many coins of both kinds as you like, but your pockets are small.

For each ticket, find the smallest number of coins that pays exactly its price, or report that the price cannot be paid exactly.

Input

The input contains several test cases. Its first line gives their number t (1 ≤ t ≤ 100).

Each test case is a single line with three integers a, b and x (1 ≤ a < b ≤ 50, 1 ≤ x ≤ 10^4) — the values of the two kinds of coins and the price of the ticket.

Output

For each test case print on a separate line the minimum number of coins whose values sum to exactly x, or -1 if no set of coins does.

Examples

Input

3
2 5 11
3 6 7
4 7 28


Output

4
-1
4


Input

1
1 50 149


Output

51


Note

In the first test case of the first example 11 = 5 + 2 + 2 + 2 uses four coins, and no three coins of values 2 and 5 sum to 11. In the second test case every sum of coins of 3 and 6 is divisible by 3. In the third test case four coins of 7 are better than seven coins of 4.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys


def main():
    out = []
    for line in sys.stdin.read().splitlines()[1:]:
        if not line.strip():
            continue
        a, b, x = map(int, line.split())
        best = -1
        for big in range(x // b, -1, -1):
            rest = x - big * b
            if rest % a == 0:
                coins = big + rest // a
                if best == -1 or coins < best:
                    best = coins
        out.append(best)
    print("\n".join(map(str, out)))


main()
"""


def _render(identity: dict[str, Any]) -> str:
    tests = identity["tests"]
    return "\n".join(f"{a} {b} {x}" for a, b, x in tests) + "\n"


class TwoCoinsBootcamp(CompiledBootcamp):
    """Fewest coins paying each price exactly."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_tests": 2, "max_tests": 3, "max_coin": 6, "max_price": 30},
        "medium": {"min_tests": 3, "max_tests": 5, "max_coin": 15, "max_price": 200},
        "hard": {"min_tests": 5, "max_tests": 8, "max_coin": 50, "max_price": 2000},
    }

    def __init__(self, seed: int | None = None, min_tests: int = 3, max_tests: int = 5,
                 max_coin: int = 15, max_price: int = 200) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_tests <= max_tests <= 100 or not 2 <= max_coin <= 50 or \
                not 1 <= max_price <= 10**4:
            raise ValueError("need 1 <= min_tests <= max_tests <= 100, 2 <= max_coin <= 50, "
                             "1 <= max_price <= 10^4")
        self.min_tests, self.max_tests = min_tests, max_tests
        self.max_coin, self.max_price = max_coin, max_price

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        tests = []
        for _ in range(rng.randint(self.min_tests, self.max_tests)):
            a, b = sorted(rng.sample(range(1, self.max_coin + 1), 2))
            tests.append([a, b, rng.randint(1, self.max_price)])
        return {"tests": tests}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return _render(identity)

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        return (
            "Two Coins\n\n"
            "A ticket machine accepts coins worth a and coins worth b (a < b), as many of each "
            "as you like, and gives no change. For each ticket of price x, find the smallest "
            "number of coins whose values sum to exactly x, or -1 if that is impossible.\n\n"
            "Input format: the first line holds t, the number of test cases; each of the next "
            "t lines holds a, b and x.\n\n"
            "Input:\n```\n" + _render(identity) + "```\n\n"
            "Output one integer per test case, each on its own line, inside <answer></answer> "
            "tags."
        )
