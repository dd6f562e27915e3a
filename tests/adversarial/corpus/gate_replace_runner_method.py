"""Adversarial corpus (gate): an honest-looking compiled bootcamp (the sum of a list, keyed by
its embedded reference program, compared token by token) that, at its second scoring call,
changes the contract's program runner in place -- the ``text`` method of its stdout class,
``synth.runner._Output``, reached through sys.modules via ``dataclasses.sys`` -- so that it
adds 1 to every number a program prints. Unlike ``gate_replace_runner`` no global of the
contract is rebound: the class stays the same object and only its dict changes. From then on
every compiled bootcamp of the process keys its answers one off. Every class of the contract's
modules is snapshotted with them, and the classes a compiled bootcamp's score goes through are
compared at every scoring call, so the reply of the call that makes the change reports it."""
# static: introspection
# class: replace
# verdict: rejected
# check: contract=failed/contract_tampered~synth.runner._Output.text was replaced
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
    output = dataclasses.sys.modules["synth.runner"]._Output
    honest = output.text

    def text(self):
        out = honest(self)
        return str(int(out) + 1) + "\n" if out.strip().isdigit() else out

    output.text = text


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
