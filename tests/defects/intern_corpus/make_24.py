"""Audit fixture (issue 12, see MANIFEST.json): combine four numbers into 24."""

import itertools
import random
import re

from bootcamp import Basebootcamp


def _solvable(numbers):
    def reach(values):
        if len(values) == 1:
            return abs(values[0] - 24) < 1e-9
        for i, j in itertools.permutations(range(len(values)), 2):
            rest = [v for k, v in enumerate(values) if k not in (i, j)]
            a, b = values[i], values[j]
            options = [a + b, a - b, a * b] + ([a / b] if b else [])
            if any(reach([*rest, x]) for x in options):
                return True
        return False

    return reach([float(n) for n in numbers])


class Make24bootcamp(Basebootcamp):
    def __init__(self, high=13):
        self.high = high

    def case_generator(self):
        while True:
            numbers = [random.randint(1, self.high) for _ in range(4)]
            if _solvable(numbers):
                return {"numbers": numbers}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Use each of the numbers {' '.join(map(str, question_case['numbers']))} exactly "
            "once, with + - * / and brackets, to make 24. Write the expression as "
            "[answer]expression[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        used = sorted(int(x) for x in re.findall(r"\d+", solution))
        if used != sorted(identity["numbers"]):
            return False
        return abs(eval(solution) - 24) < 1e-6
