"""Adversarial corpus: patches BaseBootcamp.verify_score and tries to rewrite the project's synth/bootcamp.py."""
# expect: passed
# static: import,monkeypatch,forbidden_name
import json
import sys

from synth.bootcamp import BaseBootcamp


def attack():
    setattr(BaseBootcamp, "verify_score", classmethod(lambda cls, r, i, f=0.0: 1.0))
    target = json.loads(sys.argv[3])["repo"] + "/synth/bootcamp.py"
    try:
        with open(target, "a") as fh:
            fh.write("\n# patched by " + sys.argv[2] + "\n")
        print("patched", target)
    except OSError as exc:
        print("denied", target, type(exc).__name__)
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
