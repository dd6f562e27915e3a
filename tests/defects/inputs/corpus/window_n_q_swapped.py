"""Compiled bootcamp: Window Sums (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Window Sums

You are given an array of n integers and q questions. Each question names a window [l, r] of the array; answer with the sum of the values inside it.

Input

The first line contains two integers n and q (1 ≤ n ≤ 100, 1 ≤ q ≤ 50).

The second line contains n integers a_1, a_2, ..., a_n (−1000 ≤ a_i ≤ 1000).

Each of the next q lines contains two integers l and r (1 ≤ l ≤ r ≤ n).

Output

For each question print the sum a_l + a_{l+1} + ... + a_r on its own line.

Examples

Input

4 2
3 -1 4 1
1 3
2 2


Output

6
-1
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys


def main():
    data = sys.stdin.read().split()
    n, q = int(data[0]), int(data[1])
    a = [int(x) for x in data[2:2 + n]]
    pre = [0]
    for x in a:
        pre.append(pre[-1] + x)
    out = []
    pos = 2 + n
    for _ in range(q):
        l, r = int(data[pos]), int(data[pos + 1])
        pos += 2
        out.append(pre[r] - pre[l - 1])
    print("\n".join(map(str, out)))


main()
"""


class WindowSumsBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5, "max_q": 2, "max_abs": 10},
        "medium": {"max_n": 12, "max_q": 4, "max_abs": 100},
        "hard": {"max_n": 30, "max_q": 6, "max_abs": 1000},
    }

    def __init__(self, seed: int | None = None, max_n: int = 12, max_q: int = 4,
                 max_abs: int = 100) -> None:
        super().__init__(seed=seed)
        self.max_n, self.max_q, self.max_abs = max_n, max_q, max_abs

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(2, self.max_n)
        a = [rng.randint(-self.max_abs, self.max_abs) for _ in range(n)]
        queries = []
        for _ in range(rng.randint(1, self.max_q)):
            l = rng.randint(1, n)
            queries.append([l, rng.randint(l, n)])
        return {"a": a, "queries": queries}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a, qs = identity["a"], identity["queries"]
        rows = [f"{len(qs)} {len(a)}", " ".join(map(str, a))] + [f"{l} {r}" for l, r in qs]
        return "\n".join(rows) + "\n"
