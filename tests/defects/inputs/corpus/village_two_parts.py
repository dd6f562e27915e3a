"""Compiled bootcamp: Village Tree (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Village Tree

A village has n houses joined by n - 1 footpaths so that one can walk from any house to any other. Find the largest number of footpaths on a walk from house 1 that never visits a house twice.

Input

The first line contains an integer n (2 ≤ n ≤ 2·10^5), the number of houses.

Then n - 1 lines follow, each containing two integers x and y (1 ≤ x, y ≤ n, x ≠ y): a footpath between houses x and y. It is guaranteed that the footpaths form a tree.

Output

Print one integer: the greatest distance from house 1 to another house.

Examples

Input

4
1 2
2 3
1 4


Output

2


Input

2
2 1


Output

1
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys
from collections import deque


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    adj = {}
    vals = [int(x) for x in data[1:]]
    for k in range(0, len(vals) - 1, 2):
        x, y = vals[k], vals[k + 1]
        adj.setdefault(x, []).append(y)
        adj.setdefault(y, []).append(x)
    dist = {1: 0}
    queue = deque([1])
    while queue:
        u = queue.popleft()
        for w in adj.get(u, []):
            if w not in dist:
                dist[w] = dist[u] + 1
                queue.append(w)
    print(max(dist.values()))


main()
"""


class VillageTreeBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5}, "medium": {"max_n": 12}, "hard": {"max_n": 30},
    }

    def __init__(self, seed: int | None = None, max_n: int = 12) -> None:
        super().__init__(seed=seed)
        self.max_n = max_n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(3, self.max_n)
        edges = []
        for v in range(2, n + 1):
            edges.append([rng.randint(1, v - 1), v] if v < n else [1, 2])
        rng.shuffle(edges)
        return {"n": n, "edges": edges}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        rows = [str(identity["n"])] + [f"{x} {y}" for x, y in identity["edges"]]
        return "\n".join(rows) + "\n"
