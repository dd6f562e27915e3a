"""Adversarial corpus: resolves a name (example.invalid: never a real host)."""
# expect: error
# static: import
import socket

from synth.bootcamp import BaseBootcamp


def attack():
    return len(socket.getaddrinfo("example.invalid", 80))

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
