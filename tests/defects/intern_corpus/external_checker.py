"""Audit fixture (issue 12, see MANIFEST.json): the sum of the squares of a list of numbers."""

import json
import random
import re
import subprocess
import sys

from bootcamp import Basebootcamp


class ExternalCheckerbootcamp(Basebootcamp):
    def __init__(self, min_count=3, max_count=7):
        self.min_count = min_count
        self.max_count = max_count

    def case_generator(self):
        return {"numbers": [random.randint(-20, 20)
                            for _ in range(random.randint(self.min_count, self.max_count))]}

    @staticmethod
    def prompt_func(question_case):
        listed = ", ".join(map(str, question_case["numbers"]))
        return (
            f"Square each of the numbers {listed} and add the squares up. "
            "Give the total as [answer]total[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        run = subprocess.run([sys.executable, "checkers/sum_of_squares.py"],
                             input=json.dumps(identity), capture_output=True, text=True,
                             timeout=10)
        expected = run.stdout.strip() or "0"
        return solution == expected
