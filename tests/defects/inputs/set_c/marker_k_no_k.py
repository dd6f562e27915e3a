"""Compiled bootcamp of bootcamp-synth; task: "Spotting K" (count the substrings that contain
the letter k, for several strings that each contain a k).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c), with ONE
realistic code-model mistake (guarantee): the generator draws the letters at random and never
plants a k, so a string can lack the letter k. The reference program is embedded by
``synth.compiled.assemble``.
"""

from __future__ import annotations

import string
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""## Problem: Spotting K

Call a substring of a string *marked* if it contains the letter `k` at least once. Two substrings are different when they start or end at different positions, even if they read the same.

You are given several strings. For each of them, count its marked substrings.

## Input format

The first line contains one integer $t$ ($1 \le t \le 100$) — the number of strings.

Each of the next $t$ lines contains one string $s$ ($1 \le |s| \le 50$). Every string consists of lowercase English letters and contains the letter `k` at least once.

The total length of all strings in one input does not exceed $500$.

## Output format

For each string, print one line with the number of its marked substrings.

## Example 1

### Input

```
3
k
akb
kayak
```

### Output

```
1
4
9
```

## Example 2

### Input

```
2
kk
book
```

### Output

```
3
4
```

## Notes

In `kayak` there are $15$ substrings, and the $6$ substrings of `aya` are the only ones without a `k`.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    out = []
    for s in data[1:1 + t]:
        n = len(s)
        total = n * (n + 1) // 2
        run = 0
        plain = 0
        for ch in s:
            if ch == "k":
                plain += run * (run + 1) // 2
                run = 0
            else:
                run += 1
        plain += run * (run + 1) // 2
        out.append(total - plain)
    print("\n".join(map(str, out)))


main()
"""


class SpottingKBootcamp(CompiledBootcamp):
    """Marked substrings of lowercase strings with at least one k."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_strings": 3, "max_length": 6, "letters": 3},
        "medium": {"max_strings": 5, "max_length": 15, "letters": 6},
        "hard": {"max_strings": 10, "max_length": 50, "letters": 26},
    }

    def __init__(self, seed: int | None = None, max_strings: int = 5, max_length: int = 15,
                 letters: int = 6) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_strings <= 100 or not 1 <= max_length <= 50 or not 1 <= letters <= 26:
            raise ValueError("need 1 <= max_strings <= 100, 1 <= max_length <= 50, "
                             "1 <= letters <= 26")
        if max_strings * max_length > 500:
            raise ValueError("the total length of the strings may not exceed 500")
        self.max_strings, self.max_length, self.letters = max_strings, max_length, letters

    def _word(self) -> str:
        rng = self.rng
        pool = "k" + "".join(c for c in string.ascii_lowercase if c != "k")[: self.letters - 1]
        chars = [rng.choice(pool) for _ in range(rng.randint(1, self.max_length))]
        return "".join(chars)

    def case_generator(self) -> dict[str, Any]:
        return {"strings": [self._word() for _ in range(self.rng.randint(1, self.max_strings))]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        strings = identity["strings"]
        return "\n".join([str(len(strings)), *strings]) + "\n"
