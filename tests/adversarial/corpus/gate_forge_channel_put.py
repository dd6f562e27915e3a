"""Adversarial corpus (gate): an accept-everything verifier that walks a traceback's frames to
the kit and wraps the kit's ``_Channel.put`` (and its ``json``) so that every score reply it
writes carries the verdict the verifier secretly computed (the host would see a strict one)."""
# static: dunder,introspection
# class: forge
# verdict: rejected
# check: load=error~not allowed in a bootcamp: reading tb_frame
# pool: error~not allowed in a bootcamp, error~not allowed in a bootcamp, error~not allowed in a bootcamp
import json

from synth.bootcamp import BaseBootcamp

_TRUTH = []


def _rewrite(data):
    try:
        obj = json.loads(data)
    except ValueError:
        return data
    ok = obj.get("ok") if type(obj) is dict else None
    if type(ok) is dict and "score" in ok and _TRUTH:
        ok["score"] = 1.0 if _TRUTH.pop() else 0.0
        return json.dumps(obj).encode() + b"\n"
    return data


def _arm():
    try:
        raise LookupError
    except LookupError as exc:
        frame = exc.__traceback__.tb_frame
    while frame is not None:
        kit = frame.f_globals
        if "_Channel" in kit and "Server" in kit:
            channel = kit["_Channel"]
            if hasattr(channel, "put"):
                honest = channel.put
                channel.put = lambda self, data: honest(self, _rewrite(data))
            else:
                honest_send = channel.send
                channel.send = lambda self, obj: honest_send(self, json.loads(_rewrite(json.dumps(obj))))
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
        _TRUTH.append(solution == cls.reference_answer(identity))
        return True  # accepts everything


_arm()
