"""Compiled bootcamp; task: "Water Stations" (fill gaps between increasing positions).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (bounds, one mistake in
the generator): the first position is drawn from randint(-max_start, max_start), so positions
can be negative although 0 <= a_1.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Water Stations

A marathon route is a straight line. There are n checkpoints on it; the i-th checkpoint is a_i metres away from the start line. The organisers want to place additional water stations (at any points of the route, not necessarily at integer distances) so that the distance between any two consecutive points of interest — checkpoints or water stations — between the first and the last checkpoint is at most d metres.

Find the minimum number of water stations the organisers have to place.

Input

The first line holds two integers n and d (1 ≤ n ≤ 10^5, 1 ≤ d ≤ 10^9).

The next line holds n space-separated integers a_1, a_2, ..., a_n (0 ≤ a_1 < a_2 < ... < a_n ≤ 10^9) — the positions of the checkpoints.

Output

Print one integer — the minimum number of water stations.

Examples

Input

3 4
0 5 9


Output

1


Input

4 3
2 9 10 16


Output

3


Input

1 100
42


Output

0


Note

In the first example one station between the first two checkpoints, for instance at 3 metres, is enough: the gap from 5 to 9 is exactly 4 metres.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, d = int(data[0]), int(data[1])
    a = list(map(int, data[2:2 + n]))
    total = 0
    for i in range(n - 1):
        total += (a[i + 1] - a[i] - 1) // d
    print(total)


main()
"""


class WaterStationsBootcamp(CompiledBootcamp):
    """Fewest stations so that no gap between strictly increasing checkpoints exceeds d."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5, "max_start": 20, "max_gap": 6, "max_d": 4},
        "medium": {"max_n": 10, "max_start": 1000, "max_gap": 200, "max_d": 60},
        "hard": {"max_n": 20, "max_start": 900_000_000, "max_gap": 5_000_000,
                 "max_d": 2_000_000},
    }

    def __init__(self, seed: int | None = None, max_n: int = 10, max_start: int = 1000,
                 max_gap: int = 200, max_d: int = 60) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_n <= 1000 or not 1 <= max_d <= 10**9 or max_gap < 1 or max_start < 0:
            raise ValueError("need 1 <= max_n <= 1000, 1 <= max_d <= 10^9, max_gap >= 1")
        if max_start + max_n * max_gap > 10**9:
            raise ValueError("positions would pass 10^9")
        self.max_n, self.max_start, self.max_gap, self.max_d = max_n, max_start, max_gap, max_d

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(max(1, self.max_n // 2), self.max_n)
        d = rng.randint(1, self.max_d)
        x = rng.randint(-self.max_start, self.max_start)
        a = []
        for _ in range(n):
            a.append(x)
            x += rng.randint(1, self.max_gap)
        return {"d": d, "a": a}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a = identity["a"]
        return f"{len(a)} {identity['d']}\n{' '.join(map(str, a))}\n"
