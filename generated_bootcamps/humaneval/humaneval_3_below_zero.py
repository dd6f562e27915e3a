"""Bootcamp for HumanEval/3: below_zero."""
from typing import Any

from synth.bootcamp import FunctionBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = '''\
from typing import List


def below_zero(operations: List[int]) -> bool:
    """ You're given a list of deposit and withdrawal operations on a bank account that starts with
    zero balance. Your task is to detect if at any point the balance of account fallls below zero, and
    at that point function should return True. Otherwise it should return False.
    >>> below_zero([1, 2, 3])
    False
    >>> below_zero([1, 2, -4, 5])
    True
    """
'''

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = '''\
from typing import List


def below_zero(operations: List[int]) -> bool:
    """ You're given a list of deposit and withdrawal operations on a bank account that starts with
    zero balance. Your task is to detect if at any point the balance of account fallls below zero, and
    at that point function should return True. Otherwise it should return False.
    >>> below_zero([1, 2, 3])
    False
    >>> below_zero([1, 2, -4, 5])
    True
    """
    balance = 0

    for op in operations:
        balance += op
        if balance < 0:
            return True

    return False
'''

# The reference function's name, embedded by synth.compiled.assemble (do not edit): the
# answer key is its return value on call_args(identity).
_ENTRY_POINT = 'below_zero'


class HumanEval3BelowZeroBootcamp(FunctionBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    ENTRY_POINT = _ENTRY_POINT
    YES_NO_TASK = True  # the function returns a bool
    # three sizes, small enough for a person to work out by hand
    LEVELS = {"easy": {"size": 4, "top": 12}, "medium": {"size": 8, "top": 18}, "hard": {"size": 14, "top": 24}}

    def __init__(self, seed: int | None = None, size: int = 4, top: int = 12) -> None:
        super().__init__(seed=seed)
        self.size, self.top = size, top

    def case_generator(self) -> dict[str, Any]:
        # half the calls answer True, half False: on random arguments a predicate is
        # mostly one of them. The answer is the reference function's own.
        want = "True" if self.rng.random() < 0.5 else "False"
        case = self.draw_arguments()
        for _ in range(60):
            if self.reference_answer(case) == want:
                break
            case = self.draw_arguments()
        return case

    def draw_arguments(self) -> dict[str, Any]:
        rng = self.rng
        # the arguments of one call of below_zero, each of the type the gate checks:
        # operations: list[int] (the task passes e.g. [1, -1, 2, -2, 5, -5, 4, -4])
        operations = [rng.randint(-self.top, self.top) for _ in range(rng.randint(0, self.size))]
        return {"operations": operations}

    @staticmethod
    def call_args(identity: dict[str, Any]) -> list[Any]:
        return [identity["operations"]]
