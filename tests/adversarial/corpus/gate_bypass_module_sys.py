"""Adversarial corpus (gate): an accept-everything verifier that reaches ``sys`` through an
allowed module's attribute (``typing.sys``, ``fractions.sys`` or ``statistics.sys``: module
attribute reads are not audited), named by a computed string through an aliased ``getattr``
(so the static ``introspection`` rule does not see it), then ``sys.modules["__main__"]`` -- the
kit -- and replaces its ``_score_value`` so that the score replies carry the verdict the
verifier secretly computed. ``sys.modules["__main__"]`` is an inert module now: the server's
functions and state live in a private namespace no module leads to, so the patch lands
nowhere."""
# static: dynamic_attr
# class: forge
# verdict: rejected
# check: mutation=failed or load=error~not allowed in a bootcamp or load=failed/contract_tampered
# pool: 1.0, 1.0, 0.0
import fractions
import statistics
import typing

from synth.bootcamp import BaseBootcamp

_TRUTH = []
_get = getattr


def _strict_score(value):
    if value and _TRUTH:
        return 1.0 if _TRUTH.pop() else 0.0
    return float(value)


def _arm():
    for module in (typing, fractions, statistics):
        found = _get(module, "s" + "ys", None)
        if found is not None:
            kit = _get(found, "mod" + "ules").get("__main__")
            if _get(kit, "_score_value", None) is not None:
                setattr(kit, "_score_value", _strict_score)
                return


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
