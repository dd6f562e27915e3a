"""Subtle-defect corpus of bootcamp-synth (issue 10): swap two entries of a list.

Task: swap the numbers at positions i and j and write the resulting list.
Planted defect (prompt): the prompt gives the positions without saying whether they count
from 0 or from 1; the reference and the verifier count from 0.
"""

from synth.bootcamp import BaseBootcamp


class SwapPositionsBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4, "hi": 9}, "medium": {"n": 8, "hi": 99},
              "hard": {"n": 16, "hi": 9999}}

    def __init__(self, seed=None, n=8, hi=99):
        super().__init__(seed=seed)
        if n < 3 or hi < 5:
            raise ValueError("need n >= 3 and hi >= 5")
        self.n, self.hi = n, hi

    def case_generator(self):
        nums = self.rng.sample(range(1, self.hi * 2), self.n)
        i, j = sorted(self.rng.sample(range(1, self.n), 2))
        return {"numbers": nums, "i": i, "j": j}

    @staticmethod
    def prompt_func(identity):
        nums = " ".join(map(str, identity["numbers"]))
        return (
            f"List: {nums}\nSwap the numbers at positions {identity['i']} and {identity['j']} "
            "and write the whole resulting list, separated by single spaces, inside "
            "<answer></answer>, e.g. <answer>5 2 9 1</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        nums = list(identity["numbers"])
        i, j = identity["i"], identity["j"]
        nums[i], nums[j] = nums[j], nums[i]
        return " ".join(map(str, nums))

    @classmethod
    def _verify_correction(cls, solution, identity):
        return " ".join(solution.split()) == cls.reference_answer(identity)
