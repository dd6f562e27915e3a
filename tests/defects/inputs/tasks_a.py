"""Tasks of the input-validity corpus (part A): statement, reference program, the bootcamp part
a code model writes, and its realistic mistakes, each a one-place patch of the correct part.

Every text here is this project's own, written for the corpus: statements in CodeContests'
layout, phrased differently from task to task.
"""

from __future__ import annotations

TASKS: dict[str, dict] = {}

# ------------------------------------------------------------------------------------------
TASKS["lantern_span"] = {
    "statement": """Lantern Span

Along the quay stand n lanterns, the i-th of height h_i. The harbour master wants to know how much taller the tallest lantern is than the shortest one.

Input

The first line contains one integer n (1 ≤ n ≤ 40) — the number of lanterns.

The second line contains n integers h_1, h_2, ..., h_n (1 ≤ h_i ≤ 10^9) — their heights.

Output

Print the difference between the largest and the smallest height.

Examples

Input

3
4 9 2


Output

7


Input

1
5


Output

0
""",
    "reference": """import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    h = [int(x) for x in data[1:n + 1]]
    print(max(h) - min(h) if h else 0)


main()
""",
    "model": '''"""Compiled bootcamp: Lantern Span (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class LanternSpanBootcamp(CompiledBootcamp):
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5, "max_h": 20},
        "medium": {"max_n": 15, "max_h": 1000},
        "hard": {"max_n": 40, "max_h": 10**9},
    }

    def __init__(self, seed: int | None = None, max_n: int = 15, max_h: int = 1000) -> None:
        super().__init__(seed=seed)
        self.max_n, self.max_h = max_n, max_h

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(2, self.max_n)
        return {"h": [rng.randint(1, self.max_h) for _ in range(n)]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        h = identity["h"]
        return f"{len(h)}\\n{' '.join(map(str, h))}\\n"
''',
    "defects": {
        "lantern_zero_height": ("bounds", "rng.randint(1, self.max_h)", "rng.randint(0, self.max_h)",
                                "a height of 0 where 1 ≤ h_i"),
        "lantern_too_many_hard": ("bounds", '"hard": {"max_n": 40,', '"hard": {"max_n": 60,',
                                  "n above 40 at the hard level only"),
        "lantern_no_count_line": ("format", "return f\"{len(h)}\\n{' '.join(map(str, h))}\\n\"",
                                  "return f\"{' '.join(map(str, h))}\\n\"",
                                  "the count line left out"),
        "lantern_prompt_sorted": ("prompt", "        return f\"{len(h)}\\n{' '.join(map(str, h))}\\n\"\n",
                                  "        return f\"{len(h)}\\n{' '.join(map(str, h))}\\n\"\n\n"
                                  "    @staticmethod\n"
                                  "    def prompt_func(identity: dict[str, Any]) -> str:\n"
                                  "        h = sorted(identity[\"h\"])\n"
                                  "        return (\"Lantern Span: the lanterns' heights are given; print the \"\n"
                                  "                \"tallest minus the shortest.\\nInput:\\n\"\n"
                                  "                f\"{len(h)}\\n{' '.join(map(str, h))}\\n\"\n"
                                  "                \"Answer inside <answer></answer> tags.\")\n",
                                  "the prompt shows the heights sorted, stdin unsorted"),
    },
}

# ------------------------------------------------------------------------------------------
TASKS["badge_pairs"] = {
    "statement": """Badge Pairs

A club hands out badges with numbers on them. Two badges form a lucky pair when the sum of their numbers is divisible by 3. For each test, count the lucky pairs.

Input

The first line of the input holds a single integer $t$ ($1 \\le t \\le 50$) — the number of tests. Descriptions of the tests follow.

The first line of each test contains an integer $n$ ($2 \\le n \\le 100$).

The second line of each test contains $n$ integers $b_1, b_2, \\ldots, b_n$ ($1 \\le b_i \\le 10^{6}$), the badge numbers. All badge numbers within one test are pairwise distinct.

It is guaranteed that the sum of $n$ over all tests does not exceed $120$.

Output

For each test print one line: the number of pairs $i < j$ with $b_i + b_j$ divisible by 3.

Example

Input

2
3
1 2 3
4
3 6 9 1


Output

1
3
""",
    "reference": """import sys


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        b = [int(x) for x in data[pos + 1:pos + 1 + n]]
        pos += 1 + n
        cnt = [0, 0, 0]
        for x in b:
            cnt[x % 3] += 1
        out.append(cnt[0] * (cnt[0] - 1) // 2 + cnt[1] * cnt[2])
    print("\\n".join(map(str, out)))


main()
""",
    "model": '''"""Compiled bootcamp: Badge Pairs (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class BadgePairsBootcamp(CompiledBootcamp):
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"tests": 2, "max_n": 5, "max_b": 30},
        "medium": {"tests": 3, "max_n": 12, "max_b": 1000},
        "hard": {"tests": 4, "max_n": 30, "max_b": 10**6},
    }

    def __init__(self, seed: int | None = None, tests: int = 3, max_n: int = 12,
                 max_b: int = 1000) -> None:
        super().__init__(seed=seed)
        self.tests, self.max_n, self.max_b = tests, max_n, max_b

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        cases = []
        for _ in range(rng.randint(1, self.tests)):
            n = rng.randint(2, self.max_n)
            cases.append(rng.sample(range(1, self.max_b + 1), n))
        return {"tests": cases}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [str(len(identity["tests"]))]
        for b in identity["tests"]:
            lines += [str(len(b)), " ".join(map(str, b))]
        return "\\n".join(lines) + "\\n"
''',
    "defects": {
        "badge_duplicates": ("guarantee", "cases.append(rng.sample(range(1, self.max_b + 1), n))",
                             "cases.append([rng.randint(1, self.max_b) for _ in range(n)])",
                             "duplicates where badge numbers are pairwise distinct"),
        "badge_sum_over_limit": ("guarantee", '"hard": {"tests": 4, "max_n": 30,',
                                 '"hard": {"tests": 8, "max_n": 40,',
                                 "the sum of n over the tests beyond 120"),
        "badge_missing_t": ("format", 'lines = [str(len(identity["tests"]))]', "lines = []",
                            "the t line left out"),
    },
}

# ------------------------------------------------------------------------------------------
TASKS["seat_cycles"] = {
    "statement": """Seat Cycles

After the break, every one of n students sits down in the seat of another student: student i takes seat p_i. Students who keep passing the seat along form a cycle. Count the cycles.

Input

In the first line you are given n (1 ≤ n ≤ 1000).

In the second line you are given n integers p_1, p_2, ..., p_n. It is guaranteed that p is a permutation of 1, 2, ..., n.

Output

Output the number of cycles of the permutation.

Examples

Input

4
2 1 4 3


Output

2


Input

3
1 2 3


Output

3
""",
    "reference": """import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    p = [0] + [int(x) for x in data[1:n + 1]]
    seen = [False] * (n + 2)
    cycles = 0
    for i in range(1, n + 1):
        if not seen[i]:
            cycles += 1
            j = i
            while 1 <= j <= n and not seen[j]:
                seen[j] = True
                j = p[j]
    print(cycles)


main()
""",
    "model": '''"""Compiled bootcamp: Seat Cycles (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class SeatCyclesBootcamp(CompiledBootcamp):
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 6}, "medium": {"max_n": 15}, "hard": {"max_n": 40},
    }

    def __init__(self, seed: int | None = None, max_n: int = 15) -> None:
        super().__init__(seed=seed)
        self.max_n = max_n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(2, self.max_n)
        p = list(range(1, n + 1))
        rng.shuffle(p)
        return {"p": p}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        p = identity["p"]
        return f"{len(p)}\\n{' '.join(map(str, p))}\\n"
''',
    "defects": {
        "seat_not_permutation": ("guarantee", "        p = list(range(1, n + 1))\n        rng.shuffle(p)\n",
                                 "        p = [rng.randint(1, n) for _ in range(n)]\n",
                                 "a list that is not a permutation"),
        "seat_zero_based": ("format", "        p = list(range(1, n + 1))\n",
                            "        p = list(range(n))\n", "0-based seats where 1..n is stated"),
        "seat_prompt_zero_based": ("prompt", "        return f\"{len(p)}\\n{' '.join(map(str, p))}\\n\"\n",
                                   "        return f\"{len(p)}\\n{' '.join(map(str, p))}\\n\"\n\n"
                                   "    @staticmethod\n"
                                   "    def prompt_func(identity: dict[str, Any]) -> str:\n"
                                   "        p = [x - 1 for x in identity[\"p\"]]\n"
                                   "        return (\"Seat Cycles. Student i sits in seat p_i (seats from 0). \"\n"
                                   "                \"How many cycles?\\nInput:\\n\"\n"
                                   "                f\"{len(p)}\\n{' '.join(map(str, p))}\\n\"\n"
                                   "                \"Answer inside <answer></answer> tags.\")\n",
                                   "the prompt shows 0-based seats, stdin 1-based"),
    },
}

# ------------------------------------------------------------------------------------------
TASKS["village_tree"] = {
    "statement": """Village Tree

A village has n houses joined by n - 1 footpaths so that one can walk from any house to any other. Find the largest number of footpaths on a walk from house 1 that never visits a house twice.

Input

The first line contains an integer n (2 ≤ n ≤ 2·10^5), the number of houses.

Then n - 1 lines follow, each containing two integers x and y (1 ≤ x, y ≤ n, x ≠ y): a footpath between houses x and y. It is guaranteed that the footpaths form a tree.

Output

Print one integer: the greatest distance from house 1 to another house.

Examples

Input

4
1 2
2 3
1 4


Output

2


Input

2
2 1


Output

1
""",
    "reference": """import sys
from collections import deque


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    adj = {}
    vals = [int(x) for x in data[1:]]
    for k in range(0, len(vals) - 1, 2):
        x, y = vals[k], vals[k + 1]
        adj.setdefault(x, []).append(y)
        adj.setdefault(y, []).append(x)
    dist = {1: 0}
    queue = deque([1])
    while queue:
        u = queue.popleft()
        for w in adj.get(u, []):
            if w not in dist:
                dist[w] = dist[u] + 1
                queue.append(w)
    print(max(dist.values()))


main()
""",
    "model": '''"""Compiled bootcamp: Village Tree (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class VillageTreeBootcamp(CompiledBootcamp):
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5}, "medium": {"max_n": 12}, "hard": {"max_n": 30},
    }

    def __init__(self, seed: int | None = None, max_n: int = 12) -> None:
        super().__init__(seed=seed)
        self.max_n = max_n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(3, self.max_n)
        edges = []
        for v in range(2, n + 1):
            edges.append([rng.randint(1, v - 1), v])
        rng.shuffle(edges)
        return {"n": n, "edges": edges}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        rows = [str(identity["n"])] + [f"{x} {y}" for x, y in identity["edges"]]
        return "\\n".join(rows) + "\\n"
''',
    "defects": {
        "village_cycle": ("guarantee", "            edges.append([rng.randint(1, v - 1), v])\n",
                          "            edges.append([rng.randint(1, n), v])\n",
                          "a 'tree' with a cycle (a parent drawn from every house)"),
        "village_two_parts": ("guarantee", "            edges.append([rng.randint(1, v - 1), v])\n",
                              "            edges.append([rng.randint(1, v - 1), v] if v < n else [1, 2])\n",
                              "two components: the last house is left alone"),
        "village_zero_based": ("format", '        rows = [str(identity["n"])] + [f"{x} {y}" for x, y in identity["edges"]]\n',
                               '        rows = [str(identity["n"])] + [f"{x - 1} {y - 1}" for x, y in identity["edges"]]\n',
                               "0-indexed houses where 1..n is stated"),
    },
}
