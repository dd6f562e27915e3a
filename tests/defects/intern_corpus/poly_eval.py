"""Audit fixture (issue 12, see MANIFEST.json): evaluate a polynomial at a point."""

import random
import re

from bootcamp import Basebootcamp


def _show(coefficients):
    terms = []
    for power in range(len(coefficients) - 1, -1, -1):
        c = coefficients[power]
        if c == 0:
            continue
        sign = "-" if c < 0 else "+"
        body = str(abs(c)) + ("" if power == 0 else "x" if power == 1 else f"x^{power}")
        terms.append((sign, body))
    if not terms:
        return "0"
    first_sign, first = terms[0]
    text = ("-" if first_sign == "-" else "") + first
    return text + "".join(f" {s} {b}" for s, b in terms[1:])


class PolyEvalbootcamp(Basebootcamp):
    def __init__(self, **params):
        self.max_degree = params.get("max_degree", 4)

    def case_generator(self):
        degree = random.randint(2, self.max_degree)
        lower = [random.randint(-6, 6) for _ in range(degree)]
        coefficients = (*lower, random.choice([-3, -2, -1, 1, 2, 3]))
        return {"coefficients": coefficients, "x": random.randint(-4, 4)}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Let p(x) = {_show(question_case['coefficients'])}. "
            f"Compute p({question_case['x']}) and write the result as [answer]value[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(-?\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        x = identity["x"]
        return solution == sum(c * x**k for k, c in enumerate(identity["coefficients"]))
