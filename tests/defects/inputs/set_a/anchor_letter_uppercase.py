"""Compiled bootcamp; task: "Anchor Letter" (largest distance to the nearest 'a', t strings).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (guarantee, one mistake
in the generator): the full alphabet is string.ascii_letters instead of string.ascii_lowercase,
so hard strings contain uppercase letters.
"""

from __future__ import annotations

import string
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Anchor Letter

In a string, the letter 'a' is called an anchor. For every position of a string, consider the distance from it to the nearest anchor (the distance between positions i and j is |i - j|; an anchor is at distance 0 from itself). The drift of the string is the largest of these distances over all of its positions.

Compute the drift of each of the given strings.

Input

The first line contains a positive integer t, which does not exceed 1000 — the number of test cases.

Each test case consists of one line with a non-empty string s made of lowercase Latin letters; the length of s is at most 100. It is guaranteed that s contains at least one letter 'a'.

Output

For each test case output the drift of s on its own line.

Examples

Input

3
bab
a
ccca


Output

1
0
3


Input

2
abcdea
zazzzzzz


Output

2
6


Note

In the last string of the first example the first letter is three positions away from the only anchor.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys

INF = 10 ** 9


def drift(s):
    n = len(s)
    left = [INF] * n
    last = -INF
    for i, ch in enumerate(s):
        if ch == "a":
            last = i
        left[i] = i - last
    best = 0
    last = INF * 2
    for i in range(n - 1, -1, -1):
        if s[i] == "a":
            last = i
        best = max(best, min(left[i], last - i))
    return best


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    print("\n".join(str(drift(s)) for s in data[1:1 + t]))


main()
"""


class AnchorLetterBootcamp(CompiledBootcamp):
    """The drift of each string: the farthest any position is from an 'a'."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_t": 3, "min_len": 2, "max_len": 6, "alphabet": 3},
        "medium": {"max_t": 4, "min_len": 6, "max_len": 20, "alphabet": 6},
        "hard": {"max_t": 5, "min_len": 30, "max_len": 80, "alphabet": 26},
    }

    def __init__(self, seed: int | None = None, max_t: int = 4, min_len: int = 6,
                 max_len: int = 20, alphabet: int = 6) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_t <= 1000 or not 1 <= min_len <= max_len or not 1 <= alphabet <= 26:
            raise ValueError("need 1 <= max_t <= 1000, 1 <= min_len <= max_len, "
                             "1 <= alphabet <= 26")
        self.max_t, self.min_len, self.max_len = max_t, min_len, max_len
        self.alphabet = alphabet

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        pool = string.ascii_letters if self.alphabet >= 26 else \
            string.ascii_lowercase[: self.alphabet]
        strings = []
        for _ in range(rng.randint(1, self.max_t)):
            n = rng.randint(self.min_len, self.max_len)
            chars = [rng.choice(pool) for _ in range(n)]
            # the statement guarantees an anchor: put one or two 'a's in
            for _ in range(rng.randint(1, 2)):
                chars[rng.randrange(n)] = "a"
            strings.append("".join(chars))
        return {"strings": strings}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return "\n".join([str(len(identity["strings"])), *identity["strings"]]) + "\n"
