"""Adversarial corpus: memory bomb: allocate 10 MB blocks until the memory limit (statically innocent)."""
# expect: oom
# static: 
from synth.bootcamp import BaseBootcamp


def attack():
    hoard = []
    while True:
        hoard.append(bytearray(10_000_000))

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
