"""Subtle-defect corpus of bootcamp-synth (issue 10): two numbers with a given sum.

Task: give two positions i < j (counted from 1) whose numbers add up to the target.
Planted defect (strict): the verifier accepts only the pair the reference finds first,
although the lists usually hold several such pairs.
"""

from synth.bootcamp import BaseBootcamp


class PairTargetBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 6, "hi": 9}, "medium": {"n": 10, "hi": 15},
              "hard": {"n": 20, "hi": 30}}

    def __init__(self, seed=None, n=10, hi=15):
        super().__init__(seed=seed)
        if n < 3 or hi < 3:
            raise ValueError("need n >= 3 and hi >= 3")
        self.n, self.hi = n, hi

    def case_generator(self):
        nums = [self.rng.randint(1, self.hi) for _ in range(self.n)]
        i, j = self.rng.sample(range(self.n), 2)
        return {"numbers": nums, "target": nums[i] + nums[j]}

    @staticmethod
    def prompt_func(identity):
        nums = " ".join(map(str, identity["numbers"]))
        return (
            f"The list is: {nums} (positions are counted from 1). Find two positions i < j "
            f"whose numbers add up to {identity['target']}. Write i and j separated by a space "
            "inside <answer></answer>, e.g. <answer>2 7</answer>. If several pairs work, any "
            "of them is accepted."
        )

    @classmethod
    def reference_answer(cls, identity):
        nums = identity["numbers"]
        for i in range(len(nums)):
            for j in range(i + 1, len(nums)):
                if nums[i] + nums[j] == identity["target"]:
                    return f"{i + 1} {j + 1}"
        raise AssertionError("the generator guarantees a pair")

    @classmethod
    def _verify_correction(cls, solution, identity):
        return " ".join(solution.split()) == cls.reference_answer(identity)
