"""Compiled bootcamp; task: "Gift Exchange" (swaps to sort a permutation, t test cases).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (bounds, one mistake in
the generator): the permutation is built 0-based (list(range(n))) and printed as it is, so it
holds 0 although 1 <= p_i <= n.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""Gift Exchange

At a party n friends, numbered 1 to n, draw names for a gift exchange: friend i has drawn the name of friend p_i. The draw is a permutation, so every friend receives exactly one gift. Some friends drew their own names. The host wants every friend to end up with their own name, and in one operation she can take two friends and exchange the names they hold.

What is the minimum number of operations? The host would also like to know the size of the largest gift circle: the largest group of friends i_1, i_2, ..., i_k in which i_1 gives to i_2, i_2 gives to i_3, and so on, and i_k gives to i_1.

Input

The first line contains the number of test cases $t$ ($1 \leq t \leq 10^{4}$).

Each test case starts with a line containing one integer $n$ ($1 \leq n \leq 2 \cdot 10^{5}$). The following line contains $n$ integers $p_1, p_2, \ldots, p_n$ ($1 \leq p_i \leq n$). It is guaranteed that $p$ is a permutation, that is, every integer from $1$ to $n$ occurs in it exactly once.

The sum of $n$ over all test cases does not exceed $2 \cdot 10^5$.

Output

For each test case, print two integers: the minimum number of operations and the size of the largest gift circle.

Examples

Input

2
3
2 3 1
4
1 2 4 3


Output

2 3
1 2


Input

1
5
1 2 3 4 5


Output

0 1
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        pos += 1
        p = [int(x) - 1 for x in data[pos:pos + n]]
        pos += n
        seen = [False] * n
        cycles = 0
        longest = 0
        for i in range(n):
            if seen[i]:
                continue
            cycles += 1
            length = 0
            j = i
            while not seen[j]:
                seen[j] = True
                length += 1
                j = p[j]
            longest = max(longest, length)
        out.append(f"{n - cycles} {longest}")
    sys.stdout.write("\n".join(out) + "\n")


main()
"""


class GiftExchangeBootcamp(CompiledBootcamp):
    """n minus the number of cycles of a permutation, and its longest cycle."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_t": 2, "min_n": 1, "max_n": 5},
        "medium": {"max_t": 3, "min_n": 4, "max_n": 10},
        "hard": {"max_t": 4, "min_n": 10, "max_n": 20},
    }

    def __init__(self, seed: int | None = None, max_t: int = 3, min_n: int = 4,
                 max_n: int = 10) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_t <= 100 or not 1 <= min_n <= max_n <= 1000:
            raise ValueError("need 1 <= max_t <= 100 and 1 <= min_n <= max_n <= 1000")
        self.max_t, self.min_n, self.max_n = max_t, min_n, max_n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        tests = []
        for _ in range(rng.randint(1, self.max_t)):
            n = rng.randint(self.min_n, self.max_n)
            p = list(range(n))
            rng.shuffle(p)
            tests.append(p)
        return {"tests": tests}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [str(len(identity["tests"]))]
        for p in identity["tests"]:
            lines += [str(len(p)), " ".join(map(str, p))]
        return "\n".join(lines) + "\n"
