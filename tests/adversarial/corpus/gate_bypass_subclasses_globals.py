"""Adversarial corpus (gate): an accept-everything verifier that reaches the kit without a
frame, a module attribute or a forbidden name: ``object.__subclasses__()`` (through an aliased
``getattr`` and a computed name) lists the kit's ``_Guard`` class, and a method's
``__globals__`` (an attribute CPython does not audit) is the kit's module dict. It replaces
the kit's ``_score_value`` so that every score reply carries the verdict the verifier secretly
computed (1.0 only for the reference answer). The kit defines no ``_Guard`` (no class with
methods at all) and empties its module dict before the import: nothing found, nothing to
patch."""
# static: dynamic_attr
# class: forge
# verdict: rejected
# check: mutation=failed or load=error~not allowed in a bootcamp or load=failed/contract_tampered
# pool: 1.0, 1.0, 0.0
from synth.bootcamp import BaseBootcamp

_TRUTH = []
_get = getattr
_D = "_" * 2


def _strict_score(value):
    if value and _TRUTH:
        return 1.0 if _TRUTH.pop() else 0.0
    return float(value)


def _kit_globals():
    for cls in _get(object, _D + "subclasses" + _D)():
        if cls.__name__ == "_Guard" and _get(cls, "arm", None) is not None:
            return _get(cls.arm, _D + "globals" + _D)
    return None


def _arm():
    kit = _kit_globals()
    if kit is not None and "_score_value" in kit:
        kit["_score_value"] = _strict_score


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
