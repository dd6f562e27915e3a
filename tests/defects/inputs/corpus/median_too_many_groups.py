"""Compiled bootcamp: Median Trip (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Median Trip

Several groups of hikers report the lengths of their trips. For each group, print the median trip, that is, the middle value after sorting (the number of trips is odd).

Input

The first line contains T — the number of groups (1 ≤ T ≤ 20). Each group is given on two lines: the first holds an odd integer n (1 ≤ n ≤ 99), the second holds n integers d_1, ..., d_n (1 ≤ d_i ≤ 10^4).

Output

For every group print its median on a separate line.

Examples

Input

2
3
5 1 3
1
8


Output

3
8
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        d = sorted(int(x) for x in data[pos + 1:pos + 1 + n])
        pos += 1 + n
        out.append(d[len(d) // 2])
    print("\n".join(map(str, out)))


main()
"""


class MedianTripBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"groups": 1, "max_half": 2, "max_d": 20},
        "medium": {"groups": 3, "max_half": 5, "max_d": 500},
        "hard": {"groups": 30, "max_half": 10, "max_d": 10**4},
    }

    def __init__(self, seed: int | None = None, groups: int = 3, max_half: int = 5,
                 max_d: int = 500) -> None:
        super().__init__(seed=seed)
        self.groups, self.max_half, self.max_d = groups, max_half, max_d

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        groups = []
        for _ in range(rng.randint(1, self.groups)):
            n = 2 * rng.randint(0, self.max_half) + 1
            groups.append([rng.randint(1, self.max_d) for _ in range(n)])
        return {"groups": groups}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        rows = [str(len(identity["groups"]))]
        for d in identity["groups"]:
            rows += [str(len(d)), " ".join(map(str, d))]
        return "\n".join(rows) + "\n"
