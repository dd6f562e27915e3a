"""Bootcamp for Most Frequent Letter Pair."""
from typing import Any

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Most Frequent Letter Pair

A letter pair of a string s is a substring of s of length two, that is, two neighbouring letters of s. Letter pairs are counted with overlaps: the string "aaa" contains the letter pair "aa" twice.

Find the letter pair that occurs in s the largest number of times, and that number. If several letter pairs occur the same, largest number of times, choose the lexicographically smallest of them.

Input

The only line contains the string s (2 ≤ |s| ≤ 2·10^5), consisting of lowercase Latin letters.

Output

Print the letter pair and the number of its occurrences in s, separated by a space.

Examples

Input

abababcab


Output

ab 4


Input

zyx


Output

yx 1


Note

In the first example the letter pairs are ab, ba, ab, ba, ab, bc, ca and ab; "ab" occurs 4 times.

In the second example "zy" and "yx" both occur once, and "yx" is the smaller one.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def main():
    s = sys.stdin.readline().strip()
    counts = {}
    for i in range(len(s) - 1):
        pair = s[i:i + 2]
        counts[pair] = counts.get(pair, 0) + 1
    best = max(counts.values())
    pair = min(p for p, c in counts.items() if c == best)
    print(pair, best)


main()
"""


class MostFrequentLetterPairBootcamp(CompiledBootcamp):
    # three sizes, small enough for a person to solve by hand
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS = {"easy": {"size": 4}, "medium": {"size": 8}, "hard": {"size": 14}}

    def __init__(self, seed: int | None = None, size: int = 4) -> None:
        super().__init__(seed=seed)
        self.size = size

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        s = ''.join(rng.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(rng.randint(2, max(2, min((2 * (10 ** 5)), 2 + self.size)))))
        return {'s': s}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        out: list[str] = []
        out.append(' '.join(p for p in [str(identity['s'])] if p != ''))
        return '\n'.join(out) + '\n'
