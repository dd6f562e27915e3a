"""Compiled bootcamp of bootcamp-synth; task: "Widest Gap" (range maximum of the gaps between
neighbouring stations at increasing distances).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c), with ONE
realistic code-model mistake (guarantee): the generator draws l and r independently and never
orders them, so a question can have l > r. The reference program is embedded by
``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = r"""# Widest Gap

A railway line has $n$ stations. Station $i$ lies $x_i$ kilometres from the depot, and the stations are numbered in the order of increasing distance.

You have to answer $q$ questions. In each question you get two station numbers $l$ and $r$: look only at the stations $l, l+1, \ldots, r$ and report the longest distance between two **neighbouring** stations among them. If $l = r$, the answer is $0$.

## Input format

- The first line contains two integers $n$ and $q$ ($1 \le n \le 10^5$, $1 \le q \le 10^5$).
- The second line contains $n$ integers $x_1, x_2, \ldots, x_n$ ($0 \le x_1 < x_2 < \ldots < x_n \le 10^9$).
- Each of the following $q$ lines contains two integers $l$ and $r$ ($1 \le l \le r \le n$).

## Output format

Print $q$ lines: the $j$-th of them is the answer to the $j$-th question.

## Examples

### Sample Input 1

```
5 3
0 4 5 11 12
1 5
2 3
4 4
```

### Sample Output 1

```
6
1
0
```

### Sample Input 2

```
3 2
10 20 40
1 2
1 3
```

### Sample Output 2

```
10
20
```

### Explanation

In the first sample the neighbouring stations are $4, 1, 6, 1$ kilometres apart; the first question sees all of them.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, q = int(data[0]), int(data[1])
    x = [int(v) for v in data[2:2 + n]]
    gaps = [x[i + 1] - x[i] for i in range(len(x) - 1)]
    table = [gaps]
    width = 1
    while 2 * width <= len(gaps):
        prev = table[-1]
        table.append([max(prev[i], prev[i + width]) for i in range(len(prev) - width)])
        width *= 2
    out = []
    pos = 2 + n
    for _ in range(q):
        lo, hi = int(data[pos]), int(data[pos + 1])
        pos += 2
        if hi <= lo:
            out.append(0)
            continue
        length = hi - lo
        k = length.bit_length() - 1
        row = table[k]
        out.append(max(row[lo - 1], row[hi - 1 - (1 << k)]))
    print("\n".join(map(str, out)))


main()
"""


def _stdin(identity: dict[str, Any]) -> str:
    x, queries = identity["x"], identity["queries"]
    lines = [f"{len(x)} {len(queries)}", " ".join(map(str, x))]
    lines.extend(f"{lo} {hi}" for lo, hi in queries)
    return "\n".join(lines) + "\n"


class WidestGapBootcamp(CompiledBootcamp):
    """Widest neighbouring gap among stations l..r."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_stations": 5, "max_queries": 3, "max_step": 10},
        "medium": {"max_stations": 10, "max_queries": 6, "max_step": 50},
        "hard": {"max_stations": 20, "max_queries": 10, "max_step": 500},
    }

    def __init__(self, seed: int | None = None, max_stations: int = 10, max_queries: int = 6,
                 max_step: int = 50) -> None:
        super().__init__(seed=seed)
        if not 2 <= max_stations <= 1000 or not 1 <= max_queries <= 1000 or max_step < 1:
            raise ValueError("need 2 <= max_stations <= 1000, 1 <= max_queries <= 1000, "
                             "max_step >= 1")
        self.max_stations, self.max_queries, self.max_step = max_stations, max_queries, max_step

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(2, self.max_stations)
        x = [rng.randint(0, self.max_step)]
        for _ in range(n - 1):
            x.append(x[-1] + rng.randint(1, self.max_step))  # strictly increasing
        queries = []
        for _ in range(rng.randint(1, self.max_queries)):
            lo, hi = rng.randint(1, n), rng.randint(1, n)
            queries.append([lo, hi])
        return {"x": x, "queries": queries}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return _stdin(identity)

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        return (
            "Widest Gap\n\nStations of a railway line lie at strictly increasing distances x_1 < "
            "x_2 < ... < x_n from the depot. For each question (l, r), report the largest "
            "distance between two neighbouring stations among stations l..r (0 when l = r).\n"
            "The input: n and q, then x_1 ... x_n, then q lines with l and r.\n\n"
            "```\n" + _stdin(identity) + "```\n\n"
            "Answer with the q results, one per line, inside <answer></answer> tags."
        )
