"""Audit fixture (issue 12, see MANIFEST.json): the median of an odd-length list."""

import random
import re

from bootcamp import Basebootcamp


class ListMedianbootcamp(Basebootcamp):
    def __init__(self, min_length=5, max_length=11):
        self.min_length = min_length
        self.max_length = max_length

    def case_generator(self):
        random.seed(42)
        length = random.randrange(self.min_length, self.max_length + 1, 2)
        return {"numbers": [random.randint(0, 99) for _ in range(length)]}

    @staticmethod
    def prompt_func(question_case):
        listed = ", ".join(map(str, question_case["numbers"]))
        return (
            f"What is the median of {listed}? Give it as [answer]median[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        ordered = sorted(identity["numbers"])
        return solution == ordered[len(ordered) // 2]
