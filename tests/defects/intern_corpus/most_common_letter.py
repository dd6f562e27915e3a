"""Audit fixture (issue 12, see MANIFEST.json): the most frequent letter of a string."""

import random
import re
import string
from collections import Counter

from bootcamp import Basebootcamp


class MostCommonLetterbootcamp(Basebootcamp):
    def __init__(self, min_length=15, max_length=30):
        self.min_length = min_length
        self.max_length = max_length

    def case_generator(self):
        letters = random.sample(string.ascii_lowercase, random.randint(4, 8))
        length = random.randint(self.min_length, self.max_length)
        return {"text": "".join(random.choice(letters) for _ in range(length))}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Which letter occurs most often in '{question_case['text']}'? If several letters "
            "tie, give the one that comes first in the alphabet. Write just that letter between "
            "[answer] and [/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*([A-Za-z])\s*\[/answer\]", output)
        return found[-1].lower() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        counts = Counter(identity["text"])
        top = max(counts.values())
        return solution == min(ch for ch, n in counts.items() if n == top)
