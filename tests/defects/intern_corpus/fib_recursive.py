"""Audit fixture (issue 12, see MANIFEST.json): a large Fibonacci number modulo m."""

import random
import re

from bootcamp import Basebootcamp


def _fib(n):
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)


class FibRecursivebootcamp(Basebootcamp):
    def __init__(self, low=37, high=39, max_modulus=100000):
        self.low = low
        self.high = high
        self.max_modulus = max_modulus

    def case_generator(self):
        return {"n": random.randint(self.low, self.high),
                "m": random.randint(1000, self.max_modulus)}

    @staticmethod
    def prompt_func(question_case):
        return (
            "With F(0) = 0, F(1) = 1 and F(k) = F(k-1) + F(k-2), what is "
            f"F({question_case['n']}) modulo {question_case['m']}? "
            "Write the remainder as [answer]r[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == _fib(identity["n"]) % identity["m"]
