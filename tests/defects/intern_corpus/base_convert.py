"""Audit fixture (issue 12, see MANIFEST.json): write a number in another base."""

import random
import re

from internbootcamp.bootcamp.base import Basebootcamp

DIGITS = "0123456789abcdef"


def _to_base(number, base):
    out = ""
    while number:
        number, rest = divmod(number, base)
        out = DIGITS[rest] + out
    return out or "0"


class BaseConvertbootcamp(Basebootcamp):
    def __init__(self, **params):
        self.low = params.get("low", 10)
        self.high = params.get("high", 10**6)

    def case_generator(self):
        return {"value": random.randint(self.low, self.high),
                "base": random.choice([2, 3, 5, 7, 8, 9, 12, 16])}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Convert the decimal number {question_case['value']} to base "
            f"{question_case['base']}. Use the digits 0-9 and then a-f for ten to fifteen, with "
            "no prefix. Answer in the form [answer]digits[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].strip().lower() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == _to_base(identity["value"], identity["base"])
