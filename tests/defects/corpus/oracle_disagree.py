"""Planted-defect corpus: the sum of a list, with a planted defect (render_stdin drops a number).

The original problem reads n, then n integers, and prints their sum; see reference/clean_sum_oracle.py.
"""

from synth.bootcamp import BaseBootcamp


class SumOracleBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 3, "hi": 9}, "hard": {"n": 12, "hi": 10**6}}

    def __init__(self, seed=None, n=5, hi=100):
        super().__init__(seed=seed)
        self.n = n
        self.hi = hi

    def case_generator(self):
        return {"numbers": [self.rng.randint(0, self.hi) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        nums = " ".join(str(x) for x in identity["numbers"])
        return f"What is the sum of {nums}? Give only the number as <answer>N</answer>."

    @staticmethod
    def render_stdin(identity):
        nums = identity["numbers"]
        return f"{len(nums) - 1}\n{' '.join(map(str, nums[1:]))}\n"  # drops the first

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["numbers"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        if len(text) > 40 or not text.isdigit() or not text.isascii():
            return False
        return int(text) == sum(identity["numbers"])
