"""Audit fixture (issue 12, see MANIFEST.json): the next term of a simple integer sequence."""

import random
import re

from bootcamp import Basebootcamp


def _term(case, k):
    a, b, c = case["a"], case["b"], case["c"]
    if case["kind"] == "arithmetic":
        return a + b * k
    if case["kind"] == "geometric":
        return a * b**k
    return a + b * k + c * k * k


class SequenceNextbootcamp(Basebootcamp):
    def __init__(self, shown=6):
        self.shown = shown

    def case_generator(self):
        kind = random.choice(["arithmetic", "geometric", "quadratic"])
        if kind == "arithmetic":
            a, b, c = random.randint(-30, 30), random.choice([-7, -5, -3, -2, 2, 3, 4, 6, 9]), 0
        elif kind == "geometric":
            a, b, c = random.randint(1, 9), random.choice([-3, -2, 2, 3, 4]), 0
        else:
            a, b, c = random.randint(-10, 10), random.randint(-5, 5), random.choice([-3, -2, -1, 1, 2, 3])
        return {"kind": kind, "a": a, "b": b, "c": c, "shown": self.shown}

    @staticmethod
    def prompt_func(question_case):
        terms = ", ".join(str(_term(question_case, k)) for k in range(question_case["shown"]))
        return (
            f"The sequence {terms}, ... is arithmetic, geometric, or has constant second "
            "differences. What is its next term? Reply with the integer inside [answer][/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(-?\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == _term(identity, identity["shown"])
