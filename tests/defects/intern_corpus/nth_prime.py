"""Audit fixture (issue 12, see MANIFEST.json): the n-th prime number."""

import random
import re

from bootcamp import Basebootcamp


def _is_prime(n):
    return n > 1 and all(n % d for d in range(2, int(n**0.5) + 1))


class NthPrimebootcamp(Basebootcamp):
    def __init__(self, low=5, high=300):
        self.low = low
        self.high = high

    def case_generator(self):
        return {"n": random.randint(self.low, self.high)}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Counting 2 as the 1st prime, 3 as the 2nd and so on, what is the "
            f"{question_case['n']}-th prime? Answer as [answer]p[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution < 10**6 and _is_prime(solution)
