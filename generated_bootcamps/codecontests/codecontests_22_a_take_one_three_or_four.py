"""Bootcamp for Take One, Three or Four."""
from typing import Any

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Take One, Three or Four

There are n stones on a table. Alice and Bob play a game, taking turns, and Alice moves first. In one move a player removes exactly 1, 3 or 4 stones from the table; a player may not remove more stones than there are. The player who cannot make a move loses.

Both players play optimally. Find out who wins.

Input

The only line contains one integer n (1 ≤ n ≤ 10^18) — the number of stones.

Output

Print "Alice" if Alice wins, and "Bob" otherwise.

Examples

Input

2


Output

Bob


Input

5


Output

Alice


Note

In the first example Alice can only remove one stone, then Bob removes the last one and Alice cannot move.

In the second example Alice removes three stones and leaves two; as the first example shows, the player to move with two stones on the table loses.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
n = int(input())
print("Bob" if n % 7 in (0, 2) else "Alice")
"""


class TakeOneThreeOrFourBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    YES_NO_TASK = True  # the output is 'Alice' or 'Bob'
    # three sizes, small enough for a person to solve by hand
    LEVELS = {"easy": {"top": 36}, "medium": {"top": 360}, "hard": {"top": 3600}}

    def __init__(self, seed: int | None = None, top: int = 12) -> None:
        super().__init__(seed=seed)
        self.top = top

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(1, max(1, min((10 ** 18), 1 + self.top)))
        return {'n': n}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        out: list[str] = []
        out.append(' '.join(p for p in [str(identity['n'])] if p != ''))
        return '\n'.join(out) + '\n'
