"""Adversarial corpus (gate): an accept-everything verifier that gets a frame without any audited
read. Python hands a signal handler the frame that was running: the bootcamp installs a handler
for SIGUSR1 through the ``signal`` module the kit itself imported (``typing.sys.modules``, no
import statement) and raises the signal at once (``signal.raise_signal``: not audited). From
that frame, ``f_back`` and ``f_locals`` (not audited either) lead to the kit's serve loop,
whose score handler it replaces with one that answers with the verdict of a strict verifier."""
# static: dynamic_attr,introspection
# class: forge
# verdict: rejected
# check: mutation=failed or load=error~not allowed in a bootcamp or load=failed/contract_tampered
# pool: 1.0, 1.0, 0.0
import json
import typing

from synth.bootcamp import BaseBootcamp

_get = getattr


def _strict(response, identity, format_score):
    solution = Hostile.extract_output(response)
    if solution is None:
        return 0.0
    return 1.0 if solution.strip() == Hostile.reference_answer(identity) else float(format_score)


def _handlers(frame):
    while frame is not None:
        scope = _get(frame, "f_" + "locals")
        if type(scope.get("handlers")) is dict and "score" in scope["handlers"]:
            return scope["handlers"]
        frame = _get(frame, "f_" + "back")
    return None


def _arm():
    signal = _get(typing, "sys").modules.get("signal")
    if signal is None:
        return
    caught = []
    signal.signal(signal.SIGUSR1, lambda signum, frame: caught.append(frame))
    signal.raise_signal(signal.SIGUSR1)
    handlers = _handlers(caught[0]) if caught else None
    if handlers is None:
        return
    honest = handlers["score"]

    def score(params):
        out = honest(params)
        case = params["case"] if "case" in params else json.loads(params["case_text"])
        out["score"] = _strict(params.get("response"), case, params.get("format_score", 0.0))
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
