"""Audit fixture (issue 12, see MANIFEST.json): put a handful of words in dictionary order."""

import random
import re

from bootcamp import Basebootcamp

POOL = ["kettle", "zephyr", "apricot", "nimbus", "garnet", "walrus", "ivory", "bramble",
        "cobalt", "juniper", "mosaic", "tundra", "oyster", "pixel", "quiver", "saffron",
        "raven", "lumen", "helix", "dagger", "fennel", "yonder", "urchin", "vortex",
        "ember", "emerald", "echo", "banner", "bandit", "cobra"]


class WordSortbootcamp(Basebootcamp):
    def __init__(self, min_words=5, max_words=9):
        self.min_words = min_words
        self.max_words = max_words

    def case_generator(self):
        return {"words": random.sample(POOL, random.randint(self.min_words, self.max_words))}

    @staticmethod
    def prompt_func(question_case):
        words = ", ".join(question_case["words"])
        return (
            f"Sort these words in alphabetical order: {words}.\n"
            "Answer with the sorted words separated by single spaces, inside [answer]...[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.replace(",", " ").split() == sorted(identity["words"])
