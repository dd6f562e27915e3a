"""Subtle-defect corpus of bootcamp-synth: arrangements with exactly k fixed points.

Task: a shuffle of n cards is given; count the positions where the card is its own number.
Planted defect (degenerate): the first ``case_generator`` call of an instance enumerates every
permutation of n cards, counting inversions pair by pair, into a pool (to "draw uniformly among
the interesting ones"), and later calls draw from the pool. At the hard level that first call
takes over a second, and training and export build a fresh instance per case; the gate's mean
over one instance's cases hides it.
"""

import itertools

from synth.bootcamp import BaseBootcamp


class FixedPointsBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4}, "medium": {"n": 6}, "hard": {"n": 9}}

    def __init__(self, seed=None, n=6):
        super().__init__(seed=seed)
        if not 3 <= n <= 9:
            raise ValueError("need 3 <= n <= 9")
        self.n = n
        self.pool = None

    def case_generator(self):
        if self.pool is None:
            # "interesting" shuffles: a middling number of inversions
            half = self.n * (self.n - 1) // 4
            self.pool = [p for p in itertools.permutations(range(1, self.n + 1))
                         if abs((sum(1 for i in range(self.n) for j in range(self.n)
                                     if i < j and p[i] > p[j])
                                 + sum(1 for i in range(self.n) for j in range(self.n)
                                       if i > j and p[i] < p[j])) // 2 - half) <= self.n // 2]
        return {"cards": list(self.rng.choice(self.pool))}

    @staticmethod
    def prompt_func(identity):
        return (
            f"Cards in positions 1..{len(identity['cards'])}: "
            f"{' '.join(map(str, identity['cards']))}\nHow many positions hold the card with "
            "their own number? Give the count inside <answer></answer>, e.g. <answer>2</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(1 for i, v in enumerate(identity["cards"], 1) if i == v))

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 4 and text == cls.reference_answer(identity)
