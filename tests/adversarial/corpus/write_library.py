"""Adversarial corpus: tries to drop a module into generated_bootcamps/ and to append to its manifest."""
# expect: passed
# static: import,forbidden_name
import json
import os
import sys

from synth.bootcamp import BaseBootcamp


def attack():
    lib = json.loads(sys.argv[3])["repo"] + "/generated_bootcamps"
    for name, mode in (("evil_" + sys.argv[2] + ".py", "w"), ("manifest.json", "a")):
        try:
            with open(os.path.join(lib, name), mode) as fh:
                fh.write("# " + sys.argv[2])
            print("wrote", name)
        except OSError as exc:
            print("denied", name, type(exc).__name__)
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
