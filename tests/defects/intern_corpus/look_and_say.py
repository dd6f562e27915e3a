"""Audit fixture (issue 12, see MANIFEST.json): the next look-and-say term of a digit string."""

import random
import re
from itertools import groupby

from bootcamp import Basebootcamp


class LookAndSaybootcamp(Basebootcamp):
    def __init__(self, min_length=4, max_length=10):
        self.min_length = min_length
        self.max_length = max_length

    def case_generator(self):
        length = random.randint(self.min_length, self.max_length)
        return {"digits": "".join(random.choice("123") for _ in range(length))}

    @staticmethod
    def prompt_func(question_case):
        return (
            "Describe a digit string by reading its blocks of equal digits aloud: '1121' is "
            "'two 1s, one 2, one 1', written 211211. Describe "
            f"{question_case['digits']} this way and write the result as [answer]digits[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        want = "".join(f"{len(list(run))}{digit}" for digit, run in groupby(identity["digits"]))
        return solution == want
