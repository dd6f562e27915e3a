"""Audit fixture (issue 12, see MANIFEST.json): unscramble a shuffled word."""

import random
import re

from bootcamp import Basebootcamp

try:
    from .wordbank import WORDS
except ImportError:
    WORDS = ["planet"]


class WordUnscramblebootcamp(Basebootcamp):
    def __init__(self, min_length=5, max_length=9):
        self.min_length = min_length
        self.max_length = max_length

    def case_generator(self):
        fitting = [w for w in WORDS if self.min_length <= len(w) <= self.max_length] or WORDS
        word = random.choice(fitting)
        letters = list(word)
        while "".join(letters) == word:
            random.shuffle(letters)
        return {"scrambled": "".join(letters), "word": word}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"The letters '{question_case['scrambled']}' are a shuffled English word. Which "
            "word? Answer as [answer]word[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*([A-Za-z]+)\s*\[/answer\]", output)
        return found[-1].lower() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == identity["word"]
