"""Audit fixture (issue 12, see MANIFEST.json): a Fibonacci number modulo m."""

import random
import re

from bootcamp import Basebootcamp


def _fib_mod(n, m):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, (a + b) % m
    return a


class FibModbootcamp(Basebootcamp):
    def __init__(self, max_index=500, max_modulus=1000):
        self.max_index = max_index
        self.max_modulus = max_modulus

    def case_generator(self):
        return {"n": random.randint(10, self.max_index), "m": random.randint(10, self.max_modulus)}

    @staticmethod
    def prompt_func(question_case):
        n, m = question_case["n"], question_case["m"]
        return (
            "The Fibonacci numbers start F(0) = 0, F(1) = 1 and continue with "
            f"F(k) = F(k-1) + F(k-2). What is F({n}) modulo {m}?\n"
            "Finish your reply with [answer]remainder[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return int(solution.strip()) == _fib_mod(identity["n"], identity["m"])
