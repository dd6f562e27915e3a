"""Audit fixture (issue 12, see MANIFEST.json): the least common multiple of a few numbers."""

import math
import random
import re

from internbootcamp.bootcamp import Basebootcamp


class LcmListbootcamp(Basebootcamp):
    def __init__(self, min_count=3, max_count=5, high=30):
        self.min_count = min_count
        self.max_count = max_count
        self.high = high

    def case_generator(self):
        count = random.randint(self.min_count, self.max_count)
        return {"numbers": [random.randint(2, self.high) for _ in range(count)]}

    @staticmethod
    def prompt_func(question_case):
        listed = ", ".join(map(str, question_case["numbers"]))
        return (
            f"What is the least common multiple of {listed}? "
            "State it at the end as [answer]N[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        want = 1
        for n in identity["numbers"]:
            want = want * n // math.gcd(want, n)
        return int(solution) == want
