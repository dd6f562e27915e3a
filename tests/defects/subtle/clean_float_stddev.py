"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control: a standard deviation.

Task: the population standard deviation of the numbers; answers within 0.001 are accepted,
and the verifier accepts exactly that.
"""

import math
import statistics

from synth.bootcamp import BaseBootcamp


class StdDevBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 3, "hi": 10}, "medium": {"n": 6, "hi": 100},
              "hard": {"n": 12, "hi": 10000}}

    def __init__(self, seed=None, n=6, hi=100):
        super().__init__(seed=seed)
        if n < 2 or hi < 2:
            raise ValueError("need n >= 2 and hi >= 2")
        self.n, self.hi = n, hi

    def case_generator(self):
        while True:
            nums = [self.rng.randint(0, self.hi) for _ in range(self.n)]
            if len(set(nums)) > 1:
                return {"numbers": nums}

    @staticmethod
    def prompt_func(identity):
        nums = ", ".join(map(str, identity["numbers"]))
        return (
            f"What is the population standard deviation (divide by n, not n - 1) of {nums}? "
            "Answers within 0.001 of the exact value are accepted. Write a decimal number "
            "inside <answer></answer>, e.g. <answer>2.8284</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return f"{statistics.pstdev(identity['numbers']):.4f}"

    @classmethod
    def _verify_correction(cls, solution, identity):
        if len(solution) > 40:
            return False
        try:
            x = float(solution)
        except ValueError:
            return False
        return math.isfinite(x) and abs(x - statistics.pstdev(identity["numbers"])) <= 1e-3 * (1 + 1e-9)
