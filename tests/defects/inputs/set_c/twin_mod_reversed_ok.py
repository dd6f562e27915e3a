"""Compiled bootcamp of bootcamp-synth; task: "Same Remainder" (two positions p < q whose
numbers leave the same remainder modulo seven; any such pair is accepted).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c), with ONE
realistic code-model mistake (check_output): check_output sorts the two positions before
checking them, so 'q p' with q > p is accepted. The reference program is embedded by
``synth.compiled.assemble``; since several pairs qualify, ``check_output`` checks the pair by
the statement's rules.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Same Remainder

You are given a number N, not smaller than eight and not larger than one hundred thousand, followed by N whole numbers A_1, A_2, ..., A_N, each of them at least one and at most one billion. The first line of the input holds N alone, and the second line holds the N numbers separated by single spaces.

There are only seven remainders a number can leave when it is divided by seven, and you have at least eight numbers, so two of them always leave the same remainder. Find two such numbers: print two positions p and q, with p smaller than q, such that A_p and A_q leave the same remainder when divided by seven. Positions are counted from one. If several pairs qualify, any one of them is accepted.

Example 1

Input:
8
1 2 3 4 5 6 7 8

Output:
1 8

Example 2

Input:
9
14 3 10 5 21 6 13 2 9

Output:
8 9

Here 2 and 9 both leave remainder 2. The pair of positions 1 and 5 (numbers 14 and 21) would be accepted too.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    values = [int(v) for v in data[1:1 + n]]
    later = {}
    for p in range(len(values), 0, -1):
        r = values[p - 1] % 7
        if r in later:
            print(p, later[r])
            return
        later[r] = p
    print(-1)


main()
"""

_POSITION = re.compile(r"[0-9]{1,6}")


class SameRemainderBootcamp(CompiledBootcamp):
    """Pigeonhole pairs modulo seven."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_count": 8, "max_count": 10, "max_value": 50},
        "medium": {"min_count": 10, "max_count": 18, "max_value": 1000},
        "hard": {"min_count": 18, "max_count": 30, "max_value": 10**9},
    }

    def __init__(self, seed: int | None = None, min_count: int = 10, max_count: int = 18,
                 max_value: int = 1000) -> None:
        super().__init__(seed=seed)
        if not 8 <= min_count <= max_count <= 10**5 or not 7 <= max_value <= 10**9:
            raise ValueError("need 8 <= min_count <= max_count <= 10^5, 7 <= max_value <= 10^9")
        self.min_count, self.max_count, self.max_value = min_count, max_count, max_value

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_count, self.max_count)
        return {"a": [rng.randint(1, self.max_value) for _ in range(n)]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a = identity["a"]
        return f"{len(a)}\n{' '.join(map(str, a))}\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        """Two positions 1 <= p < q <= N with A_p = A_q (mod 7)."""
        tokens = answer.split()
        if len(tokens) != 2 or not all(_POSITION.fullmatch(t) for t in tokens):
            return False
        a = identity["a"]
        p, q = sorted((int(tokens[0]), int(tokens[1])))
        if not 1 <= p < q <= len(a):
            return False
        return a[p - 1] % 7 == a[q - 1] % 7
