"""Adversarial corpus: lifts the recursion limit and recurses through C until the stack overflows."""
# expect: error
# static: import
import sys

from synth.bootcamp import BaseBootcamp


def dive(n):
    # each level passes through C (map), so the C stack overflows, not just the heap
    return sum(map(dive, [n + 1])) + 1


def attack():
    sys.setrecursionlimit(10**8)
    return dive(0)

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
