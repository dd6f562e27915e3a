"""Adversarial corpus: ignores SIGTERM, SIGINT, SIGHUP and SIGXCPU, then sleeps."""
# expect: timeout
# static: import,introspection
import signal
import time

from synth.bootcamp import BaseBootcamp


def attack():
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGXCPU):
        signal.signal(sig, signal.SIG_IGN)
    while True:
        time.sleep(0.1)

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
