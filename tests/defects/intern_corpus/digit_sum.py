"""Audit fixture (issue 12, see MANIFEST.json): the sum of the decimal digits of a number."""

import random
import re

from bootcamp import Basebootcamp


class DigitSumbootcamp(Basebootcamp):
    def __init__(self, **params):
        self.min_digits = params.get("min_digits", 4)
        self.max_digits = params.get("max_digits", 12)

    def case_generator(self):
        digits = random.randint(self.min_digits, self.max_digits)
        number = random.randint(10 ** (digits - 1), 10**digits - 1)
        return {"number": number, "digits": digits}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Add up the decimal digits of {question_case['number']}. Give only the total, "
            "between [answer] and [/answer], for example [answer]17[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return int(solution) == sum(int(d) for d in str(identity["number"]))
