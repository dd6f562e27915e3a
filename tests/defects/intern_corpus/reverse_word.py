"""Audit fixture (issue 12, see MANIFEST.json): spell a random string backwards."""

import random
import re
import string

from bootcamp import Basebootcamp


class ReverseWordbootcamp(Basebootcamp):
    def __init__(self, **params):
        self.min_length = params.get("min_length", 6)
        self.max_length = params.get("max_length", 14)

    def case_generator(self):
        length = random.randint(self.min_length, self.max_length)
        return {"text": "".join(random.choice(string.ascii_lowercase) for _ in range(length))}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Write the string '{question_case['text']}' backwards. "
            "Answer as [answer]reversed[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*([a-z]+)\s*\[/answer\]", output)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return len(solution) == len(identity["text"][::-1])
