"""Adversarial corpus: writes to a path in the host's /tmp and into a root-only directory chosen by the test."""
# expect: passed
# static: import,forbidden_name
import json
import sys

from synth.bootcamp import BaseBootcamp


def attack():
    ctx = json.loads(sys.argv[3])
    for path in (ctx["outside"], ctx["private_dir"] + "/escaped.txt"):
        try:
            with open(path, "w") as fh:
                fh.write("escaped " + sys.argv[2])
            print("wrote", path)
        except OSError as exc:
            print("denied", path, type(exc).__name__)
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
