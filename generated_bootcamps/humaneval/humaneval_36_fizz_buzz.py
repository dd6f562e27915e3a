"""Bootcamp for HumanEval/36: fizz_buzz."""
from typing import Any

from synth.bootcamp import FunctionBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = '''\
def fizz_buzz(n: int):
    """Return the number of times the digit 7 appears in integers less than n which are divisible by 11 or 13.
    >>> fizz_buzz(50)
    0
    >>> fizz_buzz(78)
    2
    >>> fizz_buzz(79)
    3
    """
'''

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = '''\


def fizz_buzz(n: int):
    """Return the number of times the digit 7 appears in integers less than n which are divisible by 11 or 13.
    >>> fizz_buzz(50)
    0
    >>> fizz_buzz(78)
    2
    >>> fizz_buzz(79)
    3
    """
    ns = []
    for i in range(n):
        if i % 11 == 0 or i % 13 == 0:
            ns.append(i)
    s = ''.join(list(map(str, ns)))
    ans = 0
    for c in s:
        ans += (c == '7')
    return ans
'''

# The reference function's name, embedded by synth.compiled.assemble (do not edit): the
# answer key is its return value on call_args(identity).
_ENTRY_POINT = 'fizz_buzz'


class HumanEval36FizzBuzzBootcamp(FunctionBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    ENTRY_POINT = _ENTRY_POINT
    LEVELS = {"easy": {"n": 200}, "medium": {"n": 400}, "hard": {"n": 800}}

    def __init__(self, seed: int | None = None, n: int = 100) -> None:
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        # the arguments of one call of fizz_buzz, each of the type the gate checks:
        # n: int (the task passes e.g. 100000)
        return {"n": rng.randint(1, self.n)}

    @staticmethod
    def call_args(identity: dict[str, Any]) -> list[Any]:
        return [identity["n"]]
