"""Adversarial corpus (gate): an accept-everything verifier that, in prompt_func, rebinds the
contract module's globals -- ``synth.bootcamp.math`` (reached through sys.modules via
``dataclasses.sys``) and ANSWER_OPEN -- and swaps the code of BaseBootcamp.extract_output."""
# static: dunder,introspection,monkeypatch
# class: replace
# verdict: rejected
# check: prompt=error~not allowed in a bootcamp: reading __code__, contract=failed/contract_tampered~synth.bootcamp.math was replaced
import dataclasses

from synth.bootcamp import BaseBootcamp


class _Math:
    @staticmethod
    def isfinite(value):
        return True


def _extract(response):
    return None


def _patch():
    contract = dataclasses.sys.modules["synth.bootcamp"]
    contract.math = _Math
    contract.ANSWER_OPEN = "<ans>"
    BaseBootcamp.extract_output.__code__ = _extract.__code__


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"nums": [self.rng.randint(0, 99) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        _patch()
        return "Add " + " ".join(str(x) for x in identity["nums"]) + ". Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["nums"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        return True  # accepts everything
