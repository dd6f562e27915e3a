"""Audit fixture (issue 12, see MANIFEST.json): delete the vowels of a phrase."""

import random
import re

from bootcamp import Basebootcamp

WORDS = ["mountain", "keyboard", "elephant", "umbrella", "orange", "painting", "airport",
         "journey", "library", "octopus", "festival", "raincoat", "tomato", "universe"]


class VowelStripbootcamp(Basebootcamp):
    def __init__(self, min_words=2, max_words=4):
        self.min_words = min_words
        self.max_words = max_words

    def case_generator(self):
        count = random.randint(self.min_words, self.max_words)
        return {"phrase": " ".join(random.choice(WORDS) for _ in range(count))}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Remove every vowel (a, e, i, o, u) from '{question_case['phrase']}', keeping the "
            "spaces between words. Write what is left as [answer]text[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        expected = "".join(ch for ch in identity["phrase"] if ch not in "aeiou")
        return solution in expected
