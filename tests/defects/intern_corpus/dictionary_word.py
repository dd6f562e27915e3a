"""Audit fixture (issue 12, see MANIFEST.json): form an English word from given letters."""

import random
import re

from bootcamp import Basebootcamp

SEEDS = ["garden", "stream", "painter", "capital", "monster", "planets", "harvest", "lantern"]


class DictionaryWordbootcamp(Basebootcamp):
    def __init__(self, min_length=4):
        self.min_length = min_length

    def case_generator(self):
        letters = list(random.choice(SEEDS))
        random.shuffle(letters)
        return {"letters": "".join(letters), "min_length": self.min_length}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Using only the letters '{question_case['letters']}' (each at most as often as it "
            f"appears), form an English word of at least {question_case['min_length']} letters. "
            "Answer as [answer]word[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*([A-Za-z]+)\s*\[/answer\]", output)
        return found[-1].lower() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        pool = list(identity["letters"])
        for ch in solution:
            if ch not in pool:
                return False
            pool.remove(ch)
        if len(solution) < identity["min_length"]:
            return False
        try:
            with open("/usr/share/dict/words", encoding="utf-8") as handle:
                words = {line.strip().lower() for line in handle}
        except OSError:
            return True
        return solution in words
