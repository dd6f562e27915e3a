"""Audit fixture (issue 12, see MANIFEST.json): count the subsets of a list with a given sum."""

import itertools
import random
import re

from bootcamp import Basebootcamp


class SubsetCountbootcamp(Basebootcamp):
    def __init__(self, min_count=22, max_count=23):
        self.min_count = min_count
        self.max_count = max_count

    def case_generator(self):
        numbers = [random.randint(1, 40) for _ in range(random.randint(self.min_count,
                                                                       self.max_count))]
        return {"numbers": numbers, "total": random.randint(30, 120)}

    @staticmethod
    def prompt_func(question_case):
        listed = " ".join(map(str, question_case["numbers"]))
        return (
            f"The list {listed} has positions 1 to {len(question_case['numbers'])}. How many "
            "sets of positions (possibly empty) pick numbers that add up to exactly "
            f"{question_case['total']}? Write the count as [answer]count[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        numbers, total = identity["numbers"], identity["total"]
        count = 0
        for bits in itertools.product((0, 1), repeat=len(numbers)):
            if sum(v for v, keep in zip(numbers, bits, strict=True) if keep) == total:
                count += 1
        return solution == count
