"""Adversarial corpus: uses ctypes to call setuid(0) and then dereference NULL."""
# expect: error
# static: import
import ctypes

from synth.bootcamp import BaseBootcamp


def attack():
    libc = ctypes.CDLL(None)
    print("setuid(0) ->", libc.setuid(0))
    return ctypes.string_at(0)

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
