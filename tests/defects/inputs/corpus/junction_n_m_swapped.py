"""Compiled bootcamp: Busiest Junction (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""Busiest Junction

A town has n junctions and m two-way streets. The busiest junction is the one where the most streets meet. Print how many streets meet there.

Input

The first line of input contains two integers n and m ($2 \leq n \leq 50$, $1 \leq m \leq 100$) — the number of junctions and of streets.

Each of the following m lines describes a street with two integers u and v ($1 \leq u, v \leq n$). No street leads from a junction to itself, and no two streets join the same pair of junctions.

Output

Print the largest number of streets at one junction.

Examples

Input

3 2
1 2
3 2


Output

2


Input

4 3
1 2
3 4
1 3


Output

2
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys
from collections import Counter


def main():
    data = sys.stdin.read().split()
    vals = [int(x) for x in data[2:]]
    deg = Counter()
    for k in range(0, len(vals) - 1, 2):
        deg[vals[k]] += 1
        deg[vals[k + 1]] += 1
    print(max(deg.values()) if deg else 0)


main()
"""


class BusiestJunctionBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5}, "medium": {"max_n": 10}, "hard": {"max_n": 20},
    }

    def __init__(self, seed: int | None = None, max_n: int = 10) -> None:
        super().__init__(seed=seed)
        self.max_n = max_n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(3, self.max_n)
        pairs = [[u, v] for u in range(1, n + 1) for v in range(u + 1, n + 1)]
        m = rng.randint(1, min(len(pairs), 2 * n))
        return {"n": n, "edges": rng.sample(pairs, m)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        edges = identity["edges"]
        rows = [f"{len(edges)} {identity['n']}"] + [f"{u} {v}" for u, v in edges]
        return "\n".join(rows) + "\n"
