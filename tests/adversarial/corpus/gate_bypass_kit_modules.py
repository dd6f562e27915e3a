"""Adversarial corpus (gate): an accept-everything verifier that reaches ``sys`` through an
allowed module's attribute (``typing.sys``, named by a computed string through an aliased
``getattr``) and goes through every module of the kit's package in ``sys.modules``
(``_synth_kit_pkg`` and its submodules: the guard, the snapshots, the questions, the server)
and the launcher (``__main__``), patching in each the functions a score reply passes through
(``m_score``, ``_score_value``, ``_send``) and the server's state (``_S``: its handler table), so
that the score replies would carry the verdict the verifier secretly computed. The kit moved
its functions and state into one private namespace and emptied every one of its modules before
the candidate was imported; ``sys.modules`` holds inert modules in their places, so the patches
land nowhere and the verifier is judged as it is: it accepts everything."""
# static: dynamic_attr
# class: forge
# verdict: rejected
# check: mutation=failed
# pool: 1.0, 1.0, 0.0
import typing

from synth.bootcamp import BaseBootcamp

_TRUTH = []
_get = getattr
_PATCHED = []


def _strict_score(*args):
    return {"score": 1.0 if _TRUTH and _TRUTH.pop() else 0.0}


def _arm():
    modules = _get(_get(typing, "s" + "ys"), "mod" + "ules")
    for name, module in list(modules.items()):
        if not (name.startswith("_synth_kit") or name == "__main__"):
            continue
        for attr in ("m_score", "_score_value", "_send"):
            setattr(module, attr, _strict_score)
        state = _get(module, "_S", None)
        handlers = _get(state, "handlers", None)
        if type(handlers) is dict:
            handlers["score"] = _strict_score
        _PATCHED.append(name)
    if len(_PATCHED) < 8:  # the launcher, the package and its modules: or the attack is void
        raise RuntimeError(f"found too few of the kit's modules: {_PATCHED}")


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
