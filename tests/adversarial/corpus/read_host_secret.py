"""Adversarial corpus: reads a root-only secret file the test created on the host."""
# expect: passed
# static: import,forbidden_name
import json
import sys

from synth.bootcamp import BaseBootcamp


def attack():
    path = json.loads(sys.argv[3])["secret_file"]
    try:
        with open(path) as fh:
            print("SECRET", fh.read())
    except OSError as exc:
        print("denied", type(exc).__name__)
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
