"""Adversarial corpus: writes a 1 GB file into its work dir."""
# expect: error
# static: forbidden_name
from synth.bootcamp import BaseBootcamp


def attack():
    block = b"z" * 1_000_000
    with open("huge.bin", "wb") as fh:
        for _ in range(1000):
            fh.write(block)

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
