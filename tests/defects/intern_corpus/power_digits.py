"""Audit fixture (issue 12, see MANIFEST.json): the last digits of a huge power."""

import random
import re

from bootcamp import Basebootcamp


class PowerDigitsbootcamp(Basebootcamp):
    def __init__(self, low=5200, high=5600):
        self.low = low
        self.high = high

    def case_generator(self):
        base = random.choice([7, 11, 13])
        exponent = random.randint(self.low, self.high)
        return {"base": base, "exponent": exponent, "power": base**exponent}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"What are the last four digits of {question_case['base']} to the power "
            f"{question_case['exponent']}? Write them, keeping leading zeros, as "
            "[answer]dddd[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d{4})\s*\[/answer\]", output)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == f"{identity['power'] % 10000:04d}"
