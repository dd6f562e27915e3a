"""Bootcamp for HumanEval/13: greatest_common_divisor."""
from typing import Any

from synth.bootcamp import FunctionBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = '''\
def greatest_common_divisor(a: int, b: int) -> int:
    """ Return a greatest common divisor of two integers a and b
    >>> greatest_common_divisor(3, 5)
    1
    >>> greatest_common_divisor(25, 15)
    5
    """
'''

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = '''\


def greatest_common_divisor(a: int, b: int) -> int:
    """ Return a greatest common divisor of two integers a and b
    >>> greatest_common_divisor(3, 5)
    1
    >>> greatest_common_divisor(25, 15)
    5
    """
    while b:
        a, b = b, a % b
    return a
'''

# The reference function's name, embedded by synth.compiled.assemble (do not edit): the
# answer key is its return value on call_args(identity).
_ENTRY_POINT = 'greatest_common_divisor'


class HumanEval13GreatestCommonDivisorBootcamp(FunctionBootcamp):
    # three sizes, small enough for a person to work out by hand
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    ENTRY_POINT = _ENTRY_POINT
    LEVELS = {"easy": {"top": 15}, "medium": {"top": 200}, "hard": {"top": 2000}}

    def __init__(self, seed: int | None = None, top: int = 15) -> None:
        super().__init__(seed=seed)
        self.top = top

    def case_generator(self) -> dict[str, Any]:
        # 40 % of the calls as drawn; the others drawn again while the reference
        # function's answer says nothing was found (a filter's [], a count's 0, -1)
        case = self.draw_arguments()
        if self.rng.random() < 0.4:
            return case
        for _ in range(60):
            if self.reference_answer(case) not in ('[]', '()', "''", '0', '0.0', '-1', 'None', '{}', 'set()'):
                break
            case = self.draw_arguments()
        return case

    def draw_arguments(self) -> dict[str, Any]:
        rng = self.rng
        # the arguments of one call of greatest_common_divisor, each of the type the gate checks:
        # a: int (the task passes e.g. 144)
        # b: int (the task passes e.g. 15)
        a = rng.randint(3, 3 + self.top)
        b = rng.randint(5, 5 + self.top)
        return {"a": a, "b": b}

    @staticmethod
    def call_args(identity: dict[str, Any]) -> list[Any]:
        return [identity["a"], identity["b"]]
