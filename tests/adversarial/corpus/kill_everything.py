"""Adversarial corpus: sends SIGKILL to its parent, to pid 1 and to every process it may signal."""
# expect: passed,error
# static: import
import os
import signal

from synth.bootcamp import BaseBootcamp


def attack():
    for pid in (os.getppid(), 1, -1):
        try:
            os.kill(pid, signal.SIGKILL)
            print("signalled", pid)
        except OSError as exc:
            print("denied", pid, type(exc).__name__)
    return 1

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
