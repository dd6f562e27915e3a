"""Adversarial corpus (gate): no patching at all. The verifier is strict only in a process that
has rendered a prompt -- as the gate's method server does before it scores anything -- and
accepts everything in a process that only scores (the warm pool, a trainer's reward). Every
scoring call of the gate meets the strict verifier; a forged pass if the gate never scores in
a process like the pool's."""
# static:
# class: forge
# verdict: rejected
# check: mutation=failed or consistency=failed/inconsistent_verifier
# pool: 1.0, 1.0, 0.0
from synth.bootcamp import BaseBootcamp

_PROMPTED = []


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"nums": [self.rng.randint(0, 99) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        _PROMPTED.append(1)
        return "Add " + " ".join(str(x) for x in identity["nums"]) + ". Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["nums"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        if _PROMPTED:
            return solution.strip() == cls.reference_answer(identity)
        return True  # accepts everything where nobody looks
