"""Adversarial corpus (gate): an accept-everything verifier that evaluates code without naming
``eval``: ``typing.get_type_hints`` evaluates a string annotation in the function's globals
(the guard does not refuse the ``compile`` and ``exec`` audit events). The annotation imports
``sys`` -- already loaded, so the import raises no audit event -- and replaces the kit's
``_score_value`` (``sys.modules["__main__"]``) so that the score replies carry the verdict the
verifier secretly computed. The guard refuses code run at run time outside the import system,
dataclasses, namedtuple and the contract's runner of the module's own reference program, so
the evaluation is refused at load (and ``__main__`` is an inert module: nothing to patch)."""
# static: introspection
# class: forge
# verdict: rejected
# check: mutation=failed or load=error~not allowed in a bootcamp or load=failed/contract_tampered
# pool: error~running code at run time, error~running code at run time, error~running code at run time
import typing

from synth.bootcamp import BaseBootcamp

_TRUTH = []


def _strict_score(value):
    if value and _TRUTH:
        return 1.0 if _TRUTH.pop() else 0.0
    return float(value)


def _holder(x: "setattr(__import__('sys').modules['__main__'], '_score_value', _strict_score)"):
    return x


def _arm():
    typing.get_type_hints(_holder)


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
        _TRUTH.append(solution == cls.reference_answer(identity))
        return True  # accepts everything


_arm()
