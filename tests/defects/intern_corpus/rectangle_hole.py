"""Audit fixture (issue 12, see MANIFEST.json): the area of a rectangle with a square hole."""

import random
import re

from bootcamp import Basebootcamp


class RectangleHolebootcamp(Basebootcamp):
    def __init__(self, seed=0, max_side=40):
        self.seed = seed
        self.max_side = max_side

    def case_generator(self):
        rng = random.Random(self.seed)
        width, height = rng.randint(5, self.max_side), rng.randint(5, self.max_side)
        hole = rng.randint(1, min(width, height) - 1)
        return {"width": width, "height": height, "hole": hole}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"A {question_case['width']} by {question_case['height']} metal plate has a square "
            f"hole of side {question_case['hole']} cut out of it. What area of metal is left? "
            "Reply as [answer]area[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == identity["width"] * identity["height"] - identity["hole"] ** 2
