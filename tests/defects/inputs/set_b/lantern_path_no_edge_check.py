"""Compiled bootcamp of bootcamp-synth; task: "Lantern Route" (a shortest route from square 1
to square n in an undirected graph; any shortest route is accepted).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): the task's
bootcamp with one realistic defect of kind 'check_output': check_output checks the length, the
end squares and that no square repeats, but not that consecutive squares of the route are
joined by a street. The reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Lantern Route

The old town has n squares joined by m two-way streets. Every evening the lamplighter leaves his house on square 1 and walks to the town hall on square n, lighting the lanterns of every street he walks along. Oil is expensive, so he wants to walk along as few streets as possible.

Find a route from square 1 to square n that uses the minimum possible number of streets.

Input

The first line contains two integers n and m (2 ≤ n ≤ 2·10^5, 1 ≤ m ≤ 2·10^5) — the number of squares and the number of streets.

Each of the next m lines contains two integers u_i and v_i (1 ≤ u_i, v_i ≤ n, u_i ≠ v_i) — the squares joined by the i-th street. No two streets join the same pair of squares.

It is guaranteed that square n can be reached from square 1.

Output

In the first line print k — the minimum number of streets on a route from square 1 to square n.

In the second line print k + 1 integers p_0, p_1, ..., p_k — the squares of the route in the order the lamplighter visits them: p_0 = 1, p_k = n, and squares p_{j-1} and p_j are joined by a street for every j from 1 to k. If there are several shortest routes, print any of them.

Examples

Input

5 6
1 2
2 5
1 3
3 4
4 5
2 3


Output

2
1 2 5


Input

4 3
4 3
2 3
1 2


Output

3
1 2 3 4


Note

In the first example the route 1 → 3 → 4 → 5 is also valid, but it uses 3 streets, while 1 → 2 → 5 uses only 2.

In the second example the streets form a single chain, so the only route is 1 → 2 → 3 → 4.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys
from collections import deque


def main():
    data = sys.stdin.read().split()
    n, m = int(data[0]), int(data[1])
    adj = [[] for _ in range(n + 1)]
    pos = 2
    for _ in range(m):
        u, v = int(data[pos]), int(data[pos + 1])
        pos += 2
        adj[u].append(v)
        adj[v].append(u)
    prev = [-1] * (n + 1)
    seen = [False] * (n + 1)
    seen[1] = True
    queue = deque([1])
    while queue:
        u = queue.popleft()
        for v in adj[u]:
            if not seen[v]:
                seen[v] = True
                prev[v] = u
                queue.append(v)
    if not seen[n]:
        print(-1)
        return
    route = [n]
    while route[-1] != 1:
        route.append(prev[route[-1]])
    route.reverse()
    print(len(route) - 1)
    print(" ".join(map(str, route)))


main()
"""

_NUMBER = re.compile(r"[0-9]{1,7}")


class LanternRouteBootcamp(CompiledBootcamp):
    """A shortest route from square 1 to square n."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_squares": 3, "max_squares": 6, "extra_streets": 2},
        "medium": {"min_squares": 7, "max_squares": 12, "extra_streets": 5},
        "hard": {"min_squares": 13, "max_squares": 20, "extra_streets": 10},
    }

    def __init__(self, seed: int | None = None, min_squares: int = 7, max_squares: int = 12,
                 extra_streets: int = 5) -> None:
        super().__init__(seed=seed)
        if not 3 <= min_squares <= max_squares <= 1000 or not 0 <= extra_streets <= 1000:
            raise ValueError("need 3 <= min_squares <= max_squares <= 1000, extra_streets >= 0")
        self.min_squares, self.max_squares = min_squares, max_squares
        self.extra_streets = extra_streets

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_squares, self.max_squares)
        # a random spanning tree keeps square n reachable from square 1
        order = list(range(1, n + 1))
        rng.shuffle(order)
        pairs = set()
        for i in range(1, n):
            u, v = order[i], order[rng.randrange(i)]
            pairs.add((min(u, v), max(u, v)))
        for _ in range(self.extra_streets):
            u, v = rng.sample(range(1, n + 1), 2)
            pairs.add((min(u, v), max(u, v)))
        edges = [list(p) for p in sorted(pairs)]
        rng.shuffle(edges)
        for edge in edges:
            if rng.randrange(2):
                edge.reverse()
        return {"n": n, "edges": edges}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        edges = identity["edges"]
        lines = [f"{identity['n']} {len(edges)}"] + [f"{u} {v}" for u, v in edges]
        return "\n".join(lines) + "\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        """The same number of streets as the reference; a route 1 -> n along streets."""
        want, got = expected.split(), answer.split()
        if want == ["-1"]:
            return got == ["-1"]
        if len(got) < 2 or not all(_NUMBER.fullmatch(t) for t in got):
            return False
        n = identity["n"]
        k, route = int(got[0]), [int(t) for t in got[1:]]
        if k != int(want[0]) or len(route) != k + 1:
            return False
        if route[0] != 1 or route[-1] != n or not all(1 <= p <= n for p in route):
            return False
        return len(set(route)) == len(route)  # a shortest route never repeats a square
