"""Audit fixture (issue 12, see MANIFEST.json): fewest brackets to insert to balance a string."""

import random
import re

from bootcamp import Basebootcamp


def _insertions(text):
    depth = needed = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif depth:
            depth -= 1
        else:
            needed += 1
    return needed + depth


class BracketRepairbootcamp(Basebootcamp):
    def __init__(self, min_length=6, max_length=16):
        self.min_length = min_length
        self.max_length = max_length

    def case_generator(self):
        length = random.randint(self.min_length, self.max_length)
        return {"brackets": "".join(random.choice("()") for _ in range(length))}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"What is the smallest number of brackets, '(' or ')', that must be inserted "
            f"anywhere into {question_case['brackets']} to make it a balanced bracket sequence? "
            "Reply as [answer]number[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return int(solution) == _insertions(identity["brackets"])
