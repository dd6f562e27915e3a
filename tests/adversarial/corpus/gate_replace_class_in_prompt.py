"""Adversarial corpus (gate): an accept-everything verifier whose prompt_func (run before any
scoring) swaps the class's own _verify_correction and extract_output for strict ones with a
literal setattr, so that the checks after the prompt check would see a strict verifier."""
# static:
# class: replace
# verdict: rejected
# check: contract=failed/contract_tampered, self_consistency=failed/contract_tampered
from synth.bootcamp import BaseBootcamp


def _strict(cls, solution, identity):
    return solution == cls.reference_answer(identity)


def _extract(response):
    return BaseBootcamp.extract_output(response)


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"nums": [self.rng.randint(0, 99) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        setattr(Hostile, "_verify_correction", classmethod(_strict))
        setattr(Hostile, "extract_output", staticmethod(_extract))
        return "Add " + " ".join(str(x) for x in identity["nums"]) + ". Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["nums"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        return True  # accepts everything
