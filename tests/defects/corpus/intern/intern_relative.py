"""InternBootcamp-style module for the audit tests, importing its base class relatively.

Written for bootcamp-synth's tests: the reverse of a short word."""

import random
import re

from .base import Basebootcamp


class Reversebootcamp(Basebootcamp):
    def __init__(self, length=5):
        self.length = length

    def case_generator(self):
        return {"word": "".join(random.choice("abcdefgh") for _ in range(self.length))}

    @staticmethod
    def prompt_func(question_case):
        return f"Reverse the word {question_case['word']}. Reply as [answer]WORD[/answer]."

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*([a-z]{1,64})\s*\[/answer\]", output)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == identity["word"][::-1]
