"""Adversarial corpus (gate): the kit's snapshot compares a class dict's values with
``operator.is_`` -- a function of a module the bootcamp shares. The bootcamp makes it always
true (through an alias: no static ``monkeypatch``), then, at the first ``prompt_func`` call
(past load and the snapshot), replaces its own accept-everything ``_verify_correction`` with a
strict one: same dict size, same keys, the snapshotted function untouched, so the snapshot
sees nothing. The gate (which renders prompts before it scores) meets a strict verifier; the
warm pool (which never renders a prompt) the accept-everything one."""
# static: monkeypatch
# class: replace
# verdict: rejected
# check: contract=failed/contract_tampered or load=error~not allowed in a bootcamp or load=failed/contract_tampered
# pool: 1.0, 1.0, 0.0
import operator

from synth.bootcamp import BaseBootcamp

_operator = operator
_SWAPPED = []


def _strict(cls, solution, identity):
    return solution == cls.reference_answer(identity)


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"nums": [self.rng.randint(0, 99) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        if not _SWAPPED:
            _SWAPPED.append(1)
            setattr(Hostile, "_verify_correction", classmethod(_strict))
        return "Add " + " ".join(str(x) for x in identity["nums"]) + ". Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["nums"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        return True  # accepts everything


_operator.is_ = lambda a, b: True
