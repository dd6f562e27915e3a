"""Compiled bootcamp of bootcamp-synth; task: "Relay Messages" (a shortest route from station
1 to station n in a connected simple graph; any shortest route is accepted).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c), with ONE
realistic code-model mistake (guarantee): the extra links draw their two ends independently
(randint twice), so a link can join a station to itself. The reference program is embedded by
``synth.compiled.assemble``; since several routes can be shortest, ``check_output`` checks the
route by the statement's rules.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""Relay Messages

There are $n$ relay stations, numbered from $1$ to $n$, and $m$ two-way links; the $i$-th link joins stations $a_i$ and $b_i$. A message moves along one link per second. Station $1$ has to deliver a message to station $n$ as fast as possible.

Find any fastest route.

Input

The first line contains two integers $n$ and $m$ ($2 \le n \le 2 \cdot 10^5$; $n - 1 \le m \le \min(2 \cdot 10^5, \frac{n(n-1)}{2})$) — the number of stations and the number of links.

The $i$-th of the next $m$ lines contains two integers $a_i$ and $b_i$ ($1 \le a_i, b_i \le n$; $a_i \ne b_i$) — the stations joined by the $i$-th link.

There are no multiple links: every unordered pair of stations is joined by at most one link. It is guaranteed that every station can be reached from station $1$.

Output

In the first line, print one integer $d$ — the smallest number of links a message needs to get from station $1$ to station $n$.

In the second line, print $d + 1$ integers $s_0, s_1, \dots, s_d$ ($s_0 = 1$, $s_d = n$): the stations in the order the message visits them; every two consecutive stations must be joined by a link. If there are several fastest routes, print any of them.

Examples

Input

4 4
1 2
2 4
1 3
3 4

Output

2
1 2 4

Input

5 5
1 2
2 3
3 4
4 5
1 3

Output

3
1 3 4 5

Note

In the first example the route $1, 3, 4$ is just as fast and would be accepted too.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys
from collections import deque


def main():
    data = sys.stdin.buffer.read().split()
    n, m = int(data[0]), int(data[1])
    adj = [[] for _ in range(n + 1)]
    pos = 2
    for _ in range(m):
        a, b = int(data[pos]), int(data[pos + 1])
        pos += 2
        adj[a].append(b)
        adj[b].append(a)
    parent = [0] * (n + 1)
    parent[1] = 1
    queue = deque([1])
    while queue:
        u = queue.popleft()
        for v in adj[u]:
            if not parent[v]:
                parent[v] = u
                queue.append(v)
    if not parent[n]:
        print(-1)
        return
    route = [n]
    while route[-1] != 1:
        route.append(parent[route[-1]])
    route.reverse()
    print(len(route) - 1)
    print(" ".join(map(str, route)))


main()
"""

_NUMBER = re.compile(r"-?[0-9]{1,7}")


class RelayMessagesBootcamp(CompiledBootcamp):
    """Shortest routes in random connected simple graphs."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_nodes": 3, "max_nodes": 6, "extra_edges": 2},
        "medium": {"min_nodes": 6, "max_nodes": 12, "extra_edges": 5},
        "hard": {"min_nodes": 12, "max_nodes": 22, "extra_edges": 10},
    }

    def __init__(self, seed: int | None = None, min_nodes: int = 6, max_nodes: int = 12,
                 extra_edges: int = 5) -> None:
        super().__init__(seed=seed)
        if not 3 <= min_nodes <= max_nodes <= 1000 or not 1 <= extra_edges <= 1000:
            raise ValueError("need 3 <= min_nodes <= max_nodes <= 1000, 1 <= extra_edges")
        self.min_nodes, self.max_nodes, self.extra_edges = min_nodes, max_nodes, extra_edges

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_nodes, self.max_nodes)
        order = list(range(1, n + 1))
        rng.shuffle(order)
        edges = set()
        for i in range(1, n):  # a random spanning tree keeps the graph connected
            u, v = order[i], order[rng.randrange(i)]
            edges.add((min(u, v), max(u, v)))
        limit = n * (n - 1) // 2
        target = min(limit, len(edges) + rng.randint(1, self.extra_edges))  # m >= n when n >= 3
        while len(edges) < target:
            u, v = rng.randint(1, n), rng.randint(1, n)
            edges.add((min(u, v), max(u, v)))
        listed = [[u, v] if rng.random() < 0.5 else [v, u] for u, v in sorted(edges)]
        rng.shuffle(listed)
        return {"n": n, "edges": listed}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        edges = identity["edges"]
        return "\n".join([f"{identity['n']} {len(edges)}"] +
                         [f"{a} {b}" for a, b in edges]) + "\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        """The first number is the reference's d; then d + 1 stations from 1 to n along links."""
        tokens = answer.split()
        want = expected.split()
        if not tokens or not all(_NUMBER.fullmatch(t) for t in tokens) or not want:
            return False
        if want == ["-1"]:
            return tokens == ["-1"]
        d = int(tokens[0])
        route = [int(t) for t in tokens[1:]]
        n = identity["n"]
        if d != int(want[0]) or len(route) != d + 1:
            return False
        if route[0] != 1 or route[-1] != n or not all(1 <= s <= n for s in route):
            return False
        links = {frozenset(e) for e in identity["edges"]}
        return all(frozenset((route[i], route[i + 1])) in links for i in range(d))
