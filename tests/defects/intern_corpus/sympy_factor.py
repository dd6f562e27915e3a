"""Audit fixture (issue 12, see MANIFEST.json): factor a quadratic polynomial (needs sympy)."""

import random
import re

import sympy
from bootcamp import Basebootcamp

X = sympy.Symbol("x")


class SympyFactorbootcamp(Basebootcamp):
    def __init__(self, bound=9):
        self.bound = bound

    def case_generator(self):
        r1, r2 = random.randint(-self.bound, self.bound), random.randint(-self.bound, self.bound)
        return {"poly": str(sympy.expand((X - r1) * (X - r2)))}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Factor {question_case['poly']} into linear factors with integer roots, written "
            "like (x - 2)*(x + 3), as [answer]factors[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        given = sympy.sympify(solution)
        want = sympy.sympify(identity["poly"])
        return sympy.expand(given - want) == 0 and given.is_Mul
