"""Compiled bootcamp of bootcamp-synth; task: "Longest Trail" (the diameter of each of t
trees).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c): a correct
bootcamp. The reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""Longest Trail

The park service looks after several separate hiking networks. A network has $n$ shelters joined by $n-1$ two-way trails, and every shelter can be reached from every other one; in other words, each network is a tree.

The distance between two shelters is the number of trails on the unique simple path between them. For every network, find the largest distance between two of its shelters.

Input

The first line contains a single integer $t$ ($1 \le t \le 10^4$) — the number of test cases. The description of the test cases follows.

The first line of each test case contains a single integer $n$ ($2 \le n \le 2 \cdot 10^5$) — the number of shelters.

Each of the next $n-1$ lines contains two integers $u_i$ and $v_i$ ($1 \le u_i, v_i \le n$, $u_i \ne v_i$) — the shelters joined by the $i$-th trail.

It is guaranteed that the given trails form a tree.

It is guaranteed that the sum of $n$ over all test cases does not exceed $2 \cdot 10^5$.

Output

For each test case, output a single integer — the largest distance between two shelters of the network.

Example

Input

2
4
1 2
2 3
2 4
2
2 1

Output

2
1

Input

1
6
1 2
1 3
3 4
4 5
3 6

Output

4

Note

In the first network the shelters $3$ and $4$ are two trails apart (through shelter $2$).
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys
from collections import deque


def farthest(adj, start):
    dist = {start: 0}
    queue = deque([start])
    best = start
    while queue:
        u = queue.popleft()
        if dist[u] > dist[best]:
            best = u
        for v in adj[u]:
            if v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    return best, dist[best]


def main():
    data = sys.stdin.buffer.read().split()
    pos = 0
    t = int(data[pos])
    pos += 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        pos += 1
        adj = [[] for _ in range(n + 1)]
        for _ in range(n - 1):
            u, v = int(data[pos]), int(data[pos + 1])
            pos += 2
            adj[u].append(v)
            adj[v].append(u)
        end, _ = farthest(adj, 1)
        _, length = farthest(adj, end)
        out.append(str(length))
    print("\n".join(out))


main()
"""


class LongestTrailBootcamp(CompiledBootcamp):
    """Diameters of random labelled trees, several per input."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_tests": 2, "min_nodes": 2, "max_nodes": 5},
        "medium": {"max_tests": 3, "min_nodes": 4, "max_nodes": 10},
        "hard": {"max_tests": 4, "min_nodes": 8, "max_nodes": 18},
    }

    def __init__(self, seed: int | None = None, max_tests: int = 3, min_nodes: int = 4,
                 max_nodes: int = 10) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_tests <= 100 or not 2 <= min_nodes <= max_nodes <= 1000:
            raise ValueError("need 1 <= max_tests <= 100, 2 <= min_nodes <= max_nodes <= 1000")
        self.max_tests, self.min_nodes, self.max_nodes = max_tests, min_nodes, max_nodes

    def _tree(self, n: int) -> list[list[int]]:
        rng = self.rng
        label = list(range(1, n + 1))
        rng.shuffle(label)
        edges = []
        for i in range(1, n):
            j = rng.randrange(i)  # attach to an earlier vertex: a tree
            u, v = label[i], label[j]
            edges.append([u, v] if rng.random() < 0.5 else [v, u])
        rng.shuffle(edges)
        return edges

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        tests = []
        for _ in range(rng.randint(1, self.max_tests)):
            n = rng.randint(self.min_nodes, self.max_nodes)
            tests.append({"n": n, "edges": self._tree(n)})
        return {"tests": tests}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [str(len(identity["tests"]))]
        for test in identity["tests"]:
            lines.append(str(test["n"]))
            lines.extend(f"{u} {v}" for u, v in test["edges"])
        return "\n".join(lines) + "\n"
