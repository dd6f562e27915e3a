"""Adversarial corpus (gate): a verifier whose _verify_correction returns a float subclass that
passes the contract's isinstance / isfinite / range tests but turns into NaN in ``float()``,
so BaseBootcamp.verify_score itself returns nan. No patching: the host must name it."""
# static:
# class: invalid_score
# verdict: rejected
# check: self_consistency=failed/invalid_score
# pool: invalid_score, invalid_score, 0.0
from synth.bootcamp import BaseBootcamp


class _Sneaky(float):
    def __float__(self):
        return float("nan")


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
        return _Sneaky(1.0)
