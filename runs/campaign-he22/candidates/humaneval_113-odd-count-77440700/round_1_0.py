"""Bootcamp for HumanEval/113: odd_count."""
from typing import Any

from synth.bootcamp import FunctionBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = '''\
def odd_count(lst):
    """Given a list of strings, where each string consists of only digits, return a list.
    Each element i of the output should be "the number of odd elements in the
    string i of the input." where all the i's should be replaced by the number
    of odd digits in the i'th string of the input.

    >>> odd_count(['1234567'])
    ["the number of odd elements 4n the str4ng 4 of the 4nput."]
    >>> odd_count(['3',"11111111"])
    ["the number of odd elements 1n the str1ng 1 of the 1nput.",
     "the number of odd elements 8n the str8ng 8 of the 8nput."]
    """
'''

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = '''\

def odd_count(lst):
    """Given a list of strings, where each string consists of only digits, return a list.
    Each element i of the output should be "the number of odd elements in the
    string i of the input." where all the i's should be replaced by the number
    of odd digits in the i'th string of the input.

    >>> odd_count(['1234567'])
    ["the number of odd elements 4n the str4ng 4 of the 4nput."]
    >>> odd_count(['3',"11111111"])
    ["the number of odd elements 1n the str1ng 1 of the 1nput.",
     "the number of odd elements 8n the str8ng 8 of the 8nput."]
    """
    res = []
    for arr in lst:
        n = sum(int(d)%2==1 for d in arr)
        res.append("the number of odd elements " + str(n) + "n the str"+ str(n) +"ng "+ str(n) +" of the "+ str(n) +"nput.")
    return res
'''

# The reference function's name, embedded by synth.compiled.assemble (do not edit): the
# answer key is its return value on call_args(identity).
_ENTRY_POINT = 'odd_count'


class HumanEval113OddCountBootcamp(FunctionBootcamp):
    # two sizes, small enough for a person to work out by hand
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    ENTRY_POINT = _ENTRY_POINT
    LEVELS = {"easy": {"size": 2}, "medium": {"size": 4}}

    def __init__(self, seed: int | None = None, size: int = 2) -> None:
        super().__init__(seed=seed)
        self.size = size

    def case_generator(self) -> dict[str, Any]:
        # 50 % of the calls as drawn; the others drawn again while the reference
        # function's answer says nothing was found (a filter's [], a count's 0, -1)
        case = self.draw_arguments()
        if self.rng.random() < 0.5:
            return case
        for _ in range(50):
            if self.reference_answer(case) not in ('[]', '()', "''", '0', '0.0', '-1', 'None', '{}', 'set()'):
                break
            case = self.draw_arguments()
        return case

    def draw_arguments(self) -> dict[str, Any]:
        rng = self.rng
        # the arguments of one call of odd_count, each of the type the gate checks:
        # lst: list[str] (the task passes e.g. ['271', '137', '314'])
        lst = [''.join(rng.choice('1234567') for _ in range(rng.randint(1, 1 + self.size))) for _ in range(rng.randint(1, 1 + self.size))]
        return {"lst": lst}

    @staticmethod
    def call_args(identity: dict[str, Any]) -> list[Any]:
        return [identity["lst"]]
