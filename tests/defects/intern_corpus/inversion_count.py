"""Audit fixture (issue 12, see MANIFEST.json): count the inversions of a permutation."""

import random
import re

from bootcamp import Basebootcamp


class InversionCountbootcamp(Basebootcamp):
    def __init__(self, **params):
        self.min_n = params.get("min_n", 5)
        self.max_n = params.get("max_n", 10)

    def case_generator(self):
        n = random.randint(self.min_n, self.max_n)
        order = list(range(1, n + 1))
        random.shuffle(order)
        return {"perm": order}

    @staticmethod
    def prompt_func(question_case):
        listed = " ".join(map(str, question_case["perm"]))
        return (
            f"In the sequence {listed}, how many pairs of positions i < j hold a larger number "
            "at i than at j? Give the count as [answer]count[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        p = identity["perm"]
        want = sum(1 for i in range(len(p)) for j in range(i + 1, len(p)) if p[i] > p[j])
        return int(solution) == want
