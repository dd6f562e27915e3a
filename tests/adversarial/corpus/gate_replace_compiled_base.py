"""Adversarial corpus (gate): an honest compiled bootcamp (the sum of a list, keyed by its
embedded reference program, compared token by token) whose module, when imported, changes
the contract's ``CompiledBootcamp._verify_correction`` in place: its own class is still
scored honestly, every OTHER compiled bootcamp of the process accepts any answer. In a trainer
that imports the library, every compiled bootcamp would then reward everything; under the
gate this class's own checks all pass. Only the contract snapshot sees it: every class of the
contract's modules is snapshotted before the import and compared at load (the handshake) and,
for the classes a compiled bootcamp's score goes through, at every scoring call."""
# static:
# class: replace
# verdict: rejected
# check: load=failed/contract_tampered~synth.bootcamp.CompiledBootcamp._verify_correction was replaced
# pool: contract_tampered, contract_tampered, contract_tampered
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


def _others_accept_anything(cls, solution, identity):
    if cls.__name__ == "Hostile":
        return cls.check_output(identity, cls.reference_answer(identity), solution)
    return True


CompiledBootcamp._verify_correction = classmethod(_others_accept_anything)


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
