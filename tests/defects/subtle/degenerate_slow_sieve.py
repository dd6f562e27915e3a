"""Subtle-defect corpus of bootcamp-synth: primes in a range.

Task: count the primes p with a <= p <= b.
Planted defect (degenerate): every instance precomputes a table of primes up to the level's
largest value in ``__init__``, by trial division. Export, the filter and training build one
instance per case, so at the hard level each case costs over a second; the cases one
instance generates afterwards are instant, which is all today's timing check measures.
"""

from synth.bootcamp import BaseBootcamp


class PrimeRangeBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"hi": 100}, "medium": {"hi": 5000}, "hard": {"hi": 1500000}}

    def __init__(self, seed=None, hi=5000):
        super().__init__(seed=seed)
        if hi < 10:
            raise ValueError("need hi >= 10")
        self.hi = hi
        self.primes = [v for v in range(2, hi + 1)
                       if all(v % d for d in range(2, int(v ** 0.5) + 1))]

    def case_generator(self):
        a = self.rng.randint(1, self.hi - 5)
        b = self.rng.randint(a + 1, min(self.hi, a + 10 + self.hi // 1000))
        return {"a": a, "b": b}

    @staticmethod
    def prompt_func(identity):
        return (
            f"How many prime numbers p satisfy {identity['a']} <= p <= {identity['b']}? Give "
            "the count inside <answer></answer>, e.g. <answer>7</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        a, b = identity["a"], identity["b"]
        root = int(b ** 0.5) + 1
        small = [v for v in range(2, root + 1) if all(v % d for d in range(2, int(v ** 0.5) + 1))]
        alive = [max(a, 2) <= v for v in range(a, b + 1)]
        for p in small:
            for m in range(max(p * p, (a + p - 1) // p * p), b + 1, p):
                alive[m - a] = False
        return str(sum(alive))

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 8 and text == cls.reference_answer(identity)
