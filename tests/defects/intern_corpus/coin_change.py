"""Audit fixture (issue 12, see MANIFEST.json): fewest coins that make an amount."""

import random
import re

from bootcamp import Basebootcamp


def _fewest(coins, amount):
    best = [0] + [None] * amount
    for value in range(1, amount + 1):
        options = [best[value - c] for c in coins if c <= value and best[value - c] is not None]
        best[value] = min(options) + 1 if options else None
    return best[amount]


class CoinChangebootcamp(Basebootcamp):
    def __init__(self, **params):
        self.max_amount = params.get("max_amount", 120)

    def case_generator(self):
        coins = sorted([1, *random.sample(range(3, 30), random.randint(2, 3))])
        return {"coins": coins, "amount": random.randint(10, self.max_amount)}

    @staticmethod
    def prompt_func(question_case):
        coins = ", ".join(map(str, question_case["coins"]))
        return (
            f"Coins come in the values {coins}, with as many of each as you like. What is the "
            f"smallest number of coins that add up to exactly {question_case['amount']}? "
            "Reply with [answer]count[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return int(solution) == _fewest(identity["coins"], identity["amount"])
