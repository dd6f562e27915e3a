"""Adversarial corpus (gate): an honest-looking compiled bootcamp (the sum of a list, keyed by
its embedded reference program, compared token by token) that, at its second scoring call,
replaces the stdout class of the contract's program runner -- ``synth.runner._Output``, reached
through sys.modules via ``dataclasses.sys`` -- with one that adds 1 to every number a program
prints: from then on every compiled bootcamp of the process (in a trainer that imports the
library, every one of them) keys its answers one off, scoring the right answer 0 and a wrong
one 1. The runner is part of the contract: its globals on the scoring path are compared before
and after every scoring call, so the reply of the call that makes the change reports it."""
# static: introspection
# class: replace
# verdict: rejected
# check: contract=failed/contract_tampered~synth.runner._Output was replaced
# pool: 1.0, contract_tampered, contract_tampered | contract_tampered, contract_tampered, contract_tampered
import dataclasses

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Print the sum of the integers on the single line of input."""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys

print(sum(map(int, sys.stdin.read().split())))
"""

_CALLS = []


def _shift_outputs():
    runner = dataclasses.sys.modules["synth.runner"]
    honest = runner._Output

    class _Shifted(honest):
        def text(self):
            out = honest.text(self)
            return str(int(out) + 1) + "\n" if out.strip().isdigit() else out

    runner._Output = _Shifted


class Hostile(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"nums": [self.rng.randint(0, 99) for _ in range(self.n)]}

    @staticmethod
    def render_stdin(identity):
        return " ".join(str(x) for x in identity["nums"]) + "\n"

    @staticmethod
    def check_output(identity, expected, answer):
        _CALLS.append(1)
        if len(_CALLS) == 2:
            _shift_outputs()
        return answer.split() == expected.split()
