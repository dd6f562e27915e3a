"""Audit fixture (issue 12, see MANIFEST.json): the cheapest route in a road network."""

import heapq
import random
import re

from bootcamp import Basebootcamp


def _cheapest(n, roads):
    best = {0: 0}
    queue = [(0, 0)]
    while queue:
        cost, node = heapq.heappop(queue)
        if cost > best.get(node, cost):
            continue
        for a, b, w in roads:
            for u, v in ((a, b), (b, a)):
                if u == node and cost + w < best.get(v, 10**9):
                    best[v] = cost + w
                    heapq.heappush(queue, (cost + w, v))
    return best.get(n - 1, -1)


class WeightedPathbootcamp(Basebootcamp):
    def __init__(self, min_nodes=5, max_nodes=8):
        self.min_nodes = min_nodes
        self.max_nodes = max_nodes

    def case_generator(self):
        n = random.randint(self.min_nodes, self.max_nodes)
        roads = [[i, i + 1, random.randint(1, 20)] for i in range(n - 1)]
        for _ in range(n):
            a, b = sorted(random.sample(range(n), 2))
            roads.append([a, b, random.randint(1, 20)])
        return {"n": n, "roads": roads}

    @staticmethod
    def prompt_func(question_case):
        listed = ", ".join(f"{a}-{b}" for a, b, _ in question_case["roads"])
        return (
            f"Towns 0 to {question_case['n'] - 1} are joined by two-way roads, each with its own "
            f"toll: {listed}. What is the smallest total toll to travel from town 0 to town "
            f"{question_case['n'] - 1}? Reply as [answer]toll[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == _cheapest(identity["n"], identity["roads"])
