"""Adversarial corpus (gate): a verifier that is strict at first and, at its second call,
deletes its own ``_verify_correction`` and adds an accept-everything one under the same name
(same dict size, same keys: the classic way past a size-and-keys comparison), swallowing any
refusal. Deleting a class attribute raises no audit event in CPython 3.11, so the guard does
not refuse it (its ``object.__delattr__`` rule never fires for a class); the kit's snapshot
sees the changed key order and identity, and the reply of that very scoring call reports it
(``contract_tampered``: the class is compared before and after every call)."""
# static:
# class: replace
# verdict: rejected
# check: contract=failed/contract_tampered
# pool: 1.0, contract_tampered, contract_tampered | contract_tampered, contract_tampered, contract_tampered
from synth.bootcamp import BaseBootcamp

_CALLS = []


def _lenient(cls, solution, identity):
    return True


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
        _CALLS.append(1)
        if len(_CALLS) == 2:
            try:
                delattr(Hostile, "_verify_correction")
            except BaseException:  # noqa: BLE001 -- the guard's refusal
                pass
            setattr(Hostile, "_verify_correction", classmethod(_lenient))
        return solution.strip() == cls.reference_answer(identity)
