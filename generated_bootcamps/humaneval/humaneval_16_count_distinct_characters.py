"""Bootcamp for HumanEval/16: count_distinct_characters."""
from typing import Any

from synth.bootcamp import FunctionBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = '''\
def count_distinct_characters(string: str) -> int:
    """ Given a string, find out how many distinct characters (regardless of case) does it consist of
    >>> count_distinct_characters('xyzXYZ')
    3
    >>> count_distinct_characters('Jerry')
    4
    """
'''

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = '''\


def count_distinct_characters(string: str) -> int:
    """ Given a string, find out how many distinct characters (regardless of case) does it consist of
    >>> count_distinct_characters('xyzXYZ')
    3
    >>> count_distinct_characters('Jerry')
    4
    """
    return len(set(string.lower()))
'''

# The reference function's name, embedded by synth.compiled.assemble (do not edit): the
# answer key is its return value on call_args(identity).
_ENTRY_POINT = 'count_distinct_characters'


class HumanEval16CountDistinctCharactersBootcamp(FunctionBootcamp):
    # three sizes, small enough for a person to work out by hand
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    ENTRY_POINT = _ENTRY_POINT
    LEVELS = {"easy": {"size": 4}, "medium": {"size": 8}, "hard": {"size": 14}}

    def __init__(self, seed: int | None = None, size: int = 4) -> None:
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
        # the arguments of one call of count_distinct_characters, each of the type the gate checks:
        # string: str (the task passes e.g. 'Jerry jERRY JeRRRY')
        string = ''.join(rng.choice(' AEJRXYZabcdejrxyz') for _ in range(rng.randint(0, self.size)))
        return {"string": string}

    @staticmethod
    def call_args(identity: dict[str, Any]) -> list[Any]:
        return [identity["string"]]
