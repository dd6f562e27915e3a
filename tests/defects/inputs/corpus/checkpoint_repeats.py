"""Compiled bootcamp: Checkpoint Gap (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Checkpoint Gap

Checkpoints stand along a straight road at the given distances from the start. A runner wants to know the longest stretch between two consecutive checkpoints.

Input

The input consists of two lines. The first holds the number of checkpoints k; k does not exceed 60 and is at least 2.

The second line holds k integers x_1 < x_2 < ... < x_k, the positions of the checkpoints (1 ≤ x_i ≤ 10^9).

Output

Print the largest difference between neighbouring positions.

Examples

Input

3
2 5 11


Output

6


Input

2
1 1000000000


Output

999999999
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def main():
    data = sys.stdin.read().split()
    k = int(data[0])
    x = [int(v) for v in data[1:k + 1]]
    print(max(x[i + 1] - x[i] for i in range(len(x) - 1)))


main()
"""


class CheckpointGapBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_k": 5, "max_x": 50},
        "medium": {"max_k": 15, "max_x": 5000},
        "hard": {"max_k": 40, "max_x": 10**9},
    }

    def __init__(self, seed: int | None = None, max_k: int = 15, max_x: int = 5000) -> None:
        super().__init__(seed=seed)
        self.max_k, self.max_x = max_k, max_x

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        k = rng.randint(2, self.max_k)
        return {"x": sorted(rng.randint(1, self.max_x // 4 + 1) for _ in range(k))}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        x = identity["x"]
        return f"{len(x)}\n{' '.join(map(str, x))}\n"
