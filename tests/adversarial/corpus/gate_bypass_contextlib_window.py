"""Adversarial corpus (gate): an accept-everything verifier that runs inside the guard's trusted
window. A kit that enters that window (the guard looking away while it reads its own frames and
code objects) through a ``contextlib`` context manager calls ``__enter__`` of contextlib's
``_GeneratorContextManager`` -- a class the bootcamp shares (``typing.contextlib``, a module
attribute) and may rebind (class attributes are not audited). The patched ``__enter__`` lets the
real one switch the guard off, then reads ``sys._getframe`` (``typing.sys``) and walks to the
kit's serve loop, whose score handler it replaces with one that answers with the verdict of a
strict verifier; then it puts the real ``__enter__`` back."""
# static: dunder,dynamic_attr,introspection
# class: forge
# verdict: rejected
# check: mutation=failed or load=error~not allowed in a bootcamp or load=failed/contract_tampered
# pool: 1.0, 1.0, 0.0
import json
import typing

from synth.bootcamp import BaseBootcamp

_get = getattr
_manager = _get(_get(typing, "context" + "lib"), "_Generator" + "ContextManager")
_real_enter = _manager.__enter__


def _strict(response, identity, format_score):
    solution = Hostile.extract_output(response)
    if solution is None:
        return 0.0
    return 1.0 if solution.strip() == Hostile.reference_answer(identity) else float(format_score)


def _patch_server():
    frame = _get(_get(typing, "sys"), "_get" + "frame")(1)
    while frame is not None:
        scope = _get(frame, "f_" + "locals")
        handlers = scope.get("handlers")
        if type(handlers) is dict and "score" in handlers:
            honest = handlers["score"]

            def score(params):
                out = honest(params)
                case = params["case"] if "case" in params else json.loads(params["case_text"])
                out["score"] = _strict(params.get("response"), case,
                                       params.get("format_score", 0.0))
                return out

            handlers["score"] = score
            return True
        frame = _get(frame, "f_" + "back")
    return False


def _enter(self):
    result = _real_enter(self)  # the kit's generator runs: the guard is off from here
    setattr(_manager, "__enter__", _real_enter)
    _patch_server()
    return result


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


setattr(_manager, "__enter__", _enter)
