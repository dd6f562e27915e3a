"""Adversarial corpus (gate): the verifier comes from a lenient mixin; prompt_func reassigns
``Hostile.__bases__`` to a strict mixin at run time. The class's own dict and the lenient
mixin stay untouched: only the MRO the kit's scoring path walks changes."""
# static: dunder
# class: replace
# verdict: rejected
# check: prompt=error~not allowed in a bootcamp: setting __bases__, contract=failed/contract_tampered~blocked: setting __bases__
# pool: 1.0, error~setting __bases__, contract_tampered~blocked: setting __bases__ | contract_tampered, contract_tampered, contract_tampered
from synth.bootcamp import BaseBootcamp

_CALLS = []


class _Lenient:
    @classmethod
    def _verify_correction(cls, solution, identity):
        _CALLS.append(1)
        if len(_CALLS) == 2:
            _swap()  # the warm pool never renders prompts: swap lazily there
        return True  # accepts everything


class _Strict:
    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == cls.reference_answer(identity)


def _swap():
    Hostile.__bases__ = (_Strict, BaseBootcamp)


class Hostile(_Lenient, BaseBootcamp):
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
