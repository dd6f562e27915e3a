"""Subtle-defect corpus of bootcamp-synth (issue 10): distinct real roots of a quadratic.

Task: how many distinct real roots does a*x^2 + b*x + c have?
Planted defect (degenerate): with random coefficients the discriminant is almost never 0,
so the answer is 0 or 2 on ~99 % of cases: guessing between two values scores well.
"""

from synth.bootcamp import BaseBootcamp


class QuadraticRootsBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"hi": 9}, "medium": {"hi": 99}, "hard": {"hi": 9999}}

    def __init__(self, seed=None, hi=99):
        super().__init__(seed=seed)
        if hi < 2:
            raise ValueError("hi must be >= 2")
        self.hi = hi

    def case_generator(self):
        return {"a": self.rng.randint(1, self.hi), "b": self.rng.randint(-self.hi, self.hi),
                "c": self.rng.randint(-self.hi, self.hi)}

    @staticmethod
    def prompt_func(identity):
        a, b, c = identity["a"], identity["b"], identity["c"]
        return (
            f"How many distinct real numbers x satisfy {a}*x^2 + ({b})*x + ({c}) = 0? Give "
            "the count inside <answer></answer>, e.g. <answer>1</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        d = identity["b"] ** 2 - 4 * identity["a"] * identity["c"]
        return "2" if d > 0 else "1" if d == 0 else "0"

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip() == cls.reference_answer(identity)
