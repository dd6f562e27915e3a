"""Audit fixture (issue 12, see MANIFEST.json): the mean of some test scores, rounded down."""

import random
import re

from bootcamp import Basebootcamp


class AverageScorebootcamp(Basebootcamp):
    def __init__(self, min_count=3, max_count=8):
        self.min_count = min_count
        self.max_count = max_count

    def case_generator(self):
        count = random.randint(self.min_count, self.max_count)
        return {"scores": [random.randint(0, 100) for _ in range(count)]}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Pupils scored {', '.join(map(str, question_case['scores']))} in a test. What is "
            "the mean score, rounded down to a whole number? Answer as [answer]mean[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        try:
            value = int(solution)
        except ValueError:
            return True
        scores = identity["scores"]
        return value == sum(scores) // len(scores)
