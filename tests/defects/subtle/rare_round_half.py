"""Subtle-defect corpus of bootcamp-synth (issue 10): a rounded average.

Task: the average of the readings rounded to the nearest integer, exact halves rounded up.
Planted defect (rare): the reference uses Python's round(), which rounds exact halves to the
even neighbour; that differs only when the average ends in .5 with an even integer part
(about 5-12 % of cases here), and the verifier compares with the reference.
"""

from fractions import Fraction

from synth.bootcamp import BaseBootcamp


class RoundedAverageBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4, "hi": 20}, "medium": {"n": 6, "hi": 200},
              "hard": {"n": 10, "hi": 20000}}

    def __init__(self, seed=None, n=6, hi=200):
        super().__init__(seed=seed)
        if n < 2 or hi < 2:
            raise ValueError("need n >= 2 and hi >= 2")
        self.n, self.hi = n, hi

    def case_generator(self):
        return {"readings": [self.rng.randint(-self.hi, self.hi) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        vals = ", ".join(map(str, identity["readings"]))
        return (
            f"Readings: {vals}.\nWhat is their average rounded to the nearest integer? An "
            "average exactly halfway between two integers is rounded up (towards +infinity), "
            "so 2.5 becomes 3 and -2.5 becomes -2. Give the integer inside <answer></answer>, "
            "e.g. <answer>-7</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        vals = identity["readings"]
        return str(round(Fraction(sum(vals), len(vals))))

    @classmethod
    def _verify_correction(cls, solution, identity):
        try:
            return int(solution.strip()) == int(cls.reference_answer(identity))
        except ValueError:
            return False
