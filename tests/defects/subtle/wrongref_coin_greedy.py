"""Subtle-defect corpus of bootcamp-synth (issue 10): the fewest coins that pay an amount.

Task: how many coins at least (unlimited supply of each value) pay the amount exactly?
Planted defect (wrong reference): the reference takes the largest coin that fits, again and
again -- right for euro-like coins, wrong for values like 1, 3, 4 (6 = 3 + 3, not 4 + 1 + 1);
the verifier compares with it.
"""

from synth.bootcamp import BaseBootcamp


class FewestCoinsCountBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"kinds": 3, "hi": 10, "amount": 25},
              "medium": {"kinds": 4, "hi": 30, "amount": 120},
              "hard": {"kinds": 5, "hi": 80, "amount": 900}}

    def __init__(self, seed=None, kinds=4, hi=30, amount=120):
        super().__init__(seed=seed)
        if kinds < 2 or hi <= kinds or amount < 5:
            raise ValueError("need kinds >= 2, hi > kinds and amount >= 5")
        self.kinds, self.hi, self.amount = kinds, hi, amount

    def case_generator(self):
        coins = sorted([1, *self.rng.sample(range(2, self.hi + 1), self.kinds - 1)])
        return {"coins": coins, "amount": self.rng.randint(self.amount // 4, self.amount)}

    @staticmethod
    def prompt_func(identity):
        coins = ", ".join(map(str, identity["coins"]))
        return (
            f"Coins have the values {coins}, and there are as many of each as needed. What "
            f"is the smallest number of coins that add up to exactly {identity['amount']}? "
            "Give the number inside <answer></answer>, e.g. <answer>4</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        left, count = identity["amount"], 0
        for c in sorted(identity["coins"], reverse=True):
            count += left // c
            left %= c
        return str(count)

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 12 and int(text) == int(cls.reference_answer(identity))
