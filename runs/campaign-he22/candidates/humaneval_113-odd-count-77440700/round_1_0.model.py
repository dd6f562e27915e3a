"""Bootcamp for HumanEval/113: odd_count."""
from typing import Any

from synth.bootcamp import FunctionBootcamp


class HumanEval113OddCountBootcamp(FunctionBootcamp):
    # two sizes, small enough for a person to work out by hand
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
