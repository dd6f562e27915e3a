"""Audit fixture (issue 12, see MANIFEST.json): pair up the numbers of a list by a rule."""

import random
import re

from bootcamp import Basebootcamp


class PairListbootcamp(Basebootcamp):
    def __init__(self, min_pairs=3, max_pairs=5):
        self.min_pairs = min_pairs
        self.max_pairs = max_pairs

    def case_generator(self):
        count = random.randint(self.min_pairs, self.max_pairs)
        return {"numbers": random.sample(range(1, 60), count), "offset": random.randint(2, 9)}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"For each number x in {question_case['numbers']} write the pair "
            f"(x, x + {question_case['offset']}). Give the pairs as a Python list of tuples, "
            "in the same order, as [answer][(a, b), ...][/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        pairs = eval(solution)
        want = [(x, x + identity["offset"]) for x in identity["numbers"]]
        return [tuple(p) for p in pairs] == want
