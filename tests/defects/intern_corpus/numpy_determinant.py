"""Audit fixture (issue 12, see MANIFEST.json): the determinant of a 3x3 matrix (needs numpy)."""

import re

import numpy as np
from bootcamp import Basebootcamp


class NumpyDeterminantbootcamp(Basebootcamp):
    def __init__(self, bound=6):
        self.bound = bound

    def case_generator(self):
        return {"matrix": np.random.randint(-self.bound, self.bound + 1, (3, 3)).tolist()}

    @staticmethod
    def prompt_func(question_case):
        rows = "; ".join(" ".join(map(str, row)) for row in question_case["matrix"])
        return (
            f"What is the determinant of the 3x3 matrix [{rows}] (rows separated by ';')? "
            "Answer as [answer]det[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(-?\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == round(float(np.linalg.det(np.array(identity["matrix"]))))
