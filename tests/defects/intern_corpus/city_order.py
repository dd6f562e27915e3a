"""Audit fixture (issue 12, see MANIFEST.json): rank towns by their distance from the capital."""

import random
import re

from bootcamp import Basebootcamp

TOWNS = ["Ashby", "Brill", "Corfe", "Dunmow", "Eyam", "Frome", "Goole", "Hythe", "Ilkley",
         "Jarrow", "Kendal", "Lewes", "Malton", "Nairn", "Oakham", "Penryn"]


class CityOrderbootcamp(Basebootcamp):
    def __init__(self, min_towns=4, max_towns=7):
        self.min_towns = min_towns
        self.max_towns = max_towns

    def case_generator(self):
        names = random.sample(TOWNS, random.randint(self.min_towns, self.max_towns))
        distances = random.sample(range(5, 400), len(names))
        return {"towns": [[name, km] for name, km in zip(names, distances, strict=True)]}

    @staticmethod
    def prompt_func(question_case):
        listed = "; ".join(f"{name} is {km} km away" for name, km in question_case["towns"])
        return (
            f"From the capital: {listed}. List the towns from the nearest to the farthest, "
            "separated by spaces, as [answer]Town1 Town2 ...[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].replace(",", " ").split() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        names = [name for name, _ in identity["towns"]]
        return len(solution) == len(names) and set(solution) == set(names)
