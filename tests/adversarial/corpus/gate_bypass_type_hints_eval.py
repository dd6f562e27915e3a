"""Adversarial corpus (gate): an accept-everything verifier that evaluates code without naming
``eval``: ``typing.get_type_hints`` evaluates a string annotation in the function's globals
(the guard does not refuse the ``compile`` and ``exec`` audit events). The annotation imports
``sys`` -- already loaded, so the import raises no audit event -- and replaces the kit's
``_score_value`` (``sys.modules["__main__"]``) so that the score replies carry the verdict the
verifier secretly computed."""
# static: introspection
# class: forge
# verdict: rejected
# known-hole: in-process forgery of the method server (the bootcamp patches the kit it runs in, so every sandboxed server, the pool included, reports the forged strict verifier; the static gate flags the technique, and in-process consumers must trust the library)
# check: mutation=failed or load=error~not allowed in a bootcamp or load=failed/contract_tampered
# pool: 1.0, 1.0, 0.0
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
