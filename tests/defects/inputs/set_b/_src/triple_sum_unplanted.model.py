"""Compiled bootcamp of bootcamp-synth; task: "Sum of Two" (t test cases: three pairwise
distinct indices i, j, k with a_i + a_j = a_k; any such triple is accepted).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): the task's
bootcamp with one realistic defect of kind 'no_solution': the generator draws the arrays at
random without planting a triple, so some test cases have none and the reference prints -1 for
them. The reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

_INDEX = re.compile(r"-?[0-9]{1,4}")


class SumOfTwoBootcamp(CompiledBootcamp):
    """One valid triple of indices per test case."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_tests": 1, "max_tests": 2, "max_length": 5, "max_value": 10},
        "medium": {"min_tests": 2, "max_tests": 3, "max_length": 8, "max_value": 30},
        "hard": {"min_tests": 3, "max_tests": 5, "max_length": 12, "max_value": 100},
    }

    def __init__(self, seed: int | None = None, min_tests: int = 2, max_tests: int = 3,
                 max_length: int = 8, max_value: int = 30) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_tests <= max_tests <= 100 or not 3 <= max_length <= 500 or \
                not 1 <= max_value <= 5 * 10**5:
            raise ValueError("need 1 <= min_tests <= max_tests <= 100, 3 <= max_length <= 500, "
                             "1 <= max_value <= 5*10^5")
        self.min_tests, self.max_tests = min_tests, max_tests
        self.max_length, self.max_value = max_length, max_value

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        tests = []
        for _ in range(rng.randint(self.min_tests, self.max_tests)):
            n = rng.randint(3, self.max_length)
            a = [rng.randint(1, self.max_value) for _ in range(n)]
            tests.append(a)
        return {"tests": tests}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [str(len(identity["tests"]))]
        for a in identity["tests"]:
            lines += [str(len(a)), " ".join(map(str, a))]
        return "\n".join(lines) + "\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        """Per test case: -1 only where the reference found nothing, else a valid triple."""
        tests = identity["tests"]
        want = [line.split() for line in expected.splitlines() if line.strip()]
        got = [line.split() for line in answer.splitlines() if line.strip()]
        if len(got) != len(tests) or len(want) != len(tests):
            return False
        for a, exp, toks in zip(tests, want, got):
            if exp == ["-1"]:
                if toks != ["-1"]:
                    return False
                continue
            if len(toks) != 3 or not all(_INDEX.fullmatch(t) for t in toks):
                return False
            i, j, k = (int(t) for t in toks)
            if not all(1 <= x <= len(a) for x in (i, j, k)):
                return False
            if len({i, j, k}) != 3:
                return False
            if a[i - 1] + a[j - 1] != a[k - 1]:
                return False
        return True
