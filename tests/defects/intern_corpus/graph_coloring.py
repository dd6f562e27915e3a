"""Audit fixture (issue 12, see MANIFEST.json): colour a graph with three colours (uses libs)."""

import random
import re

from bootcamp import Basebootcamp
from libs.graphs import planted_three_colorable


class GraphColoringbootcamp(Basebootcamp):
    def __init__(self, nodes=8):
        self.nodes = nodes

    def case_generator(self):
        return {"edges": planted_three_colorable(self.nodes, random.random)}

    @staticmethod
    def prompt_func(question_case):
        listed = ", ".join(f"{a}-{b}" for a, b in question_case["edges"])
        return (
            f"Colour the nodes of the graph with edges {listed} using colours 1, 2 and 3 so that "
            "neighbours differ. List the colour of node 0, 1, ... as [answer]c0 c1 ...[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return [int(x) for x in re.findall(r"\d", found[-1])] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        nodes = 1 + max(max(edge) for edge in identity["edges"])
        if len(solution) != nodes or set(solution) - {1, 2, 3}:
            return False
        return all(solution[a] != solution[b] for a, b in identity["edges"])
