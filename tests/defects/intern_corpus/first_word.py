"""Audit fixture (issue 12, see MANIFEST.json): the alphabetically first of a few words."""

import random
import re

from bootcamp import Basebootcamp

POOL = ["nectar", "basalt", "quill", "meadow", "ripple", "saber", "tinsel", "amber", "cinder",
        "dune", "ferret", "gravel", "hazel", "indigo", "jasper", "kelp", "linen", "mango"]


class FirstWordbootcamp(Basebootcamp):
    def __init__(self, min_words=4, max_words=8):
        self.min_words = min_words
        self.max_words = max_words

    def case_generator(self):
        picked = [random.choice(POOL) for _ in range(random.randint(self.min_words,
                                                                    self.max_words))]
        return {"words": list(set(picked))}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Which of these words comes first in alphabetical order: "
            f"{', '.join(question_case['words'])}? Answer as [answer]word[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*([a-z]+)\s*\[/answer\]", output)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == min(identity["words"])
