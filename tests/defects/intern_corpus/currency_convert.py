"""Audit fixture (issue 12, see MANIFEST.json): convert an amount of money at an exchange rate."""

import random
import re

from bootcamp import Basebootcamp

CURRENCIES = ["crowns", "florins", "marks", "talers", "ducats", "guilders"]


class CurrencyConvertbootcamp(Basebootcamp):
    def __init__(self, max_amount=500):
        self.max_amount = max_amount

    def case_generator(self):
        source, target = random.sample(CURRENCIES, 2)
        return {"amount": random.randint(10, self.max_amount), "source": source,
                "target": target, "rate_percent": random.randint(20, 480)}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"A traveller changes {question_case['amount']} {question_case['source']} into "
            f"{question_case['target']} at today's exchange rate. How many "
            f"{question_case['target']} does she get, rounded down to a whole number?\n"
            "Answer as [answer]amount[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == identity["amount"] * identity["rate_percent"] // 100
