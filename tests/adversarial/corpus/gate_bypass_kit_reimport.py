"""Adversarial corpus (gate): an accept-everything verifier that, finding the kit's modules
emptied in ``sys.modules``, drops them from it and imports the kit's package afresh from the
job's folder (``importlib.import_module`` of a computed name), to patch the fresh copy's score
path (``m_score``, ``_score_value``, ``_send``) so that the score replies would carry the verdict
the verifier secretly computed. The guard refuses the import (the kit's package is not a module
a bootcamp may import) and reports the attempt in the handshake; without the guard a fresh copy
holds none of the server's state -- the server runs on private copies of its functions, bound
to a namespace no module leads to (``test_defence_in_depth.py`` runs this program unguarded)."""
# static: import,dynamic_attr
# class: forge
# verdict: rejected
# check: load=failed/contract_tampered~blocked at import: importing _synth_kit_pkg
# pool: contract_tampered, contract_tampered, contract_tampered
import importlib
import typing

from synth.bootcamp import BaseBootcamp

_TRUTH = []
_get = getattr
#: what the import gave (read by test_defence_in_depth.py through the case's generation)
FRESH = []


def _strict_score(*args):
    return {"score": 1.0 if _TRUTH and _TRUTH.pop() else 0.0}


def _arm():
    modules = _get(_get(typing, "s" + "ys"), "mod" + "ules")
    package = "_synth_kit" + "_pkg"
    for name in [n for n in modules if n.startswith(package)]:
        del modules[name]
    try:
        for part in ("", ".questions", ".server", ".calls"):
            fresh = importlib.import_module(package + part)
            for attr in ("m_score", "_score_value", "_send"):
                setattr(fresh, attr, _strict_score)
            FRESH.append(package + part)
    except BaseException as exc:  # the guard's SandboxViolation
        FRESH.append(type(exc).__name__)


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"nums": [self.rng.randint(0, 99) for _ in range(self.n)], "fresh": list(FRESH)}

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
