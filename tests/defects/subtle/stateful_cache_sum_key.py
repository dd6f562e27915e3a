"""Subtle-defect corpus of bootcamp-synth (issue 10): counting inversions.

Task: how many pairs i < j have a[i] > a[j]?
Planted defect (stateful): answers are memoised in a class-level dict keyed by (length, sum)
of the list, a cheap key that different lists share; once the cache holds a list with the
same length and sum, later cases get its answer. The verifier compares with the reference,
so a fresh process always looks right.
"""

from synth.bootcamp import BaseBootcamp


class InversionCountBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4, "hi": 9}, "medium": {"n": 8, "hi": 30},
              "hard": {"n": 16, "hi": 99}}
    _memo = {}

    def __init__(self, seed=None, n=8, hi=30):
        super().__init__(seed=seed)
        if n < 2 or hi < 2:
            raise ValueError("need n >= 2 and hi >= 2")
        self.n, self.hi = n, hi

    def case_generator(self):
        return {"numbers": [self.rng.randint(0, self.hi) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        nums = ", ".join(map(str, identity["numbers"]))
        return (
            f"In the list [{nums}], how many pairs of positions i < j have a[i] > a[j] "
            "(inversions)? Give the count inside <answer></answer>, e.g. <answer>6</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        nums = identity["numbers"]
        key = (len(nums), sum(nums))
        if key not in cls._memo:
            cls._memo[key] = str(sum(1 for i in range(len(nums)) for j in range(i + 1, len(nums))
                                     if nums[i] > nums[j]))
        return cls._memo[key]

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip() == cls.reference_answer(identity)
