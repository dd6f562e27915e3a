"""Audit fixture (issue 12, see MANIFEST.json): a star battle puzzle from the library's generator."""

import random
import re

from bootcamp import Basebootcamp
from internbootcamp.libs.starbattle.grid_tools import make_regions, valid_stars


class StarBattlebootcamp(Basebootcamp):
    def __init__(self, size=6):
        self.size = size

    def case_generator(self):
        return {"regions": make_regions(self.size, random.randint(0, 10**6))}

    @staticmethod
    def prompt_func(question_case):
        picture = "\n".join(question_case["regions"])
        return (
            "Place one star in every row, every column and every lettered region of this grid, "
            f"with no two stars touching, even diagonally:\n{picture}\n"
            "List the star column of each row, top to bottom, as [answer]c0 c1 ...[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return [int(x) for x in re.findall(r"\d+", found[-1])] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return valid_stars(identity["regions"], solution)
