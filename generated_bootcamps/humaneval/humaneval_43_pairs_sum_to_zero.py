"""Bootcamp for HumanEval/43: pairs_sum_to_zero."""
from typing import Any

from synth.bootcamp import FunctionBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = '''\
def pairs_sum_to_zero(l):
    """
    pairs_sum_to_zero takes a list of integers as an input.
    it returns True if there are two distinct elements in the list that
    sum to zero, and False otherwise.
    >>> pairs_sum_to_zero([1, 3, 5, 0])
    False
    >>> pairs_sum_to_zero([1, 3, -2, 1])
    False
    >>> pairs_sum_to_zero([1, 2, 3, 7])
    False
    >>> pairs_sum_to_zero([2, 4, -5, 3, 5, 7])
    True
    >>> pairs_sum_to_zero([1])
    False
    """
'''

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = '''\


def pairs_sum_to_zero(l):
    """
    pairs_sum_to_zero takes a list of integers as an input.
    it returns True if there are two distinct elements in the list that
    sum to zero, and False otherwise.
    >>> pairs_sum_to_zero([1, 3, 5, 0])
    False
    >>> pairs_sum_to_zero([1, 3, -2, 1])
    False
    >>> pairs_sum_to_zero([1, 2, 3, 7])
    False
    >>> pairs_sum_to_zero([2, 4, -5, 3, 5, 7])
    True
    >>> pairs_sum_to_zero([1])
    False
    """
    for i, l1 in enumerate(l):
        for j in range(i + 1, len(l)):
            if l1 + l[j] == 0:
                return True
    return False
'''

# The reference function's name, embedded by synth.compiled.assemble (do not edit): the
# answer key is its return value on call_args(identity).
_ENTRY_POINT = 'pairs_sum_to_zero'


class HumanEval43PairsSumToZeroBootcamp(FunctionBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    ENTRY_POINT = _ENTRY_POINT
    YES_NO_TASK = True  # the function returns a bool
    # three sizes, small enough for a person to work out by hand
    LEVELS = {"easy": {"size": 4, "top": 15}, "medium": {"size": 8, "top": 200}, "hard": {"size": 14, "top": 2000}}

    def __init__(self, seed: int | None = None, size: int = 4, top: int = 15) -> None:
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
        # the arguments of one call of pairs_sum_to_zero, each of the type the gate checks:
        # l: list[int] (the task passes e.g. [-3, 9, -1, 3, 2, 30])
        l = [rng.randint(-self.top, self.top) for _ in range(rng.randint(1, 1 + self.size))]
        return {"l": l}

    @staticmethod
    def call_args(identity: dict[str, Any]) -> list[Any]:
        return [identity["l"]]
