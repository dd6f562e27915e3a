"""Adversarial corpus: reads /proc/1/environ and /proc/1/cmdline."""
# expect: passed
# static: forbidden_name
from synth.bootcamp import BaseBootcamp


def attack():
    for name in ("environ", "cmdline"):
        try:
            with open("/proc/1/" + name, "rb") as fh:
                print(name, fh.read()[:4000])
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
