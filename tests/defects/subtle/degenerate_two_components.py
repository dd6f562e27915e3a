"""Subtle-defect corpus of bootcamp-synth (issue 10): connected components of a random graph.

Task: how many connected components does the graph have?
Planted defect (degenerate): with about as many random edges as vertices the answer is 1 or
2 on ~97 % of cases, so a guess between two numbers scores like a solver, although the
question is not a declared yes/no task.
"""

import itertools

from synth.bootcamp import BaseBootcamp


class ComponentCountBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 6, "m": 5}, "medium": {"n": 7, "m": 7},
              "hard": {"n": 9, "m": 11}}

    def __init__(self, seed=None, n=8, m=9):
        super().__init__(seed=seed)
        if n < 3 or not 1 <= m <= n * (n - 1) // 2:
            raise ValueError("need n >= 3 and 1 <= m <= n(n-1)/2")
        self.n, self.m = n, m

    def case_generator(self):
        pairs = list(itertools.combinations(range(1, self.n + 1), 2))
        return {"n": self.n, "edges": sorted(list(e) for e in self.rng.sample(pairs, self.m))}

    @staticmethod
    def prompt_func(identity):
        edges = ", ".join(f"{a}-{b}" for a, b in identity["edges"])
        return (
            f"An undirected graph has vertices 1..{identity['n']} and edges {edges}. How many "
            "connected components does it have (an isolated vertex is a component of its own)? "
            "Give the number inside <answer></answer>, e.g. <answer>3</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        parent = list(range(identity["n"] + 1))

        def root(v):
            while parent[v] != v:
                parent[v] = parent[parent[v]]
                v = parent[v]
            return v

        for a, b in identity["edges"]:
            parent[root(a)] = root(b)
        return str(len({root(v) for v in range(1, identity["n"] + 1)}))

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 6 and text == cls.reference_answer(identity)
