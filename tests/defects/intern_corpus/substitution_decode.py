"""Audit fixture (issue 12, see MANIFEST.json): decode a message written with a letter table."""

import random
import re
import string

from bootcamp import Basebootcamp

WORDS = ["signal", "garden", "winter", "bridge", "silver", "forest", "castle", "planet",
         "rocket", "shadow", "engine", "circle", "island", "spirit", "yellow", "dragon"]


class SubstitutionDecodebootcamp(Basebootcamp):
    def __init__(self, min_words=2, max_words=4):
        self.min_words = min_words
        self.max_words = max_words

    def case_generator(self):
        shuffled = random.sample(string.ascii_lowercase, 26)
        table = dict(zip(string.ascii_lowercase, shuffled, strict=True))
        plain = " ".join(random.choice(WORDS)
                         for _ in range(random.randint(self.min_words, self.max_words)))
        cipher = "".join(table.get(ch, ch) for ch in plain)
        return {"ciphertext": cipher, "table": table}

    @staticmethod
    def prompt_func(question_case):
        return (
            "The message below was encrypted by replacing each letter with another one, using "
            "the substitution table of this puzzle.\n"
            f"Encrypted: {question_case['ciphertext']}\n"
            "Decrypt it and give the lowercase message as [answer]message[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return " ".join(found[-1].lower().split()) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        back = {v: k for k, v in identity["table"].items()}
        return solution == "".join(back.get(ch, ch) for ch in identity["ciphertext"])
