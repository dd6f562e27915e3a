"""Audit fixture (issue 12, see MANIFEST.json): the prime factorisation of a number."""

import random
import re

from bootcamp import Basebootcamp


def _factors(n):
    out, d = [], 2
    while d * d <= n:
        while n % d == 0:
            out.append(d)
            n //= d
        d += 1
    if n > 1:
        out.append(n)
    return out


class PrimeFactorsbootcamp(Basebootcamp):
    def __init__(self, low=100, high=100000):
        self.low = low
        self.high = high

    def case_generator(self):
        return {"n": random.randint(self.low, self.high)}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Write {question_case['n']} as a product of primes. List the prime factors from "
            "smallest to largest, repeating a factor as often as it divides, separated by "
            "spaces, as [answer]p1 p2 ...[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return [int(x) for x in re.findall(r"\d+", found[-1])] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        expected = _factors(identity["n"])
        return bool(solution) and solution[0] == expected[0]
