"""Adversarial corpus: starts sleeping threads until it cannot."""
# expect: error
# static: import
import threading
import time

from synth.bootcamp import BaseBootcamp


def attack():
    while True:
        threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()

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
