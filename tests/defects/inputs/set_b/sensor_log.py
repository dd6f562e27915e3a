"""Compiled bootcamp of bootcamp-synth; task: "Rising Readings" (the longest strictly
increasing stretch of consecutive readings).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): a correct
bootcamp that relies on the contract's default prompt_func (TASK_TEXT and render_stdin). The
reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Rising Readings

A weather station writes down one temperature reading every hour. The chief meteorologist calls a stretch of consecutive readings rising if every reading in it is strictly greater than the one before it; a single reading is a rising stretch of length 1.

Given the log, find the length of the longest rising stretch.

Input

The first line contains a single integer n, the number of readings in the log; n is at least 1 and does not exceed 100 000.

The readings follow one per line: the i-th of the next n lines contains the integer h_i. Every reading is a positive integer not greater than 10^9.

Output

Print one integer — the length of the longest rising stretch of the log.

Examples

Input

7
3
5
9
9
2
4
8


Output

3


Input

3
10
7
1


Output

1


Note

In the first example both stretches 3, 5, 9 and 2, 4, 8 are rising and have length 3; the stretch 5, 9, 9 is not rising because 9 is not greater than 9.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    h = [int(x) for x in data[1:1 + n]]
    best = 1
    run = 1
    for i in range(1, len(h)):
        if h[i] > h[i - 1]:
            run += 1
            if run > best:
                best = run
        else:
            run = 1
    print(best)


main()
"""


class RisingReadingsBootcamp(CompiledBootcamp):
    """Longest rising stretch of a log of readings."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_readings": 3, "max_readings": 6, "max_value": 20},
        "medium": {"min_readings": 7, "max_readings": 14, "max_value": 100},
        "hard": {"min_readings": 15, "max_readings": 30, "max_value": 1000},
    }

    def __init__(self, seed: int | None = None, min_readings: int = 7, max_readings: int = 14,
                 max_value: int = 100) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_readings <= max_readings <= 1000 or not 2 <= max_value <= 10**9:
            raise ValueError("need 1 <= min_readings <= max_readings <= 1000, 2 <= max_value")
        self.min_readings, self.max_readings = min_readings, max_readings
        self.max_value = max_value

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_readings, self.max_readings)
        h = [rng.randint(1, self.max_value) for _ in range(n)]
        if n >= 3 and rng.randrange(2):  # sometimes a longer rising stretch
            start = rng.randrange(n - 2)
            length = rng.randint(3, n - start)
            run = sorted(rng.sample(range(1, self.max_value + 1),
                                    min(length, self.max_value)))
            h[start:start + len(run)] = run
        return {"h": h}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        h = identity["h"]
        return f"{len(h)}\n" + "".join(f"{x}\n" for x in h)
