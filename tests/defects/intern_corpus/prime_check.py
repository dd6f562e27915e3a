"""Audit fixture (issue 12, see MANIFEST.json): is a number prime? (yes or no, balanced)."""

import random
import re

from bootcamp import Basebootcamp


def _is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


class PrimeCheckbootcamp(Basebootcamp):
    def __init__(self, high=200000):
        self.high = high

    def case_generator(self):
        want_prime = random.random() < 0.5
        while True:
            n = random.randrange(1001, self.high, 2)
            if _is_prime(n) == want_prime and n % 3 and n % 5:
                return {"n": n}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Is {question_case['n']} a prime number? Answer yes or no as [answer]yes[/answer] "
            "or [answer]no[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(yes|no)\s*\[/answer\]", output, re.IGNORECASE)
        return found[-1].lower() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == ("yes" if _is_prime(identity["n"]) else "no")
