"""Adversarial corpus: fork bomb: every process forks forever, sleeping a little between attempts."""
# expect: timeout
# static: import
import os
import time

from synth.bootcamp import BaseBootcamp


def attack():
    while True:
        try:
            os.fork()
        except OSError:
            pass
        time.sleep(0.02)

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
