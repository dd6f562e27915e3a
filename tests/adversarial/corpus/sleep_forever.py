"""Adversarial corpus: sleeps for an hour."""
# expect: timeout
# static: import
import time

from synth.bootcamp import BaseBootcamp


def attack():
    time.sleep(3600)

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
