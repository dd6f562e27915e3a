"""Compiled bootcamp; task: "Road Repairs" (components of a simple undirected graph).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (guarantee, one mistake
in the generator): the edge sampler drops repeated pairs but not x == y, so roads from a village
to itself appear although the graph is stated to have no self-loops.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Road Repairs

After the spring flood only m roads of the province are still passable. Every road is two-way and connects two different villages; the province has n villages in total.

The governor wants to build new roads so that it becomes possible to travel between any two villages. Find the smallest number of new roads needed. The governor would also like to know how many villages the largest group of villages that can already reach each other contains.

Input

The first line contains two integers n and m (1 ≤ n ≤ 2·10^5, 0 ≤ m ≤ 2·10^5) — the number of villages and the number of passable roads.

Each of the next m lines describes an edge: two integers x and y (1 ≤ x, y ≤ n) meaning that a passable road connects villages x and y. The graph contains no self-loops or multiple edges.

Output

Print two integers: the minimum number of new roads, and the number of villages in the largest group of villages that are mutually reachable today.

Examples

Input

5 3
1 2
3 2
4 5


Output

1 3


Input

4 0


Output

3 1


Input

3 3
1 2
2 3
3 1


Output

0 3


Note

In the first example one new road, for instance between villages 3 and 4, connects the whole province. Villages 1, 2 and 3 already form a group of three.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, m = int(data[0]), int(data[1])
    parent = list(range(n + 1))
    size = [1] * (n + 1)

    def find(x):
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    groups = n
    pos = 2
    for _ in range(m):
        a, b = find(int(data[pos])), find(int(data[pos + 1]))
        pos += 2
        if a != b:
            if size[a] < size[b]:
                a, b = b, a
            parent[b] = a
            size[a] += size[b]
            groups -= 1
    largest = max(size[find(v)] for v in range(1, n + 1))
    print(groups - 1, largest)


main()
"""


class RoadRepairsBootcamp(CompiledBootcamp):
    """New roads needed to connect a graph, and its largest component."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_n": 3, "max_n": 6, "max_m": 8},
        "medium": {"min_n": 6, "max_n": 12, "max_m": 14},
        "hard": {"min_n": 12, "max_n": 24, "max_m": 30},
    }

    def __init__(self, seed: int | None = None, min_n: int = 6, max_n: int = 12,
                 max_m: int = 14) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n <= 200 or not 0 <= max_m <= 1000:
            raise ValueError("need 1 <= min_n <= max_n <= 200 and 0 <= max_m <= 1000")
        self.min_n, self.max_n, self.max_m = min_n, max_n, max_m

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_n, self.max_n)
        m = rng.randint(0, min(self.max_m, n * (n - 1) // 2))
        seen: set[tuple[int, int]] = set()
        edges = []
        while len(edges) < m:
            x = rng.randint(1, n)
            y = rng.randint(1, n)
            key = (min(x, y), max(x, y))
            if key in seen:
                continue
            seen.add(key)
            edges.append([x, y])
        return {"n": n, "edges": edges}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [f"{identity['n']} {len(identity['edges'])}"]
        lines += [f"{x} {y}" for x, y in identity["edges"]]
        return "\n".join(lines) + "\n"
