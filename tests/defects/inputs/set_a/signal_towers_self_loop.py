"""Compiled bootcamp; task: "Signal Towers" (the weighted diameter of a tree).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (guarantee, one mistake
in the generator): an off-by-one (randint(0, i) instead of randint(0, i - 1)) sometimes joins a
vertex to itself, so the 'tree' has a self-loop and two components.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Signal Towers

The kingdom has n signal towers. They are joined by n - 1 cables in such a way that a signal can travel from any tower to any other one. A signal needs w microseconds to pass along a cable of delay w, and the delay between two towers is the total delay of the cables on the unique route between them.

The royal engineer wants to know the worst case: the largest delay between two towers of the kingdom.

Input

In the first line you are given one integer n (2 ≤ n ≤ 10^5) — the number of towers. Towers are numbered from 1 to n.

Each of the next n − 1 lines describes a cable with three integers u_i, v_i and w_i (1 ≤ u_i, v_i ≤ n, 1 ≤ w_i ≤ 10^9) — the two towers it joins and its delay. The given cables form a tree.

Output

Print a single integer — the largest delay between two towers.

Examples

Input

4
1 2 3
2 3 4
2 4 10


Output

14


Input

5
1 2 1
1 3 1
1 4 1
4 5 1000000000


Output

1000000002


Note

In the first example the largest delay is between towers 3 and 4: 4 + 10 = 14 microseconds.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def farthest(start, n, adj):
    dist = [-1] * (n + 1)
    dist[start] = 0
    stack = [start]
    while stack:
        v = stack.pop()
        for u, w in adj[v]:
            if dist[u] < 0:
                dist[u] = dist[v] + w
                stack.append(u)
    best = start
    for v in range(1, n + 1):
        if dist[v] > dist[best]:
            best = v
    return best, dist[best]


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    adj = [[] for _ in range(n + 1)]
    pos = 1
    for _ in range(n - 1):
        u, v, w = int(data[pos]), int(data[pos + 1]), int(data[pos + 2])
        pos += 3
        adj[u].append((v, w))
        adj[v].append((u, w))
    a, _ = farthest(1, n, adj)
    _, d = farthest(a, n, adj)
    print(d)


main()
"""


class SignalTowersBootcamp(CompiledBootcamp):
    """The largest distance between two vertices of a weighted tree."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_n": 2, "max_n": 6, "max_w": 9},
        "medium": {"min_n": 6, "max_n": 12, "max_w": 1000},
        "hard": {"min_n": 12, "max_n": 25, "max_w": 10**9},
    }

    def __init__(self, seed: int | None = None, min_n: int = 6, max_n: int = 12,
                 max_w: int = 1000) -> None:
        super().__init__(seed=seed)
        if not 2 <= min_n <= max_n <= 1000 or not 1 <= max_w <= 10**9:
            raise ValueError("need 2 <= min_n <= max_n <= 1000 and 1 <= max_w <= 10^9")
        self.min_n, self.max_n, self.max_w = min_n, max_n, max_w

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_n, self.max_n)
        order = list(range(1, n + 1))
        rng.shuffle(order)
        edges = []
        for i in range(1, n):
            j = rng.randint(0, i)  # attach to a vertex already in the tree
            w = rng.randint(1, self.max_w)
            u, v = order[i], order[j]
            if rng.random() < 0.5:
                u, v = v, u
            edges.append([u, v, w])
        rng.shuffle(edges)
        return {"n": n, "edges": edges}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [str(identity["n"])]
        lines += [f"{u} {v} {w}" for u, v, w in identity["edges"]]
        return "\n".join(lines) + "\n"
