"""Compiled bootcamp: Lantern Span (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Lantern Span

Along the quay stand n lanterns, the i-th of height h_i. The harbour master wants to know how much taller the tallest lantern is than the shortest one.

Input

The first line contains one integer n (1 ≤ n ≤ 40) — the number of lanterns.

The second line contains n integers h_1, h_2, ..., h_n (1 ≤ h_i ≤ 10^9) — their heights.

Output

Print the difference between the largest and the smallest height.

Examples

Input

3
4 9 2


Output

7


Input

1
5


Output

0
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    h = [int(x) for x in data[1:n + 1]]
    print(max(h) - min(h) if h else 0)


main()
"""


class LanternSpanBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5, "max_h": 20},
        "medium": {"max_n": 15, "max_h": 1000},
        "hard": {"max_n": 60, "max_h": 10**9},
    }

    def __init__(self, seed: int | None = None, max_n: int = 15, max_h: int = 1000) -> None:
        super().__init__(seed=seed)
        self.max_n, self.max_h = max_n, max_h

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(2, self.max_n)
        return {"h": [rng.randint(1, self.max_h) for _ in range(n)]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        h = identity["h"]
        return f"{len(h)}\n{' '.join(map(str, h))}\n"
