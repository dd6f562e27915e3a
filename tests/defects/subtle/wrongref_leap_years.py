"""Subtle-defect corpus of bootcamp-synth (issue 10): counting leap years.

Task: how many Gregorian leap years lie in a range of years, both ends included?
Planted defect (wrong reference): the reference's leap rule forgets the 400-year exception
(2000 and 1600 were leap years); the verifier compares with it.
"""

from synth.bootcamp import BaseBootcamp


class LeapYearCountBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"span": 12, "latest": 2100}, "medium": {"span": 900, "latest": 4000},
              "hard": {"span": 5000, "latest": 60000}}

    def __init__(self, seed=None, span=400, latest=4000):
        super().__init__(seed=seed)
        if span < 4 or latest < 1583:
            raise ValueError("need span >= 4 and latest >= 1583")
        self.span, self.latest = span, latest

    def case_generator(self):
        first = self.rng.randint(1583, self.latest)
        return {"first": first, "last": first + self.rng.randint(3, self.span)}

    @staticmethod
    def _leap(y):
        return y % 4 == 0 and y % 100 != 0

    @staticmethod
    def prompt_func(identity):
        return (
            f"How many leap years of the Gregorian calendar are there from {identity['first']} "
            f"to {identity['last']}, both included? Give the count inside <answer></answer>, "
            "e.g. <answer>12</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(cls._leap(y) for y in range(identity["first"], identity["last"] + 1)))

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 10 and text == cls.reference_answer(identity)
