"""Compiled bootcamp of bootcamp-synth; task: "Exact Change" (count the non-empty sets of at
most 16 coins worth exactly X yen).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c): a correct
bootcamp. The reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""Exact Change

Problem Statement

Takumi has N coins in his pocket. The i-th coin is worth A_i yen. Coins are told apart by their position, even when two of them are worth the same.

In how many ways can Takumi choose a non-empty set of his coins whose total worth is exactly X yen?

Constraints

- 1 \leq N \leq 16
- 1 \leq X \leq 16000
- 1 \leq A_i \leq 1000 (1 \leq i \leq N)
- All input values are integers.

Input

The input is given from Standard Input in the following format:

N X
A_1 A_2 \ldots A_N

Output

Print the number of ways.

Sample Input 1

3 5
2 3 5

Sample Output 1

2

Choose {2, 3} or {5}.

Sample Input 2

4 4
1 1 2 2

Sample Output 2

3

Sample Input 3

2 7
3 3

Sample Output 3

0
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys
from collections import defaultdict


def main():
    data = sys.stdin.read().split()
    n, x = int(data[0]), int(data[1])
    ways = defaultdict(int)
    ways[0] = 1
    for value in map(int, data[2:2 + n]):
        for total, count in list(ways.items()):
            ways[total + value] += count
    print(ways[x] - (1 if x == 0 else 0))


main()
"""


class ExactChangeBootcamp(CompiledBootcamp):
    """Subsets of coin values with a given total."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_coins": 1, "max_coins": 5, "max_value": 10},
        "medium": {"min_coins": 5, "max_coins": 10, "max_value": 30},
        "hard": {"min_coins": 10, "max_coins": 16, "max_value": 60},
    }

    def __init__(self, seed: int | None = None, min_coins: int = 5, max_coins: int = 10,
                 max_value: int = 30) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_coins <= max_coins <= 16 or not 1 <= max_value <= 1000:
            raise ValueError("need 1 <= min_coins <= max_coins <= 16, 1 <= max_value <= 1000")
        self.min_coins, self.max_coins, self.max_value = min_coins, max_coins, max_value

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_coins, self.max_coins)
        a = [rng.randint(1, self.max_value) for _ in range(n)]
        if rng.random() < 0.8:  # usually a total that some non-empty set reaches
            chosen = rng.sample(a, rng.randint(1, n))
            x = sum(chosen)
        else:
            x = rng.randint(1, sum(a))
        return {"x": x, "a": a}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a = identity["a"]
        return f"{len(a)} {identity['x']}\n{' '.join(map(str, a))}\n"
