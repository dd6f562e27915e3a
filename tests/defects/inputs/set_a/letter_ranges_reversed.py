"""Compiled bootcamp; task: "Letter Ranges" (distinct letters in substrings).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (guarantee, one mistake
in the generator): both ends of a query are drawn from 1..n independently, so about half of the
queries have l_i > r_i.
"""

from __future__ import annotations

import string
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Letter Ranges

Mira writes a long string s on a strip of paper and cuts pieces out of it. For each piece she asks how many different letters it contains.

Formally, you are given a string s of length n and q questions. The i-th question gives two positions l_i and r_i; the answer is the number of distinct letters among s_{l_i}, s_{l_i + 1}, ..., s_{r_i}.

Input

The first line contains two integers n and q (1 ≤ n, q ≤ 2·10^5) — the length of the string and the number of questions.

The second line contains the string s of length n. It consists of lowercase Latin letters only.

Then q lines follow. The i-th of them contains two integers l_i and r_i (1 ≤ l_i ≤ r_i ≤ n).

Output

Print q lines: the i-th line must contain the answer to the i-th question.

Examples

Input

7 3
abacaba
1 3
4 4
1 7


Output

2
1
3


Input

5 2
zzzzy
1 4
2 5


Output

1
2


Note

In the first example the piece "aba" has two different letters, the piece "c" has one, and the whole string uses a, b and c.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys
from bisect import bisect_left, insort


def main():
    data = sys.stdin.buffer.read().split()
    n, q = int(data[0]), int(data[1])
    s = data[2].decode()
    by_right = [[] for _ in range(n + 1)]
    pos = 3
    for idx in range(q):
        l, r = int(data[pos]), int(data[pos + 1])
        pos += 2
        by_right[r].append((l, idx))
    answers = [0] * q
    last = {}
    lasts = []  # sorted: the last position of every letter seen so far
    for i in range(1, n + 1):
        c = s[i - 1]
        if c in last:
            del lasts[bisect_left(lasts, last[c])]
        insort(lasts, i)
        last[c] = i
        for l, idx in by_right[i]:
            # a letter occurs in s[l..i] exactly when its last position up to i is >= l
            answers[idx] = len(lasts) - bisect_left(lasts, l)
    sys.stdout.write("\n".join(map(str, answers)) + "\n")


main()
"""


class LetterRangesBootcamp(CompiledBootcamp):
    """How many different letters each queried substring holds."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_len": 8, "max_q": 3, "alphabet": 3},
        "medium": {"max_len": 20, "max_q": 5, "alphabet": 6},
        "hard": {"max_len": 40, "max_q": 8, "alphabet": 26},
    }

    def __init__(self, seed: int | None = None, max_len: int = 20, max_q: int = 5,
                 alphabet: int = 6) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_len <= 1000 or not 1 <= max_q <= 100 or not 1 <= alphabet <= 26:
            raise ValueError("need 1 <= max_len <= 1000, 1 <= max_q <= 100, 1 <= alphabet <= 26")
        self.max_len, self.max_q, self.alphabet = max_len, max_q, alphabet

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(max(1, self.max_len // 2), self.max_len)
        letters = string.ascii_lowercase[: self.alphabet]
        s = "".join(rng.choice(letters) for _ in range(n))
        queries = []
        for _ in range(rng.randint(1, self.max_q)):
            l = rng.randint(1, n)
            r = rng.randint(1, n)
            queries.append([l, r])
        return {"s": s, "queries": queries}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        s, queries = identity["s"], identity["queries"]
        lines = [f"{len(s)} {len(queries)}", s]
        lines += [f"{l} {r}" for l, r in queries]
        return "\n".join(lines) + "\n"
