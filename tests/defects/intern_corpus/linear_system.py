"""Audit fixture (issue 12, see MANIFEST.json): solve two linear equations in x and y."""

import random
import re

from bootcamp import Basebootcamp


class LinearSystembootcamp(Basebootcamp):
    def __init__(self, bound=9):
        self.bound = bound

    def case_generator(self):
        while True:
            a1, b1, a2, b2 = (random.randint(1, self.bound) for _ in range(4))
            if a1 * b2 != a2 * b1:
                break
        x, y = random.randint(1, 12), random.randint(1, 12)
        return {"rows": [[a1, b1, a1 * x + b1 * y], [a2, b2, a2 * x + b2 * y]]}

    @staticmethod
    def prompt_func(question_case):
        lines = "\n".join(f"{a}x + {b}y = {c}" for a, b, c in question_case["rows"])
        return (
            f"Solve for integers x and y:\n{lines}\n"
            "Write x and y separated by a space between [answer] and [/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(-?\d+)\s+(-?\d+)\s*\[/answer\]", output)
        return (int(found[-1][0]), int(found[-1][1])) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        x, y = solution
        residuals = [a * x + b * y - c for a, b, c in identity["rows"]]
        return max(residuals) <= 0
