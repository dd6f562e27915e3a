"""Audit fixture (issue 12, see MANIFEST.json): the day of the year of a date."""

import json
import random
import re

from bootcamp import Basebootcamp

MONTHS = [("January", 31), ("February", 28), ("March", 31), ("April", 30), ("May", 31),
          ("June", 30), ("July", 31), ("August", 31), ("September", 30), ("October", 31),
          ("November", 30), ("December", 31)]


class DayOfYearbootcamp(Basebootcamp):
    def __init__(self, leap=False):
        self.leap = leap

    def case_generator(self):
        month = random.randrange(12)
        days = MONTHS[month][1] + (1 if self.leap and month == 1 else 0)
        day = random.randint(1, days)
        before = sum(d for _, d in MONTHS[:month]) + (1 if self.leap and month > 1 else 0)
        return {"month": MONTHS[month][0], "day": day, "leap_year": self.leap,
                "answer": before + day}

    @staticmethod
    def prompt_func(question_case):
        return (
            "Find the day number of a date within its year (1 January is day 1).\n"
            f"Puzzle data: {json.dumps(question_case)}\n"
            "Reply with the day number as [answer]N[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == identity["answer"]
