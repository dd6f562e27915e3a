"""Subtle-defect corpus of bootcamp-synth (issue 10): two-colour a bipartite graph.

Task: colour every vertex A or B so that the two ends of every edge differ.
Planted defect (strict): the verifier compares with the reference colouring (vertex 1 is
always A), so swapping the colours -- equally correct -- is rejected.
"""

from collections import deque

from synth.bootcamp import BaseBootcamp


class TwoColoringBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 5, "m": 4}, "medium": {"n": 9, "m": 9},
              "hard": {"n": 16, "m": 18}}

    def __init__(self, seed=None, n=9, m=9):
        super().__init__(seed=seed)
        if n < 3 or m < 1:
            raise ValueError("need n >= 3 and m >= 1")
        self.n, self.m = n, m

    def case_generator(self):
        side = [self.rng.randint(0, 1) for _ in range(self.n)]
        side[0], side[1] = 0, 1
        pairs = [(a, b) for a in range(self.n) for b in range(a + 1, self.n) if side[a] != side[b]]
        edges = self.rng.sample(pairs, min(self.m, len(pairs)))
        return {"n": self.n, "edges": sorted([a + 1, b + 1] for a, b in edges)}

    @staticmethod
    def prompt_func(identity):
        edges = ", ".join(f"{a}-{b}" for a, b in identity["edges"])
        return (
            f"A graph has vertices 1..{identity['n']} and edges {edges}.\nColour every vertex "
            "A or B so that the two ends of every edge get different colours. Write the colours "
            "of vertices 1, 2, ..., n as one string inside <answer></answer>, e.g. "
            "<answer>ABBA</answer> for four vertices. Any valid colouring is accepted."
        )

    @classmethod
    def reference_answer(cls, identity):
        n = identity["n"]
        adj = {v: [] for v in range(1, n + 1)}
        for a, b in identity["edges"]:
            adj[a].append(b)
            adj[b].append(a)
        color = {}
        for root in range(1, n + 1):
            if root in color:
                continue
            color[root] = "A"
            queue = deque([root])
            while queue:
                u = queue.popleft()
                for v in adj[u]:
                    if v not in color:
                        color[v] = "B" if color[u] == "A" else "A"
                        queue.append(v)
        return "".join(color[v] for v in range(1, n + 1))

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip() == cls.reference_answer(identity)
