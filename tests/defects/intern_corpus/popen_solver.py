"""Audit fixture (issue 12, see MANIFEST.json): the number of ways to climb a staircase."""

import os
import random
import re

from bootcamp import Basebootcamp


class PopenSolverbootcamp(Basebootcamp):
    def __init__(self, low=5, high=40):
        self.low = low
        self.high = high

    def case_generator(self):
        steps = sorted(random.sample([1, 2, 3, 4], random.randint(2, 3)))
        return {"stairs": random.randint(self.low, self.high), "steps": steps}

    @staticmethod
    def prompt_func(question_case):
        steps = " or ".join(map(str, question_case["steps"]))
        return (
            f"A staircase has {question_case['stairs']} stairs. Each move climbs {steps} "
            "stairs. In how many different sequences of moves can one get exactly to the top? "
            "Answer as [answer]count[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        steps = ",".join(map(str, identity["steps"]))
        with os.popen(f"./bin/stairs_solver {identity['stairs']} {steps} 2>/dev/null") as pipe:
            expected = pipe.read().strip()
        return solution == expected
