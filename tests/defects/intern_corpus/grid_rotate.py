"""Audit fixture (issue 12, see MANIFEST.json): rotate a grid of letters a quarter turn."""

import random
import re
import string

from .base import Basebootcamp


class GridRotatebootcamp(Basebootcamp):
    def __init__(self, min_side=2, max_side=4):
        self.min_side = min_side
        self.max_side = max_side

    def case_generator(self):
        h = random.randint(self.min_side, self.max_side)
        w = random.randint(self.min_side, self.max_side)
        return {"grid": ["".join(random.choice(string.ascii_lowercase) for _ in range(w))
                         for _ in range(h)]}

    @staticmethod
    def prompt_func(question_case):
        picture = "\n".join(question_case["grid"])
        return (
            "Rotate this grid of letters 90 degrees clockwise:\n"
            f"{picture}\n"
            "Write the rows of the rotated grid from top to bottom, separated by '/', between "
            "[answer] and [/answer] (a grid with rows 'ab' and 'cd' becomes 'ca/db')."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        grid = identity["grid"]
        rotated = ["".join(row[c] for row in reversed(grid)) for c in range(len(grid[0]))]
        return solution.replace(" ", "").lower() == "/".join(rotated)
