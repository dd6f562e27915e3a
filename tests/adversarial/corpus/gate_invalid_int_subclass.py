"""Adversarial corpus (gate): a verifier whose _verify_correction returns an int subclass equal
to 1 whose ``float()`` is 7.5: BaseBootcamp.verify_score returns 7.5, out of [0, 1]."""
# static:
# class: invalid_score
# verdict: rejected
# check: self_consistency=failed/invalid_score
# pool: invalid_score, invalid_score, 0.0
from synth.bootcamp import BaseBootcamp


class _Big(int):
    def __float__(self):
        return 7.5


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"nums": [self.rng.randint(0, 99) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        return "Add " + " ".join(str(x) for x in identity["nums"]) + ". Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["nums"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        return _Big(1)
