"""Adversarial corpus: imports the pipeline's own packages (pydantic, synth.models.llm, openai)."""
# expect: error
# static: import
import importlib

from synth.bootcamp import BaseBootcamp


def attack():
    for name in ("pydantic", "openai", "synth.models.llm"):
        importlib.import_module(name)
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
