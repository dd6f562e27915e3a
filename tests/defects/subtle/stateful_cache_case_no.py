"""Subtle-defect corpus of bootcamp-synth (issue 10): a product modulo m.

Task: the product of the numbers, modulo m.
Planted defect (stateful): each case carries its instance's running number, and answers
are cached in a class-level dict keyed by that number; a second instance (another level,
another seed) numbers its cases from 1 again and gets the first instance's answers.
"""

from synth.bootcamp import BaseBootcamp


class ProductModBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 3, "hi": 20}, "medium": {"n": 5, "hi": 1000},
              "hard": {"n": 9, "hi": 10**6}}
    _answers = {}

    def __init__(self, seed=None, n=5, hi=1000):
        super().__init__(seed=seed)
        if n < 2 or hi < 3:
            raise ValueError("need n >= 2 and hi >= 3")
        self.n, self.hi = n, hi
        self.count = 0

    def case_generator(self):
        self.count += 1
        return {"case": self.count,
                "numbers": [self.rng.randint(2, self.hi) for _ in range(self.n)],
                "mod": self.rng.randint(7, 997)}

    @staticmethod
    def prompt_func(identity):
        nums = " * ".join(map(str, identity["numbers"]))
        return (
            f"Problem {identity['case']}: compute ({nums}) mod {identity['mod']}. Give the "
            "remainder inside <answer></answer>, e.g. <answer>42</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        key = identity["case"]
        if key not in cls._answers:
            prod = 1
            for x in identity["numbers"]:
                prod = prod * x % identity["mod"]
            cls._answers[key] = str(prod)
        return cls._answers[key]

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip() == cls.reference_answer(identity)
