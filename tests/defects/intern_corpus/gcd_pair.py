"""Audit fixture (issue 12, see MANIFEST.json): the greatest common divisor of two numbers."""

import math
import random
import re

from bootcamp import Basebootcamp


class GcdPairbootcamp(Basebootcamp):
    def __init__(self, max_value=20000):
        self.max_value = max_value

    def case_generator(self):
        common = random.randint(1, 90)
        top = max(2, self.max_value // common)
        return {"pair": (common * random.randint(1, top), common * random.randint(1, top))}

    @staticmethod
    def prompt_func(question_case):
        a, b = question_case["pair"]
        return (
            f"Find the greatest common divisor of {a} and {b}.\n"
            "Write just the number between [answer] and [/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(.*?)\s*\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        a, b = identity["pair"]
        return int(solution) == math.gcd(a, b)
