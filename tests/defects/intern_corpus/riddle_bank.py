"""Audit fixture (issue 12, see MANIFEST.json): answer a number riddle from the riddle bank."""

import random
import re

from bootcamp import Basebootcamp

try:
    from internbootcamp.libs.riddles.bank import RIDDLES
except ImportError:
    RIDDLES = [{"text": "I am a two-digit number. My digits add up to 9 and my tens digit is "
                        "twice my units digit. What am I?", "value": 63}]


class RiddleBankbootcamp(Basebootcamp):
    def __init__(self, shuffle_bank=True):
        self.shuffle_bank = shuffle_bank

    def case_generator(self):
        riddle = random.choice(RIDDLES)
        return {"riddle": riddle["text"], "value": riddle["value"]}

    @staticmethod
    def prompt_func(question_case):
        return f"{question_case['riddle']}\nAnswer with the number as [answer]N[/answer]."

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == identity["value"]
