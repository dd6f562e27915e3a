"""Compiled bootcamp: Letter Kinds (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Letter Kinds

A word is written with small letters. How many different letters does it use?

Input

The only line contains a word s made of lowercase English letters; its length is between 1 and 100. It is guaranteed that s contains at least one letter 'e'.

Output

Print the number of distinct letters of s.

Examples

Input

level


Output

3


Input

e


Output

1
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = """\
import sys


def main():
    s = sys.stdin.read().split()[0]
    print(len(set(s)))


main()
"""


class LetterKindsBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_len": 5, "letters": 4},
        "medium": {"max_len": 20, "letters": 10},
        "hard": {"max_len": 100, "letters": 26},
    }

    def __init__(self, seed: int | None = None, max_len: int = 20, letters: int = 10) -> None:
        super().__init__(seed=seed)
        self.max_len, self.letters = max_len, letters

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        alphabet = "abcdefghijklmnopqrstuvwxyz"[:self.letters]
        chars = [rng.choice(alphabet) for _ in range(rng.randint(1, self.max_len))]
        chars[rng.randrange(len(chars))] = "e"
        return {"s": "".join(chars)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return identity["s"] + "\n"
