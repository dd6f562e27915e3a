"""Subtle-defect corpus of bootcamp-synth (issue 10): where a value first occurs.

Task: the position of the first occurrence of x in the list.
Planted defect (prompt): the prompt never says whether positions count from 0 or from 1;
the reference and the verifier count from 0, a reader may well count from 1.
"""

from synth.bootcamp import BaseBootcamp


class FirstPositionBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 5, "hi": 5}, "medium": {"n": 10, "hi": 9},
              "hard": {"n": 30, "hi": 20}}

    def __init__(self, seed=None, n=10, hi=9):
        super().__init__(seed=seed)
        if n < 2 or hi < 2:
            raise ValueError("need n >= 2 and hi >= 2")
        self.n, self.hi = n, hi

    def case_generator(self):
        nums = [self.rng.randint(1, self.hi) for _ in range(self.n)]
        return {"numbers": nums, "x": self.rng.choice(nums)}

    @staticmethod
    def prompt_func(identity):
        nums = " ".join(map(str, identity["numbers"]))
        return (
            f"List: {nums}\nAt which position does the number {identity['x']} occur for the "
            "first time? Give the position inside <answer></answer>, e.g. <answer>4</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return str(identity["numbers"].index(identity["x"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 6 and text == cls.reference_answer(identity)
