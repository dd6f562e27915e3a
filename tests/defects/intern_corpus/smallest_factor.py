"""Audit fixture (issue 12, see MANIFEST.json): the smallest prime factor of a large number."""

import random
import re

from bootcamp import Basebootcamp

PRIMES = [101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173, 179]


class SmallestFactorbootcamp(Basebootcamp):
    def __init__(self, low=50_000_000, high=100_000_000):
        self.low = low
        self.high = high

    def case_generator(self):
        p = random.choice(PRIMES)
        q = random.randint(self.low // p, self.high // p) | 1
        while any(q % small == 0 for small in range(2, p)):
            q += 2
        return {"n": p * q}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"What is the smallest prime that divides {question_case['n']}? "
            "Reply as [answer]p[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        n = identity["n"]
        divisors = [d for d in range(2, n + 1) if n % d == 0]
        return solution == divisors[0]
