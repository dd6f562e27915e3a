"""Adversarial corpus (gate): an accept-everything verifier built by a metaclass whose
``__getattribute__`` serves a strict _verify_correction to anyone who looks it up on the
class (the kit's scoring path does), while the class dict keeps the lenient one."""
# static: dunder
# class: replace
# verdict: rejected
# check: load=failed/contract_tampered
# pool: contract_tampered, contract_tampered, contract_tampered
from synth.bootcamp import BaseBootcamp


def _strict(cls, solution, identity):
    return solution == cls.reference_answer(identity)


class _Meta(type):
    def __getattribute__(cls, name):
        if name == "_verify_correction":
            return classmethod(_strict).__get__(None, cls)
        return type.__getattribute__(cls, name)


class Hostile(BaseBootcamp, metaclass=_Meta):
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
        return True  # accepts everything
