"""Audit fixture (issue 12, see MANIFEST.json): the product of two 2x2 integer matrices."""

import random
import re

from bootcamp import Basebootcamp


def _product(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(2)) for j in range(2)] for i in range(2)]


class MatrixProductbootcamp(Basebootcamp):
    def __init__(self, **params):
        self.bound = params.get("bound", 9)

    def _matrix(self):
        return tuple(tuple(random.randint(-self.bound, self.bound) for _ in range(2))
                     for _ in range(2))

    def case_generator(self):
        return {"left": self._matrix(), "right": self._matrix()}

    @staticmethod
    def prompt_func(question_case):
        def show(m):
            return "[" + "; ".join(" ".join(str(v) for v in row) for row in m) + "]"

        return (
            f"Multiply the 2x2 matrices A = {show(question_case['left'])} and "
            f"B = {show(question_case['right'])} (rows separated by ';'). Give the four entries of "
            "A*B in row order, separated by spaces, between [answer] and [/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        numbers = [int(x) for x in re.findall(r"-?\d+", solution)]
        want = _product(identity["left"], identity["right"])
        return numbers == [v for row in want for v in row]
