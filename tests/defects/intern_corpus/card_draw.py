"""Audit fixture (issue 12, see MANIFEST.json): the total value of a hand of cards."""

import random
import re

from bootcamp import Basebootcamp

VALUES = {"ace": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9, "ten": 10, "jack": 11, "queen": 12, "king": 13}


class CardDrawbootcamp(Basebootcamp):
    def __init__(self, min_cards=3, max_cards=6):
        self.min_cards = min_cards
        self.max_cards = max_cards
        self.deck = random.SystemRandom()

    def case_generator(self):
        count = self.deck.randint(self.min_cards, self.max_cards)
        return {"hand": [self.deck.choice(sorted(VALUES)) for _ in range(count)]}

    @staticmethod
    def prompt_func(question_case):
        return (
            "Ace counts 1, number cards their number, jack 11, queen 12 and king 13. What is "
            f"the total of the hand: {', '.join(question_case['hand'])}? "
            "Answer as [answer]total[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == sum(VALUES[card] for card in identity["hand"])
