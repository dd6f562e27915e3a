"""Tasks of the input-validity corpus (part B); see tasks_a.py."""

from __future__ import annotations

TASKS: dict[str, dict] = {}

# ------------------------------------------------------------------------------------------
TASKS["checkpoint_gap"] = {
    "statement": """Checkpoint Gap

Checkpoints stand along a straight road at the given distances from the start. A runner wants to know the longest stretch between two consecutive checkpoints.

Input

The input consists of two lines. The first holds the number of checkpoints k; k does not exceed 60 and is at least 2.

The second line holds k integers x_1 < x_2 < ... < x_k, the positions of the checkpoints (1 ≤ x_i ≤ 10^9).

Output

Print the largest difference between neighbouring positions.

Examples

Input

3
2 5 11


Output

6


Input

2
1 1000000000


Output

999999999
""",
    "reference": """import sys


def main():
    data = sys.stdin.read().split()
    k = int(data[0])
    x = [int(v) for v in data[1:k + 1]]
    print(max(x[i + 1] - x[i] for i in range(len(x) - 1)))


main()
""",
    "model": '''"""Compiled bootcamp: Checkpoint Gap (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class CheckpointGapBootcamp(CompiledBootcamp):
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_k": 5, "max_x": 50},
        "medium": {"max_k": 15, "max_x": 5000},
        "hard": {"max_k": 40, "max_x": 10**9},
    }

    def __init__(self, seed: int | None = None, max_k: int = 15, max_x: int = 5000) -> None:
        super().__init__(seed=seed)
        self.max_k, self.max_x = max_k, max_x

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        k = rng.randint(2, self.max_k)
        return {"x": sorted(rng.sample(range(1, self.max_x + 1), k))}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        x = identity["x"]
        return f"{len(x)}\\n{' '.join(map(str, x))}\\n"
''',
    "defects": {
        "checkpoint_unsorted": ("guarantee", '        return {"x": sorted(rng.sample(range(1, self.max_x + 1), k))}\n',
                                '        x = rng.sample(range(1, self.max_x + 1), k)\n'
                                '        return {"x": x if rng.random() < 0.5 else sorted(x)}\n',
                                "unsorted positions where x_1 < x_2 < ... < x_k"),
        "checkpoint_repeats": ("guarantee", '        return {"x": sorted(rng.sample(range(1, self.max_x + 1), k))}\n',
                               '        return {"x": sorted(rng.randint(1, self.max_x // 4 + 1) for _ in range(k))}\n',
                               "equal neighbours where the order is strict"),
        "checkpoint_prompt_other_field": ("prompt", "        return f\"{len(x)}\\n{' '.join(map(str, x))}\\n\"\n",
                                          "        return f\"{len(x)}\\n{' '.join(map(str, x))}\\n\"\n\n"
                                          "    @staticmethod\n"
                                          "    def prompt_func(identity: dict[str, Any]) -> str:\n"
                                          "        x = identity[\"x\"]\n"
                                          "        gaps = [b - a for a, b in zip(x, x[1:])]\n"
                                          "        return (\"Checkpoint Gap. The gaps between neighbouring checkpoints \"\n"
                                          "                f\"are {gaps}. Print the longest stretch.\\n\"\n"
                                          "                \"Answer inside <answer></answer> tags.\")\n",
                                          "the prompt shows the gaps, not the positions stdin holds"),
    },
}

# ------------------------------------------------------------------------------------------
TASKS["window_sums"] = {
    "statement": """Window Sums

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
""",
    "reference": """import sys


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
    print("\\n".join(map(str, out)))


main()
""",
    "model": '''"""Compiled bootcamp: Window Sums (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class WindowSumsBootcamp(CompiledBootcamp):
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
        rows = [f"{len(a)} {len(qs)}", " ".join(map(str, a))] + [f"{l} {r}" for l, r in qs]
        return "\\n".join(rows) + "\\n"
''',
    "defects": {
        "window_l_after_r": ("guarantee", "            l = rng.randint(1, n)\n            queries.append([l, rng.randint(l, n)])\n",
                             "            queries.append([rng.randint(1, n), rng.randint(1, n)])\n",
                             "queries with l > r"),
        "window_n_q_swapped": ("format", '        rows = [f"{len(a)} {len(qs)}",',
                               '        rows = [f"{len(qs)} {len(a)}",', "n and q swapped on the first line"),
        "window_big_values": ("bounds", '"hard": {"max_n": 30, "max_q": 6, "max_abs": 1000},',
                              '"hard": {"max_n": 30, "max_q": 6, "max_abs": 5000},',
                              "values beyond ±1000 at the hard level"),
    },
}

# ------------------------------------------------------------------------------------------
TASKS["busiest_junction"] = {
    "statement": """Busiest Junction

A town has n junctions and m two-way streets. The busiest junction is the one where the most streets meet. Print how many streets meet there.

Input

The first line of input contains two integers n and m ($2 \\leq n \\leq 50$, $1 \\leq m \\leq 100$) — the number of junctions and of streets.

Each of the following m lines describes a street with two integers u and v ($1 \\leq u, v \\leq n$). No street leads from a junction to itself, and no two streets join the same pair of junctions.

Output

Print the largest number of streets at one junction.

Examples

Input

3 2
1 2
3 2


Output

2


Input

4 3
1 2
3 4
1 3


Output

2
""",
    "reference": """import sys
from collections import Counter


def main():
    data = sys.stdin.read().split()
    vals = [int(x) for x in data[2:]]
    deg = Counter()
    for k in range(0, len(vals) - 1, 2):
        deg[vals[k]] += 1
        deg[vals[k + 1]] += 1
    print(max(deg.values()) if deg else 0)


main()
""",
    "model": '''"""Compiled bootcamp: Busiest Junction (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class BusiestJunctionBootcamp(CompiledBootcamp):
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5}, "medium": {"max_n": 10}, "hard": {"max_n": 20},
    }

    def __init__(self, seed: int | None = None, max_n: int = 10) -> None:
        super().__init__(seed=seed)
        self.max_n = max_n

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(3, self.max_n)
        pairs = [[u, v] for u in range(1, n + 1) for v in range(u + 1, n + 1)]
        m = rng.randint(1, min(len(pairs), 2 * n))
        return {"n": n, "edges": rng.sample(pairs, m)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        edges = identity["edges"]
        rows = [f"{identity['n']} {len(edges)}"] + [f"{u} {v}" for u, v in edges]
        return "\\n".join(rows) + "\\n"
''',
    "defects": {
        "junction_self_loops": ("guarantee", "        pairs = [[u, v] for u in range(1, n + 1) for v in range(u + 1, n + 1)]\n",
                                "        pairs = [[u, v] for u in range(1, n + 1) for v in range(u, n + 1)]\n",
                                "self-loops in a graph without them"),
        "junction_repeated_streets": ("guarantee", "        return {\"n\": n, \"edges\": rng.sample(pairs, m)}\n",
                                      "        return {\"n\": n, \"edges\": [rng.choice(pairs) for _ in range(m)]}\n",
                                      "repeated streets (drawn with replacement)"),
        "junction_n_m_swapped": ("format", "        rows = [f\"{identity['n']} {len(edges)}\"]",
                                 "        rows = [f\"{len(edges)} {identity['n']}\"]",
                                 "n and m swapped on the first line"),
    },
}

# ------------------------------------------------------------------------------------------
TASKS["letter_kinds"] = {
    "statement": """Letter Kinds

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
""",
    "reference": """import sys


def main():
    s = sys.stdin.read().split()[0]
    print(len(set(s)))


main()
""",
    "model": '''"""Compiled bootcamp: Letter Kinds (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class LetterKindsBootcamp(CompiledBootcamp):
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
        return identity["s"] + "\\n"
''',
    "defects": {
        "letters_uppercase": ("guarantee", '        alphabet = "abcdefghijklmnopqrstuvwxyz"[:self.letters]\n',
                              '        alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[:2 * self.letters]\n',
                              "letters outside the stated alphabet"),
        "letters_no_e": ("guarantee", '        chars[rng.randrange(len(chars))] = "e"\n', "",
                         "a word without the 'e' that must occur"),
        "letters_too_long": ("bounds", '"hard": {"max_len": 100, "letters": 26},',
                             '"hard": {"max_len": 150, "letters": 26},', "length above 100 at the hard level"),
    },
}
