"""Adversarial corpus: looks for OPENAI_API_KEY in its environment and in /proc/*/environ."""
# expect: passed
# static: import,forbidden_name
import os

from synth.bootcamp import BaseBootcamp


def attack():
    print("ENV", dict(os.environ))
    print("KEY", os.environ.get("OPENAI_API_KEY"))
    for pid in ["self", "1", str(os.getppid())] + os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/environ", "rb") as fh:
                print("PROC", pid, fh.read()[:4000])
        except OSError:
            pass
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
