"""Adversarial corpus (gate): an accept-everything verifier that reaches the kit through
``dataclasses.sys.modules["__main__"]`` and replaces its ``_score_value`` so that the score
replies carry 2.0, -0.5, true, "1.0", [1.0], null and an object in turn. The kit keeps nothing
there (``__main__`` is an inert module; the server's functions and state live in a private
namespace), so the patch lands nowhere and the verifier is judged as it is: it accepts
everything."""
# static: introspection
# class: invalid_score
# verdict: rejected
# check: mutation=failed
# pool: 1.0, 1.0, 0.0
import dataclasses
import itertools

from synth.bootcamp import BaseBootcamp

_VALUES = itertools.cycle([2.0, -0.5, True, "1.0", [1.0], None, {"score": 1.0}])


def _arm():
    kit = dataclasses.sys.modules.get("__main__")
    if kit is not None and hasattr(kit, "_score_value"):
        kit._score_value = lambda value: next(_VALUES)


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
        return True  # accepts everything


_arm()
