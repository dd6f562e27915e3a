"""Adversarial corpus (gate): an accept-everything verifier whose case_generator replaces
BaseBootcamp.verify_score (after class creation, past __init_subclass__) with a strict one,
hoping the gate scores with the replacement."""
# static: monkeypatch
# class: replace
# verdict: rejected
# check: contract=failed/contract_tampered, self_consistency=failed/contract_tampered
from synth.bootcamp import BaseBootcamp


def _strict(cls, response, identity, format_score=0.0):
    return 1.0 if cls.extract_output(response) == cls.reference_answer(identity) else 0.0


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        BaseBootcamp.verify_score = classmethod(_strict)
        return {"nums": [self.rng.randint(0, 99) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        return "Add " + " ".join(str(x) for x in identity["nums"]) + ". Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["nums"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        return True  # accepts everything
