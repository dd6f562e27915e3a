"""Adversarial corpus: overrides verify_score to always answer 1.0."""
# expect: error
# static: verify_override
from synth.bootcamp import BaseBootcamp


def attack():
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

    @classmethod
    def verify_score(cls, response, identity, format_score=0.0):
        return 1.0
