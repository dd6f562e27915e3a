"""Audit fixture (issue 12, see MANIFEST.json): twice the area of a lattice triangle."""

import random
import re

from bootcamp import Basebootcamp


class TriangleAreabootcamp(Basebootcamp):
    def __init__(self, span=20):
        self.span = span

    def case_generator(self):
        while True:
            pts = [[random.randint(-self.span, self.span) for _ in range(2)] for _ in range(3)]
            (x1, y1), (x2, y2), (x3, y3) = pts
            doubled = abs((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1))
            if doubled:
                return {"A": pts[0], "B": pts[1], "C": pts[2], "expected": doubled}

    @staticmethod
    def prompt_func(question_case):
        lines = "\n".join(f"{key}: {value}" for key, value in question_case.items())
        return (
            "A triangle has these corner points (x, y):\n"
            f"{lines}\n"
            "What is twice its area? Reply as [answer]N[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == identity["expected"]
