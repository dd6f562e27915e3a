"""Adversarial corpus (gate): an accept-everything verifier that reaches sys._getframe through
``dataclasses.sys`` (no forbidden name), finds the kit's Server instance among the callers'
locals and swaps its captured base verify_score for one that matches the reference answer."""
# static: introspection
# class: forge
# verdict: rejected
# check: load=error~not allowed in a bootcamp: sys._getframe
import dataclasses

from synth.bootcamp import BaseBootcamp


def _forged(cls, response, identity, format_score=0.0):
    got = cls.extract_output(response)
    return 1.0 if got == cls.reference_answer(identity) else 0.0


def _arm():
    frame = dataclasses.sys._getframe(1)
    while frame is not None:
        server = frame.f_locals.get("self")
        if server is not None and hasattr(server, "base_verify"):
            server.base_verify = classmethod(_forged)
            return
        frame = frame.f_back


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
