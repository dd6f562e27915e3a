"""Audit fixture (issue 12, see MANIFEST.json): sort a list of numbers in ascending order."""

import random
import re

from bootcamp import Basebootcamp


class SortNumbersbootcamp(Basebootcamp):
    def __init__(self, **params):
        self.min_length = params.get("min_length", 5)
        self.max_length = params.get("max_length", 9)

    def case_generator(self):
        return {"numbers": random.sample(range(1, 100), random.randint(self.min_length,
                                                                       self.max_length))}

    @staticmethod
    def prompt_func(question_case):
        listed = " ".join(map(str, question_case["numbers"]))
        return (
            f"Sort these numbers from smallest to largest: {listed}.\n"
            "Write them separated by spaces as [answer]n1 n2 ...[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return [int(x) for x in re.findall(r"-?\d+", found[-1])] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return sorted(solution) == sorted(identity["numbers"])
