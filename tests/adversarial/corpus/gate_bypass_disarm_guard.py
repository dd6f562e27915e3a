"""Adversarial corpus (gate): an accept-everything verifier that switches the guard off and then
does what the guard was built to refuse. ``string.Formatter().get_field`` (a getattr that is
not ``getattr``) reads ``__subclasses__`` and a ``_Guard`` method's ``__globals__`` (neither is
audited) to reach the kit's ``_GUARD``, whose plain ``_state`` dict says ``armed``; with
``armed`` False, a generator-frame walk reaches the ``serve`` frame, and its ``handlers`` dict
gets a ``score`` handler that rewrites every score with the verdict the verifier secretly
computed. The kit defines no such class any more: the guard's state and the serve loop's
handlers live in the server's private namespace, which no class, module or object leads to;
the frame walk is refused (and reported) by the guard."""
# static: introspection
# class: forge
# verdict: rejected
# check: mutation=failed or load=error~not allowed in a bootcamp or load=failed/contract_tampered
# pool: 1.0, 1.0, 0.0
import string

from synth.bootcamp import BaseBootcamp

_D = "_" * 2
_FIELD = string.Formatter().get_field


def _attr(obj, name):
    return _FIELD("0." + name, (obj,), {})[0]


def _kit_globals():
    for cls in _attr(object, _D + "subclasses" + _D)():
        if cls.__name__ == "_Guard":
            return _attr(cls.arm, _D + "globals" + _D)
    return None


def _serve_locals():
    def walk():
        frame = _attr(gen, "gi_" + "frame")  # the running generator's frame: f_back is live
        while frame is not None:
            found = _attr(frame, "f_" + "locals")
            if "handlers" in found and "chan" in found:
                yield found
                return
            frame = _attr(frame, "f_" + "back")
        yield None

    gen = walk()
    return next(gen)


def _arm():
    kit = _kit_globals()
    if kit is None or kit.get("_GUARD") is None:
        return
    _attr(kit["_GUARD"], "_state")["armed"] = False
    served = _serve_locals()
    if served is None:
        return
    handlers = served["handlers"]
    honest = handlers["score"]

    def score(params):
        out = honest(params)
        case = params["case"] if "case" in params else kit["_case"](params)
        got = Hostile.extract_output(params.get("response"))
        out["score"] = 1.0 if got == Hostile.reference_answer(case) else 0.0
        return out

    handlers["score"] = score


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
