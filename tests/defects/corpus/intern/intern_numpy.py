"""InternBootcamp-style module for the audit tests that needs numpy (absent in the sandbox)."""

import numpy as np

from bootcamp import Basebootcamp


class Matrixbootcamp(Basebootcamp):
    def __init__(self, size=3):
        self.size = size

    def case_generator(self):
        return {"matrix": np.random.randint(0, 9, (self.size, self.size)).tolist()}

    @staticmethod
    def prompt_func(question_case):
        return f"Trace of {question_case['matrix']}? Reply as [answer]N[/answer]."

    @staticmethod
    def extract_output(output):
        return None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return False
