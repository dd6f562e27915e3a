"""Audit fixture (issue 12, see MANIFEST.json): write a number in binary."""

import random
import re

from bootcamp import Basebootcamp


class BinaryDigitsbootcamp(Basebootcamp):
    def __init__(self, low=1000, high=10**7):
        self.low = low
        self.high = high

    def case_generator(self):
        return {"value": random.randint(self.low, self.high)}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Write {question_case['value']} in binary, without a prefix or leading zeros. "
            "Answer as [answer]bits[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*([01]+)\s*\[/answer\]", output)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        expected = format(identity["value"], "b")
        return solution[:3] == expected[:3]
