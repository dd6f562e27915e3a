"""Subtle-defect corpus of bootcamp-synth (issue 10): a shortest route between towns.

Task: a route with the fewest roads; among several, the first in alphabetical order when
the routes are compared town by town.
Planted defect (stateful): the reference's breadth-first search walks neighbours from sets
of town names, so which shortest route it finds follows PYTHONHASHSEED, not the alphabet;
the verifier compares with it.
"""

from collections import deque

from synth.bootcamp import BaseBootcamp

TOWNS = ("Arden", "Bree", "Corwen", "Dunmore", "Elgin", "Fenwick", "Garth", "Hollin", "Ilkley",
         "Jarrow", "Kendal", "Lydd", "Morpeth", "Nairn", "Oban", "Penrith")


class ShortestRouteBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 5, "m": 6}, "medium": {"n": 8, "m": 12},
              "hard": {"n": 14, "m": 24}}

    def __init__(self, seed=None, n=8, m=12):
        super().__init__(seed=seed)
        if not 3 <= n <= len(TOWNS) or m < n - 1:
            raise ValueError("need 3 <= n <= 16 towns and m >= n - 1 roads")
        self.n, self.m = n, m

    def case_generator(self):
        towns = self.rng.sample(TOWNS, self.n)
        roads = {tuple(sorted((towns[i], self.rng.choice(towns[:i])))) for i in range(1, self.n)}
        while len(roads) < self.m:
            roads.add(tuple(sorted(self.rng.sample(towns, 2))))
        a, b = self.rng.sample(towns, 2)
        return {"roads": sorted(list(r) for r in roads), "from": a, "to": b}

    @staticmethod
    def prompt_func(identity):
        roads = ", ".join(f"{a}-{b}" for a, b in identity["roads"])
        return (
            f"Two-way roads: {roads}.\nFind a route from {identity['from']} to {identity['to']} "
            "using as few roads as possible. If there are several, give the one that comes "
            "first alphabetically when routes are compared town by town. Write the towns of "
            "the route in order, separated by single spaces, inside <answer></answer>, e.g. "
            "<answer>Bree Elgin Oban</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        adj = {}
        for a, b in identity["roads"]:
            adj.setdefault(a, set()).add(b)
            adj.setdefault(b, set()).add(a)
        start, goal = identity["from"], identity["to"]
        parent, queue = {start: None}, deque([start])
        while queue:
            u = queue.popleft()
            for v in adj[u]:
                if v not in parent:
                    parent[v] = u
                    queue.append(v)
        route = [goal]
        while route[-1] != start:
            route.append(parent[route[-1]])
        return " ".join(reversed(route))

    @classmethod
    def _verify_correction(cls, solution, identity):
        return " ".join(solution.split()) == cls.reference_answer(identity)
