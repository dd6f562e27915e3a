"""Audit fixture (issue 12, see MANIFEST.json): how many primes lie below a bound."""

import random
import re

from bootcamp import Basebootcamp


def _count_primes(limit):
    sieve = [True] * limit
    sieve[:2] = [False, False][:limit]
    for p in range(2, int(limit**0.5) + 1):
        if sieve[p]:
            sieve[p * p::p] = [False] * len(sieve[p * p::p])
    return sum(sieve)


class PrimeCountbootcamp(Basebootcamp):
    def __init__(self, low=20, high=3000):
        self.low = low
        self.high = high

    def case_generator(self):
        return {"limit": random.randint(self.low, self.high)}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"How many prime numbers are smaller than {question_case['limit']}? "
            "Give the count as [answer]count[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution <= _count_primes(identity["limit"])
