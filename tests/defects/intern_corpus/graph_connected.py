"""Audit fixture (issue 12, see MANIFEST.json): is a small undirected graph connected?"""

import random
import re

from bootcamp import Basebootcamp


def _connected(n, edges):
    reach, todo = {0}, [0]
    while todo:
        node = todo.pop()
        for a, b in edges:
            for u, v in ((a, b), (b, a)):
                if u == node and v not in reach:
                    reach.add(v)
                    todo.append(v)
    return len(reach) == n


class GraphConnectedbootcamp(Basebootcamp):
    def __init__(self, min_nodes=5, max_nodes=8):
        self.min_nodes = min_nodes
        self.max_nodes = max_nodes

    def case_generator(self):
        n = random.randint(self.min_nodes, self.max_nodes)
        pairs = [[a, b] for a in range(n) for b in range(a + 1, n)]
        edges = random.sample(pairs, random.randint(n - 2, n + 1))
        return {"n": n, "edges": edges, "connected": str(_connected(n, edges))}

    @staticmethod
    def prompt_func(question_case):
        listed = ", ".join(f"{a}-{b}" for a, b in question_case["edges"])
        return (
            f"A graph has the nodes 0 to {question_case['n'] - 1} and the undirected edges "
            f"{listed}. Can every node be reached from every other node? "
            "Answer [answer]yes[/answer] or [answer]no[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(yes|no)\s*\[/answer\]", output, re.IGNORECASE)
        return found[-1].lower() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        expected = "yes" if identity["connected"] else "no"
        return solution == expected
