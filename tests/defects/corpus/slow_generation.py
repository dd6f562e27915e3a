"""Planted-defect corpus: sort a list of integers, with a planted defect (case generation burns ~0.4 s of CPU per case: 16 million steps, so a fast machine is still over the 0.25 s mean budget).

Written for the bootcamp-synth gate tests; not a usable bootcamp."""

from synth.bootcamp import BaseBootcamp


class SortBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4, "hi": 20}, "hard": {"n": 16, "hi": 5000}}

    def __init__(self, seed=None, n=6, hi=100):
        super().__init__(seed=seed)
        if n < 2 or hi < 10:
            raise ValueError("need n >= 2 and hi >= 10")
        self.n = n
        self.hi = hi

    def case_generator(self):
        spin = 0
        for i in range(16_000_000):
            spin += i & 1
        return {"numbers": [self.rng.randint(-self.hi, self.hi) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        nums = ", ".join(str(x) for x in identity["numbers"])
        return (
            f"Sort these integers in non-decreasing order: {nums}.\n"
            "Write them separated by single spaces inside <answer></answer> tags, "
            "e.g. <answer>-3 1 1 7</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return " ".join(str(x) for x in sorted(identity["numbers"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        parts = solution.split()
        if len(parts) != len(identity["numbers"]) or len(solution) > 100_000:
            return False
        try:
            values = [int(p) for p in parts]
        except ValueError:
            return False
        return values == sorted(identity["numbers"])
