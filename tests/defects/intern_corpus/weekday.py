"""Audit fixture (issue 12, see MANIFEST.json): the weekday of a date some days after a Monday."""

import random
import re

from bootcamp import Basebootcamp

DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


class Weekdaybootcamp(Basebootcamp):
    def __init__(self, max_offset=1000):
        self.max_offset = max_offset

    def case_generator(self):
        return {"offset": random.randint(1, self.max_offset)}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Today is a Monday. Which day of the week will it be {question_case['offset']} "
            "days from now? Answer with the English name as [answer]day[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*([A-Za-z]+)\s*\[/answer\]", output)
        return found[-1].lower() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution in DAYS
