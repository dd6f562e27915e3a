"""Audit fixture (issue 12, see MANIFEST.json): count the letters of a word from a to m."""

import random
import re

from bootcamp import Basebootcamp

WORDS = ["cat", "lamp", "orbit", "stone", "garden", "marble", "kingdom", "horizons",
         "elephant", "umbrella", "sky", "frost", "bright", "window", "cushions", "triangle"]


class LetterHalfbootcamp(Basebootcamp):
    def __init__(self, length=7):
        self.length = length

    def case_generator(self):
        word = random.choice([w for w in WORDS if len(w) == self.length])
        return {"word": word}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"How many letters of '{question_case['word']}' (counting repeats) are among the "
            "first thirteen letters of the alphabet, a to m? Answer as [answer]N[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == sum(1 for ch in identity["word"] if ch <= "m")
