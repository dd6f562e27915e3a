"""Compiled bootcamp of bootcamp-synth; task: "Lamp Pairs" (count the pairs of lamps at most
K apart; the coordinates are pairwise distinct).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c), with ONE
realistic code-model mistake (prompt): prompt_func shows the coordinates sorted (the answer
does not depend on their order), while render_stdin prints them in the generated order. The
reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""Lamp Pairs

Problem Statement

Along a straight boulevard stand N street lamps. The i-th lamp is at coordinate A_i, and no two lamps share a coordinate.

An electrician can wire two lamps together when the distance between them is at most K. How many unordered pairs of lamps can be wired together?

Constraints

- 2 \leq N \leq 2 \times 10^5
- 0 \leq K \leq 10^9
- 1 \leq A_i \leq 10^9
- A_i \neq A_j (i \neq j)
- All values in input are integers.

Input

Input is given from Standard Input in the following format:

N K
A_1 A_2 \ldots A_N

Output

Print the number of pairs (i, j) such that 1 \leq i < j \leq N and |A_i - A_j| \leq K.

Sample Input 1

4 3
1 5 2 9

Sample Output 1

2

The pairs (1, 3) and (2, 3) qualify: their lamps are 1 and 3 apart.

Sample Input 2

3 0
7 100 1

Sample Output 2

0

Sample Input 3

5 1000000000
10 20 30 40 50

Sample Output 3

10
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def main():
    data = sys.stdin.read().split()
    n, k = int(data[0]), int(data[1])
    a = sorted(map(int, data[2:2 + n]))
    total = 0
    left = 0
    for right in range(len(a)):
        while a[right] - a[left] > k:
            left += 1
        total += right - left
    print(total)


main()
"""


def _stdin(identity: dict[str, Any]) -> str:
    a = identity["a"]
    return f"{len(a)} {identity['k']}\n{' '.join(map(str, a))}\n"


class LampPairsBootcamp(CompiledBootcamp):
    """Pairs of distinct coordinates within distance K."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_lamps": 2, "max_lamps": 6, "max_coord": 20},
        "medium": {"min_lamps": 6, "max_lamps": 12, "max_coord": 60},
        "hard": {"min_lamps": 12, "max_lamps": 25, "max_coord": 200},
    }

    def __init__(self, seed: int | None = None, min_lamps: int = 6, max_lamps: int = 12,
                 max_coord: int = 60) -> None:
        super().__init__(seed=seed)
        if not 2 <= min_lamps <= max_lamps <= max_coord <= 10**9:
            raise ValueError("need 2 <= min_lamps <= max_lamps <= max_coord <= 10^9")
        self.min_lamps, self.max_lamps, self.max_coord = min_lamps, max_lamps, max_coord

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_lamps, self.max_lamps)
        a = rng.sample(range(1, self.max_coord + 1), n)  # distinct coordinates
        k = rng.randint(0, self.max_coord // 3)
        return {"k": k, "a": a}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return _stdin(identity)

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        return (
            "Lamp Pairs\n\nN street lamps stand along a straight boulevard; lamp i is at "
            "coordinate A_i and no two lamps share a coordinate. Two lamps can be wired together "
            "when they are at most K apart. Count the pairs (i, j), i < j, with |A_i - A_j| <= K."
            "\n\nThe input gives N and K on the first line and A_1 ... A_N on the second:\n"
            "```\n" + _stdin({**identity, "a": sorted(identity["a"])}) + "```\n\n"
            "Put the count inside <answer></answer> tags, e.g. <answer>3</answer>."
        )
