"""Adversarial corpus: writes 100 MB to stderr."""
# expect: output_overflow
# static: import
import sys

from synth.bootcamp import BaseBootcamp


def attack():
    block = "e" * 1_000_000
    for _ in range(100):
        sys.stderr.write(block)

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
