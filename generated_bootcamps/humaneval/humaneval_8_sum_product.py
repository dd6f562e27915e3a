"""Bootcamp for HumanEval/8: sum_product."""
from typing import Any

from synth.bootcamp import FunctionBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = '''\
from typing import List, Tuple


def sum_product(numbers: List[int]) -> Tuple[int, int]:
    """ For a given list of integers, return a tuple consisting of a sum and a product of all the integers in a list.
    Empty sum should be equal to 0 and empty product should be equal to 1.
    >>> sum_product([])
    (0, 1)
    >>> sum_product([1, 2, 3, 4])
    (10, 24)
    """
'''

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = '''\
from typing import List, Tuple


def sum_product(numbers: List[int]) -> Tuple[int, int]:
    """ For a given list of integers, return a tuple consisting of a sum and a product of all the integers in a list.
    Empty sum should be equal to 0 and empty product should be equal to 1.
    >>> sum_product([])
    (0, 1)
    >>> sum_product([1, 2, 3, 4])
    (10, 24)
    """
    sum_value = 0
    prod_value = 1

    for n in numbers:
        sum_value += n
        prod_value *= n
    return sum_value, prod_value
'''

# The reference function's name, embedded by synth.compiled.assemble (do not edit): the
# answer key is its return value on call_args(identity).
_ENTRY_POINT = 'sum_product'


class HumanEval8SumProductBootcamp(FunctionBootcamp):
    # three sizes, small enough for a person to work out by hand
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    ENTRY_POINT = _ENTRY_POINT
    LEVELS = {"easy": {"size": 4, "top": 15}, "medium": {"size": 8, "top": 200}, "hard": {"size": 14, "top": 2000}}

    def __init__(self, seed: int | None = None, size: int = 4, top: int = 15) -> None:
        super().__init__(seed=seed)
        self.size, self.top = size, top

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
        # the arguments of one call of sum_product, each of the type the gate checks:
        # numbers: list[int] (the task passes e.g. [1, 2, 3, 4])
        numbers = [rng.randint(0, self.top) for _ in range(rng.randint(0, self.size))]
        return {"numbers": numbers}

    @staticmethod
    def call_args(identity: dict[str, Any]) -> list[Any]:
        return [identity["numbers"]]
