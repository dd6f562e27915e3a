"""Adversarial corpus: opens pipes until it runs out of file descriptors."""
# expect: error
# static: import
import os

from synth.bootcamp import BaseBootcamp


def attack():
    held = []
    while True:
        held.append(os.pipe())

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
