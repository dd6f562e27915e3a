"""Adversarial corpus: leaves a setsid() grandchild that sleeps for a minute holding stdout and stderr."""
# expect: passed
# static: import,introspection
import os
import sys

from synth.bootcamp import BaseBootcamp


def attack():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", sys.argv[2]])
        os._exit(0)
    os.wait()
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
