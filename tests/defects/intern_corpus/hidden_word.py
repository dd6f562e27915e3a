"""Audit fixture (issue 12, see MANIFEST.json): guess a word from a letter pattern and a clue."""

import random
import re

from bootcamp import Basebootcamp

CLUES = {"volcano": "a mountain that can erupt", "compass": "it points north",
         "lantern": "a portable lamp", "penguin": "a bird that cannot fly but swims",
         "glacier": "a slow river of ice", "trumpet": "a brass instrument",
         "cabbage": "a leafy vegetable", "harvest": "gathering the crops",
         "dolphin": "a clever sea mammal", "blanket": "it keeps you warm in bed",
         "library": "a building full of books", "thimble": "it protects a finger when sewing"}


class HiddenWordbootcamp(Basebootcamp):
    def __init__(self, shown_letters=3):
        self.shown_letters = shown_letters

    def case_generator(self):
        target = random.choice(sorted(CLUES))
        keep = set(random.sample(range(len(target)), self.shown_letters))
        pattern = " ".join(ch if i in keep else "_" for i, ch in enumerate(target))
        return {"pattern": pattern, "clue": CLUES[target], "target": target}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Which word fits the pattern {question_case['pattern']} and the clue "
            f"'{question_case['clue']}'? [target={question_case['target']}]\n"
            "Answer as [answer]word[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*([A-Za-z]+)\s*\[/answer\]", output)
        return found[-1].lower() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == identity["target"]
