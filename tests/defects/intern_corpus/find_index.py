"""Audit fixture (issue 12, see MANIFEST.json): the position of a value in a sorted list, or -1."""

import random
import re

from bootcamp import Basebootcamp


class FindIndexbootcamp(Basebootcamp):
    def __init__(self, min_length=6, max_length=14):
        self.min_length = min_length
        self.max_length = max_length

    def case_generator(self):
        values = sorted(random.sample(range(1, 200), random.randint(self.min_length, self.max_length)))
        found = random.random() < 0.7
        if found:
            wanted = random.choice(values)
        else:
            wanted = random.choice([v for v in range(1, 200) if v not in values])
        return {"values": values, "wanted": wanted, "found": found}

    @staticmethod
    def prompt_func(question_case):
        listed = ", ".join(map(str, question_case["values"]))
        return (
            f"The sorted list is [{listed}]. At which position (counting from 0) is "
            f"{question_case['wanted']}? If it is not in the list, answer -1. "
            "Reply as [answer]position[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(-?\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        values = identity["values"]
        if solution == -1:
            return not identity.get("present", False)
        return 0 <= solution < len(values) and values[solution] == identity["wanted"]
