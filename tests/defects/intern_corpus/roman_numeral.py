"""Audit fixture (issue 12, see MANIFEST.json): write a number in Roman numerals."""

import random
import re

from .base import Basebootcamp

VALUES = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def _roman(number):
    out = []
    for value, letters in VALUES:
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


class RomanNumeralbootcamp(Basebootcamp):
    def __init__(self, low=1, high=3999):
        self.low = low
        self.high = high

    def case_generator(self):
        return {"number": random.randint(self.low, self.high)}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Write {question_case['number']} in standard Roman numerals (subtractive forms such "
            "as IV, IX, XL, XC, CD and CM). Put the numeral between [answer] and [/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*([A-Za-z]+)\s*\[/answer\]", output)
        return found[-1].upper() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == _roman(identity["number"])
