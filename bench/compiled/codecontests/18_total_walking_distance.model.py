"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "18_G. Total Walking Distance".

Provenance: record 18 of ``task_descriptions/codecontests/sample.jsonl``; the part of a compiled
bootcamp that the code model writes, written by hand for the suite benchmark. The task's
reference program and problem text are embedded by ``synth.compiled.assemble``; the answer key
is the program's output on ``render_stdin``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

MAX_N = 200000
#: above this n a case is stored as its shape and seed (a case's JSON stays small)
SEEDED_N = 1000


def _paths(rng: random.Random, n: int, shape: dict[str, Any]) -> list[list[int]]:
    """The n - 1 paths of a tree of the given shape, labels shuffled (house 1 placed as the
    shape says), each path written in a random direction, in random order."""
    kind = shape["kind"]
    parent = [-1] * n  # over positions 0..n-1; position 0 is the root of the construction
    for v in range(1, n):
        if kind == "path":
            parent[v] = v - 1
        elif kind == "star":
            parent[v] = 0
        elif kind == "caterpillar":  # a long spine with short legs
            parent[v] = v - 1 if v % 3 else max(0, v - rng.randint(1, 3))
        elif kind == "binary":
            parent[v] = (v - 1) // 2
        elif kind == "broom":  # a long handle, then a bushy end
            parent[v] = v - 1 if v < n * 2 // 3 else rng.randint(n * 2 // 3 - 1, v - 1)
        else:  # a random recursive tree, or a deep one (parents among the last few)
            parent[v] = rng.randrange(v) if kind == "random" else rng.randint(max(0, v - 5), v - 1)
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    where = shape["one_at"]  # house 1 at the construction's root, its far end, anywhere, or
    # "deep": where the farthest house is 0.55 n to 0.75 n paths away
    pos = _deep_position(rng, parent) if where == "deep" else \
        {"root": 0, "end": n - 1, "any": rng.randrange(n)}[where]
    one = labels.index(1)
    labels[one], labels[pos] = labels[pos], labels[one]
    edges = []
    for v in range(1, n):
        x, y = labels[parent[v]], labels[v]
        edges.append([x, y] if rng.random() < 0.5 else [y, x])
    rng.shuffle(edges)
    return edges


def _deep_position(rng: random.Random, parent: list[int]) -> int:
    """A position whose farthest house is 0.55 n to 0.75 n paths away (a walk from it goes
    past 10^5 steps at the limits), or any position when the tree has none."""
    n = len(parent)
    adj: list[list[int]] = [[] for _ in range(n)]
    for v in range(1, n):
        adj[v].append(parent[v])
        adj[parent[v]].append(v)

    def distances(src: int) -> list[int]:
        dist = [-1] * n
        dist[src] = 0
        queue = [src]
        for u in queue:
            for w in adj[u]:
                if dist[w] < 0:
                    dist[w] = dist[u] + 1
                    queue.append(w)
        return dist

    first = distances(0)
    a = first.index(max(first))  # one end of a longest walk
    from_a = distances(a)
    from_b = distances(from_a.index(max(from_a)))  # and from its other end
    fits = [v for v in range(n) if 0.55 * n <= max(from_a[v], from_b[v]) <= 0.75 * n]
    return rng.choice(fits) if fits else rng.randrange(n)


class TotalWalkingDistanceBootcamp(CompiledBootcamp):
    """For every vertex of a tree, the sum of its distances to all vertices."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 6},
        "medium": {"max_n": 12},
        "hard": {"max_n": 40},
    }
    # the statement's limits (n <= 2*10^5): for code test suites only, never in a prompt
    STRESS: ClassVar[dict[str, Any]] = {"min_n": MAX_N - 50, "max_n": MAX_N}

    def __init__(self, seed: int | None = None, max_n: int = 12, min_n: int = 1) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_n <= max_n <= MAX_N:
            raise ValueError(f"need 1 <= min_n <= max_n <= {MAX_N}")
        self.min_n, self.max_n = min_n, max_n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        large = self.min_n > SEEDED_N
        if self.min_n <= 2 and rng.random() < 0.1:
            n = rng.choice([1, 2])
        else:
            n = rng.randint(max(self.min_n, 3), max(self.max_n, 3))
        kinds = ["path", "caterpillar", "broom", "deep", "random", "star", "binary"]
        # at the limits: mostly long thin trees (sums past 2^31, depth past 10^5 from house 1)
        weights = [3, 2, 2, 1, 1, 1, 0] if large else [2, 2, 1, 1, 4, 1, 1]
        shape = {"kind": rng.choices(kinds, weights)[0],
                 # at the limits house 1 sits deep, not at a path's very end: there a correct
                 # recursive walk with a 64 MB thread stack runs out of the suite runner's
                 # 256 MB address space, which a fresh interpreter does not
                 "one_at": rng.choice(["deep", "deep", "deep", "any"] if large else
                                      ["root", "end", "any", "any"])}
        if large:
            return {"n": n, "shape": shape, "seed": rng.getrandbits(62)}
        return {"n": n, "paths": _paths(rng, n, shape)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        n, paths = identity["n"], identity.get("paths")
        if paths is None:  # a large case: its paths from its own seed
            paths = _paths(random.Random(identity["seed"]), n, identity["shape"])
        return f"{n}\n" + "".join(f"{x} {y}\n" for x, y in paths)
