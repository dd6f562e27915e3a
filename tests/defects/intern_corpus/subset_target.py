"""Audit fixture (issue 12, see MANIFEST.json): pick numbers from a list that add up to a target."""

import random
import re
from collections import Counter

from bootcamp import Basebootcamp


class SubsetTargetbootcamp(Basebootcamp):
    def __init__(self, min_count=6, max_count=10):
        self.min_count = min_count
        self.max_count = max_count

    def case_generator(self):
        numbers = random.sample(range(1, 80), random.randint(self.min_count, self.max_count))
        chosen = random.sample(numbers, random.randint(2, 4))
        return {"numbers": numbers, "target": sum(chosen)}

    @staticmethod
    def prompt_func(question_case):
        listed = " ".join(map(str, question_case["numbers"]))
        return (
            f"From the numbers {listed}, choose some (each at most once) whose sum is exactly "
            f"{question_case['target']}. List the chosen numbers separated by spaces between "
            "[answer] and [/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        picked = [int(x) for x in solution.replace(",", " ").split()]
        if not picked or Counter(picked) - Counter(identity["numbers"]):
            return False
        return sum(picked) == identity["target"]
