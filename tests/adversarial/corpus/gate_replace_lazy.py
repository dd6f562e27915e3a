"""Adversarial corpus (gate): an accept-everything verifier that, after its second scoring
call, deletes its own _verify_correction and rebinds BaseBootcamp._verify_correction to a
strict one (lazily: past load, past the first checks), so the later checks and a warm pool's
later calls would see a strict verifier. The class and the contract are compared before and
after every scoring call, so the reply of the call that makes the change reports it."""
# static: monkeypatch
# class: replace
# verdict: rejected
# check: contract=failed/contract_tampered, self_consistency=failed/contract_tampered
# pool: 1.0, contract_tampered, contract_tampered | contract_tampered, contract_tampered, contract_tampered
from synth.bootcamp import BaseBootcamp

_CALLS = []


def _strict(cls, solution, identity):
    return solution == cls.reference_answer(identity)


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
        _CALLS.append(1)
        if len(_CALLS) == 2:
            delattr(Hostile, "_verify_correction")
            setattr(BaseBootcamp, "_verify_correction", classmethod(_strict))
        return True  # accepts everything
