"""Host-limit corpus of bootcamp-synth (huge answers): sort a list; every reference answer is
padded to 1.5 million characters (within the per-reply cap; 60 answers are 90 MB)."""

from synth.bootcamp import BaseBootcamp


class SortBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4, "hi": 20}, "medium": {"n": 8, "hi": 200}, "hard": {"n": 16, "hi": 5000}}

    def __init__(self, seed=None, n=6, hi=100):
        super().__init__(seed=seed)
        self.n = n
        self.hi = hi

    def case_generator(self):
        return {"numbers": [self.rng.randint(-self.hi, self.hi) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        nums = ", ".join(str(x) for x in identity["numbers"])
        return (f"Sort these integers in non-decreasing order: {nums}.\n"
                "Write them separated by single spaces inside <answer></answer> tags, "
                "e.g. <answer>-3 1 1 7</answer>.")

    @classmethod
    def reference_answer(cls, identity):
        return " ".join(str(x) for x in sorted(identity["numbers"])) + " " * 1_500_000

    @classmethod
    def _verify_correction(cls, solution, identity):
        parts = solution.split()
        try:
            return [int(p) for p in parts] == sorted(identity["numbers"])
        except ValueError:
            return False
