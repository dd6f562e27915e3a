"""Adversarial corpus (gate): an accept-everything verifier whose prompt_func swaps the code
object of its own _verify_correction for a strict one (``__code__``): the class dict keeps the
same classmethod object, only the function's code changes at run time."""
# static: dunder
# class: replace
# verdict: rejected
# check: prompt=error~not allowed in a bootcamp: reading __code__, contract=failed/contract_tampered~blocked: reading __code__
# pool: 1.0, error~reading __code__, contract_tampered~blocked: reading __code__ | contract_tampered, contract_tampered, contract_tampered
from synth.bootcamp import BaseBootcamp

_CALLS = []


def _strict(cls, solution, identity):
    return solution == cls.reference_answer(identity)


def _swap():
    Hostile._verify_correction.__func__.__code__ = _strict.__code__


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"nums": [self.rng.randint(0, 99) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        _swap()
        return "Add " + " ".join(str(x) for x in identity["nums"]) + ". Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["nums"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        _CALLS.append(1)
        if len(_CALLS) == 2:
            _swap()  # the warm pool never renders prompts: swap lazily there
        return True  # accepts everything
