"""Audit fixture (issue 12, see MANIFEST.json): encrypt a word with a Vigenere key."""

import random
import re
import string

from bootcamp import Basebootcamp


def _encrypt(text, key):
    out = []
    for i, ch in enumerate(text):
        step = ord(key[i % len(key)]) - 97
        out.append(chr((ord(ch) - 97 + step) % 26 + 97))
    return "".join(out)


class VigenereEncodebootcamp(Basebootcamp):
    def __init__(self, **params):
        self.key_lengths = params.get("key_lengths", (3, 6))
        self.text_lengths = params.get("text_lengths", (8, 16))

    def case_generator(self):
        key = "".join(random.choice(string.ascii_lowercase)
                      for _ in range(random.randint(*self.key_lengths)))
        text = "".join(random.choice(string.ascii_lowercase)
                       for _ in range(random.randint(*self.text_lengths)))
        return {"key": key, "text": text}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Encrypt the text '{question_case['text']}' with the Vigenere cipher and the key "
            f"'{question_case['key']}'. Letter number i of the text (counting from 0) moves "
            "forward by the alphabet position of key letter number i mod (key length), where "
            "a=0, b=1, ..., z=25, wrapping after z.\n"
            "Reply with the lowercase ciphertext in the form [answer]ciphertext[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].strip().lower() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == _encrypt(identity["text"], identity["key"])
