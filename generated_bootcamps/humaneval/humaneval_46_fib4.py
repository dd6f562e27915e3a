"""Bootcamp for HumanEval/46: fib4."""
from typing import Any

from synth.bootcamp import FunctionBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = '''\
def fib4(n: int):
    """The Fib4 number sequence is a sequence similar to the Fibbonacci sequnece that's defined as follows:
    fib4(0) -> 0
    fib4(1) -> 0
    fib4(2) -> 2
    fib4(3) -> 0
    fib4(n) -> fib4(n-1) + fib4(n-2) + fib4(n-3) + fib4(n-4).
    Please write a function to efficiently compute the n-th element of the fib4 number sequence.  Do not use recursion.
    >>> fib4(5)
    4
    >>> fib4(6)
    8
    >>> fib4(7)
    14
    """
'''

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = '''\


def fib4(n: int):
    """The Fib4 number sequence is a sequence similar to the Fibbonacci sequnece that's defined as follows:
    fib4(0) -> 0
    fib4(1) -> 0
    fib4(2) -> 2
    fib4(3) -> 0
    fib4(n) -> fib4(n-1) + fib4(n-2) + fib4(n-3) + fib4(n-4).
    Please write a function to efficiently compute the n-th element of the fib4 number sequence.  Do not use recursion.
    >>> fib4(5)
    4
    >>> fib4(6)
    8
    >>> fib4(7)
    14
    """
    results = [0, 0, 2, 0]
    if n < 4:
        return results[n]

    for _ in range(4, n + 1):
        results.append(results[-1] + results[-2] + results[-3] + results[-4])
        results.pop(0)

    return results[-1]
'''

# The reference function's name, embedded by synth.compiled.assemble (do not edit): the
# answer key is its return value on call_args(identity).
_ENTRY_POINT = 'fib4'


class HumanEval46Fib4Bootcamp(FunctionBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    ENTRY_POINT = _ENTRY_POINT
    LEVELS = {"easy": {"n": 12}, "medium": {"n": 48}, "hard": {"n": 192}}

    def __init__(self, seed: int | None = None, n: int = 6) -> None:
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        # the arguments of one call of fib4, each of the type the gate checks:
        # n: int (the task passes e.g. 10)
        return {"n": rng.randint(1, self.n)}

    @staticmethod
    def call_args(identity: dict[str, Any]) -> list[Any]:
        return [identity["n"]]
