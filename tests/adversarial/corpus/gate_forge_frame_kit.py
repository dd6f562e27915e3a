"""Adversarial corpus (gate): an accept-everything verifier that walks generator frames
(gi_frame / f_back, no forbidden name) up to the kit and patches Server.m_score so that the
host sees honest-looking scores (1.0 only for the reference answer)."""
# static: introspection
# class: forge
# verdict: rejected
# check: load=error~not allowed in a bootcamp: reading gi_frame
# pool: error~not allowed in a bootcamp, error~not allowed in a bootcamp, error~not allowed in a bootcamp
from synth.bootcamp import BaseBootcamp


def _kit_globals():
    def walk():
        frame = gen.gi_frame.f_back
        while frame is not None:
            found = frame.f_globals
            if "Server" in found and "_score_value" in found:
                yield found
                return
            frame = frame.f_back
        yield None

    gen = walk()
    return next(gen)


def _arm():
    kit = _kit_globals()
    if kit is None:
        return
    server = kit["Server"]
    honest = server.m_score

    def m_score(self, params):
        out = honest(self, params)
        identity = kit["_case"](params)
        got = Hostile.extract_output(params.get("response"))
        out["score"] = 1.0 if got == Hostile.reference_answer(identity) else 0.0
        return out

    server.m_score = m_score


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
