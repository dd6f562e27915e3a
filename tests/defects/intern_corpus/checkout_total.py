"""Audit fixture (issue 12, see MANIFEST.json): the total price of a shopping basket."""

import random
import re

from bootcamp import Basebootcamp

PRICES = {"bread": 3, "milk": 2, "cheese": 7, "apples": 4, "coffee": 9, "rice": 5, "eggs": 6}


class CheckoutTotalbootcamp(Basebootcamp):
    def __init__(self, max_items=5):
        self.max_items = max_items

    def case_generator(self):
        items = random.sample(sorted(PRICES), random.randint(2, self.max_items))
        basket = [[item, random.randint(1, 4)] for item in items]
        return {"basket": basket, "total": sum(PRICES[i] * q for i, q in basket)}

    @staticmethod
    def prompt_func(question_case):
        prices = ", ".join(f"{k} {v}" for k, v in sorted(PRICES.items()))
        lines = ", ".join(f"{q} x {item}" for item, q in question_case["basket"])
        return (
            f"Prices per unit: {prices}. A basket holds {lines}. What does it cost in total? "
            "Answer as [answer]total[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        expected = identity.pop("total")
        return solution == expected
