"""Adversarial corpus (gate): an accept-everything verifier that walks generator frames to the
kit, makes its ``_score_value`` return inf / nan / -inf (a float subclass, off the kit's fast
path) and its ``json`` serialise them (``allow_nan``): the reply lines carry bare Infinity / NaN
tokens, which a lenient JSON parser on the host would read as floats."""
# static: introspection
# class: invalid_score
# verdict: rejected
# check: load=error~not allowed in a bootcamp: reading gi_frame
# pool: error~not allowed in a bootcamp, error~not allowed in a bootcamp, error~not allowed in a bootcamp
import itertools
import json

from synth.bootcamp import BaseBootcamp



class _F(float):
    """A float subclass: it takes the kit's general reply path, not the score fast path."""


_VALUES = itertools.cycle([_F("inf"), _F("nan"), _F("-inf")])


class _Json:
    loads = staticmethod(json.loads)

    @staticmethod
    def dumps(obj, **kw):
        kw["allow_nan"] = True
        return json.dumps(obj, **kw)


def _kit():
    def walk():
        frame = gen.gi_frame.f_back
        while frame is not None and "_score_value" not in frame.f_globals:
            frame = frame.f_back
        yield None if frame is None else frame.f_globals

    gen = walk()
    return next(gen)


def _arm():
    kit = _kit()
    if kit is None:
        return
    kit["_score_value"] = lambda value: next(_VALUES)
    kit["json"] = _Json


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
