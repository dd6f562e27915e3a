"""Compiled bootcamp; task: "Nearest Ratings" (closest pair of distinct ratings, t test cases).

Test fixture of the input-validity corpus (set_a): the correct bootcamp of the task.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

SUM_LIMIT = 120  # the statement: the sum of n over all test cases does not exceed 120


class NearestRatingsBootcamp(CompiledBootcamp):
    """Smallest difference of two ratings and the number of pairs achieving it."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_t": 3, "min_n": 2, "max_n": 6, "max_value": 20},
        "medium": {"max_t": 4, "min_n": 4, "max_n": 12, "max_value": 1000},
        "hard": {"max_t": 8, "min_n": 8, "max_n": 30, "max_value": 10**9},
    }

    def __init__(self, seed: int | None = None, max_t: int = 4, min_n: int = 4,
                 max_n: int = 12, max_value: int = 1000) -> None:
        super().__init__(seed=seed)
        if not 2 <= min_n <= max_n <= 100 or not 1 <= max_t <= 100:
            raise ValueError("need 2 <= min_n <= max_n <= 100 and 1 <= max_t <= 100")
        if not max_n <= max_value <= 10**9:
            raise ValueError("need max_n <= max_value <= 10^9 (the ratings are distinct)")
        self.max_t, self.min_n, self.max_n = max_t, min_n, max_n
        self.max_value = max_value

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        t = rng.randint(1, self.max_t)
        budget = SUM_LIMIT
        tests = []
        for k in range(t):
            left = t - k - 1  # every later test case still needs at least 2 members
            n = rng.randint(self.min_n, self.max_n)
            n = max(2, min(n, budget - 2 * left))
            budget -= n
            a = rng.sample(range(1, self.max_value + 1), n)
            if n >= 3 and rng.random() < 0.3:  # several closest pairs
                step = rng.randint(1, max(1, self.max_value // (2 * n)))
                base = rng.randint(1, self.max_value - step * (n - 1))
                a = [base + step * i for i in range(n)]
                rng.shuffle(a)
            tests.append(a)
        return {"tests": tests}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [str(len(identity["tests"]))]
        for a in identity["tests"]:
            lines.append(str(len(a)))
            lines.append(" ".join(map(str, a)))
        return "\n".join(lines) + "\n"
