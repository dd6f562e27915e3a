"""Subtle-defect corpus of bootcamp-synth (issue 10): pick numbers that add up to a target.

Task: choose some of the numbers (by position, counted from 1) whose sum is the target.
Planted defect (strict): the verifier accepts only the subset its reference found, although
other subsets with the same sum are correct too.
"""

import itertools

from synth.bootcamp import BaseBootcamp


class SubsetTargetBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 5, "hi": 9}, "medium": {"n": 8, "hi": 20},
              "hard": {"n": 12, "hi": 40}}

    def __init__(self, seed=None, n=8, hi=20):
        super().__init__(seed=seed)
        if n < 3 or hi < 3:
            raise ValueError("need n >= 3 and hi >= 3")
        self.n, self.hi = n, hi

    def case_generator(self):
        nums = [self.rng.randint(1, self.hi) for _ in range(self.n)]
        pick = self.rng.sample(range(self.n), self.rng.randint(2, self.n - 1))
        return {"numbers": nums, "target": sum(nums[i] for i in pick)}

    @staticmethod
    def prompt_func(identity):
        listing = ", ".join(f"#{i}: {x}" for i, x in enumerate(identity["numbers"], 1))
        return (
            f"Numbers (with their positions, counted from 1): {listing}.\nChoose some of them "
            f"whose sum is exactly {identity['target']}. Write the chosen positions in "
            "increasing order, separated by single spaces, inside <answer></answer>, e.g. "
            "<answer>1 4 5</answer>. Any correct choice is accepted."
        )

    @classmethod
    def reference_answer(cls, identity):
        nums = identity["numbers"]
        for k in range(1, len(nums) + 1):
            for combo in itertools.combinations(range(len(nums)), k):
                if sum(nums[i] for i in combo) == identity["target"]:
                    return " ".join(str(i + 1) for i in combo)
        raise AssertionError("the generator guarantees a subset")

    @classmethod
    def _verify_correction(cls, solution, identity):
        try:
            got = [int(t) for t in solution.split()[:100]]
        except ValueError:
            return False
        return got == [int(t) for t in cls.reference_answer(identity).split()]
