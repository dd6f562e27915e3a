"""Subtle-defect corpus of bootcamp-synth (issue 10): the k-th smallest number of a list.

Task: with duplicates counted, give the k-th smallest number (k = 1 is the minimum).
Planted defect (wrong reference): the reference indexes the sorted list with k instead of
k - 1, and the verifier compares with the reference, so the two agree on the wrong number.
"""

from synth.bootcamp import BaseBootcamp


class KthSmallestBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 5, "hi": 30}, "medium": {"n": 10, "hi": 500},
              "hard": {"n": 25, "hi": 100000}}

    def __init__(self, seed=None, n=10, hi=500):
        super().__init__(seed=seed)
        if n < 3:
            raise ValueError("n must be >= 3")
        self.n, self.hi = n, hi

    def case_generator(self):
        nums = [self.rng.randint(-self.hi, self.hi) for _ in range(self.n)]
        return {"numbers": nums, "k": self.rng.randint(1, self.n - 1)}

    @staticmethod
    def prompt_func(identity):
        nums = ", ".join(map(str, identity["numbers"]))
        return (
            f"List: {nums}.\nCounting duplicates separately, what is the k-th smallest number "
            f"for k = {identity['k']}? (k = 1 means the smallest.) Give the number inside "
            "<answer></answer>, e.g. <answer>-12</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return str(sorted(identity["numbers"])[identity["k"]])

    @classmethod
    def _verify_correction(cls, solution, identity):
        try:
            return int(solution.strip()) == int(cls.reference_answer(identity))
        except ValueError:
            return False
