"""Adversarial corpus: busy loop in the case generator (statically innocent)."""
# expect: timeout
# static: 
from synth.bootcamp import BaseBootcamp


def attack():
    n = 0
    while True:
        n += 1

class Hostile(BaseBootcamp):
    def case_generator(self):
        return {"n": attack()}

    @staticmethod
    def prompt_func(identity):
        return "Say <answer>1</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return "1"

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == "1"
