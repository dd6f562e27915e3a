"""Audit fixture (issue 12, see MANIFEST.json): undo a Caesar shift whose size is given."""

import random
import re

from internbootcamp.bootcamp.base import Basebootcamp

WORDS = ["river", "lantern", "copper", "meadow", "harbor", "velvet", "orchid", "thunder",
         "pebble", "marble", "falcon", "willow", "saddle", "ember", "glacier", "quartz",
         "tunnel", "basket", "candle", "mirror", "plum", "anchor", "breeze", "cactus"]


def _shift(text, by):
    return "".join(chr((ord(c) - 97 + by) % 26 + 97) if c.isalpha() else c for c in text)


class CaesarDecodebootcamp(Basebootcamp):
    def __init__(self, min_words=2, max_words=5):
        self.min_words = min_words
        self.max_words = max_words

    def case_generator(self):
        count = random.randint(self.min_words, self.max_words)
        plain = " ".join(random.choice(WORDS) for _ in range(count))
        shift = random.randint(1, 25)
        return {"ciphertext": _shift(plain, shift), "shift": shift, "answer": plain}

    @staticmethod
    def prompt_func(question_case):
        return (
            "Each letter of the message below was moved "
            f"{question_case['shift']} places forward in the alphabet (after z comes a again); "
            "spaces were kept.\n"
            f"Message: {question_case['ciphertext']}\n"
            "Recover the original lowercase message and put it between [answer] and [/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return " ".join(solution.lower().split()) == identity["answer"]
