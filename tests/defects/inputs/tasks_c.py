"""Tasks of the input-validity corpus (part C): several valid outputs (``check_output``) and
answers the statement promises; see tasks_a.py."""

from __future__ import annotations

TASKS: dict[str, dict] = {}

_PAIR_CHECK = '''
    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        tokens = answer.split()
        if len(tokens) != 2 or not all(t.isdigit() for t in tokens):
            return False
        i, j = int(tokens[0]), int(tokens[1])
        a = identity["a"]
        if not (1 <= i <= len(a) and 1 <= j <= len(a)) or i == j:
            return False
        return a[i - 1] + a[j - 1] == identity["s"]
'''

# ------------------------------------------------------------------------------------------
TASKS["ticket_pair"] = {
    "statement": """Ticket Pair

Two friends want to spend their voucher of s coins exactly. The shop sells n items, the i-th costing a_i coins. Choose two different items whose prices add up to s.

Input

The first line contains two integers n and s (2 ≤ n ≤ 100, 2 ≤ s ≤ 2000).

The second line contains n integers a_1, ..., a_n (1 ≤ a_i ≤ 1000).

It is guaranteed that at least one valid pair exists.

Output

Print two different indices i and j (1 ≤ i, j ≤ n, i ≠ j) with a_i + a_j = s. If there are several answers, print any of them.

Examples

Input

4 7
2 5 3 4


Output

1 2


Input

3 6
3 1 3


Output

1 3
""",
    "reference": """import sys


def main():
    data = sys.stdin.read().split()
    n, s = int(data[0]), int(data[1])
    a = [int(x) for x in data[2:2 + n]]
    where = {}
    for j, x in enumerate(a, 1):
        if s - x in where:
            print(where[s - x], j)
            return
        where.setdefault(x, j)
    print(-1)


main()
""",
    "model": '''"""Compiled bootcamp: Ticket Pair (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class TicketPairBootcamp(CompiledBootcamp):
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5, "max_a": 10},
        "medium": {"max_n": 12, "max_a": 100},
        "hard": {"max_n": 30, "max_a": 1000},
    }

    def __init__(self, seed: int | None = None, max_n: int = 12, max_a: int = 100) -> None:
        super().__init__(seed=seed)
        self.max_n, self.max_a = max_n, max_a

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(3, self.max_n)
        a = [rng.randint(1, self.max_a) for _ in range(n)]
        i, j = rng.sample(range(n), 2)
        return {"s": a[i] + a[j], "a": a}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        a = identity["a"]
        return f"{len(a)} {identity['s']}\\n{' '.join(map(str, a))}\\n"
''' + _PAIR_CHECK,
    "defects": {
        "ticket_same_item_twice": ("check_output", "or i == j:\n", ":\n",
                                   "check_output accepts i = j (one item used twice)"),
        "ticket_index_zero": ("check_output", "        if not (1 <= i <= len(a) and 1 <= j <= len(a)) or i == j:\n",
                              "        if i == j or i > len(a) or j > len(a):\n",
                              "check_output accepts index 0 (a[-1] in Python)"),
        "ticket_no_pair": ("no_solution", '        i, j = rng.sample(range(n), 2)\n        return {"s": a[i] + a[j], "a": a}\n',
                           '        return {"s": rng.randint(2, 2 * self.max_a), "a": a}\n',
                           "a target no pair reaches, though a pair is guaranteed"),
        "ticket_prompt_drops_s": ("prompt", "        return f\"{len(a)} {identity['s']}\\n{' '.join(map(str, a))}\\n\"\n",
                                  "        return f\"{len(a)} {identity['s']}\\n{' '.join(map(str, a))}\\n\"\n\n"
                                  "    @staticmethod\n"
                                  "    def prompt_func(identity: dict[str, Any]) -> str:\n"
                                  "        a = identity[\"a\"]\n"
                                  "        return (\"Ticket Pair: choose two different items whose prices sum to s.\\n\"\n"
                                  "                f\"Prices: {' '.join(map(str, a))}\\n\"\n"
                                  "                \"Answer with two indices inside <answer></answer> tags.\")\n",
                                  "the prompt leaves s out"),
    },
}

# ------------------------------------------------------------------------------------------
TASKS["odd_one_out"] = {
    "statement": """Odd One Out

A row of n tiles is painted; tile i has colour c_i. Find two positions whose colours differ, the left one first.

Input

The input is a single test. Its first line contains the integer n (2 ≤ n ≤ 50). The next line lists the colours c_1 c_2 ... c_n, integers from 1 to 9 each.

It is guaranteed that the tiles do not all have the same colour.

Output

Print two positions p < q with c_p ≠ c_q. Any such pair is accepted.

Examples

Input

3
4 4 7


Output

1 3


Input

2
2 1


Output

1 2
""",
    "reference": """import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    c = [int(x) for x in data[1:n + 1]]
    lo, hi = c.index(min(c)), c.index(max(c))
    if lo == hi:
        print(-1)
        return
    print(min(lo, hi) + 1, max(lo, hi) + 1)


main()
""",
    "model": '''"""Compiled bootcamp: Odd One Out (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class OddOneOutBootcamp(CompiledBootcamp):
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_n": 5, "colours": 3},
        "medium": {"max_n": 15, "colours": 5},
        "hard": {"max_n": 40, "colours": 9},
    }

    def __init__(self, seed: int | None = None, max_n: int = 15, colours: int = 5) -> None:
        super().__init__(seed=seed)
        self.max_n, self.colours = max_n, colours

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(2, self.max_n)
        base = rng.randint(1, self.colours)
        c = [base] * n
        for k in rng.sample(range(n), rng.randint(1, n - 1)):
            c[k] = rng.choice([x for x in range(1, self.colours + 1) if x != base])
        return {"c": c}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        c = identity["c"]
        return f"{len(c)}\\n{' '.join(map(str, c))}\\n"

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        c = identity["c"]
        return ("Odd One Out. A row of tiles has colours c_1 ... c_n. Print two positions p < q "
                "(counted from 1) whose colours differ; any such pair is accepted.\\n"
                f"Input:\\n{len(c)}\\n{' '.join(map(str, c))}\\n"
                "Answer with p and q inside <answer></answer> tags.")

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        tokens = answer.split()
        if len(tokens) != 2 or not all(t.isdigit() for t in tokens):
            return False
        p, q = int(tokens[0]), int(tokens[1])
        c = identity["c"]
        return 1 <= p < q <= len(c) and c[p - 1] != c[q - 1]
''',
    "defects": {
        "odd_order_ignored": ("check_output", "        return 1 <= p < q <= len(c) and c[p - 1] != c[q - 1]\n",
                              "        return 1 <= p <= len(c) and 1 <= q <= len(c) and c[p - 1] != c[q - 1]\n",
                              "check_output accepts q < p where p < q is asked"),
        "odd_beyond_end": ("check_output", "        return 1 <= p < q <= len(c) and c[p - 1] != c[q - 1]\n",
                           "        return p < q and c[(p - 1) % len(c)] != c[(q - 1) % len(c)]\n",
                           "check_output accepts positions past the row (wrapped)"),
        "odd_all_same": ("no_solution", "        for k in rng.sample(range(n), rng.randint(1, n - 1)):\n",
                         "        for k in rng.sample(range(n), rng.randint(0, n - 1)):\n",
                         "rows of one colour, though two colours are guaranteed"),
        "odd_prompt_zero_based": ("prompt", "f\"Input:\\n{len(c)}\\n{' '.join(map(str, c))}\\n\"",
                                  "f\"Input:\\n{len(c)}\\n\" + ' '.join(f'{k}:{x}' for k, x in enumerate(c)) + \"\\n\"",
                                  "the prompt shows tiles with 0-based labels, not stdin"),
    },
}

# ------------------------------------------------------------------------------------------
TASKS["median_trip"] = {
    "statement": """Median Trip

Several groups of hikers report the lengths of their trips. For each group, print the median trip, that is, the middle value after sorting (the number of trips is odd).

Input

The first line contains T — the number of groups (1 ≤ T ≤ 20). Each group is given on two lines: the first holds an odd integer n (1 ≤ n ≤ 99), the second holds n integers d_1, ..., d_n (1 ≤ d_i ≤ 10^4).

Output

For every group print its median on a separate line.

Examples

Input

2
3
5 1 3
1
8


Output

3
8
""",
    "reference": """import sys


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        d = sorted(int(x) for x in data[pos + 1:pos + 1 + n])
        pos += 1 + n
        out.append(d[len(d) // 2])
    print("\\n".join(map(str, out)))


main()
""",
    "model": '''"""Compiled bootcamp: Median Trip (input-validity corpus)."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class MedianTripBootcamp(CompiledBootcamp):
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"groups": 1, "max_half": 2, "max_d": 20},
        "medium": {"groups": 3, "max_half": 5, "max_d": 500},
        "hard": {"groups": 5, "max_half": 10, "max_d": 10**4},
    }

    def __init__(self, seed: int | None = None, groups: int = 3, max_half: int = 5,
                 max_d: int = 500) -> None:
        super().__init__(seed=seed)
        self.groups, self.max_half, self.max_d = groups, max_half, max_d

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        groups = []
        for _ in range(rng.randint(1, self.groups)):
            n = 2 * rng.randint(0, self.max_half) + 1
            groups.append([rng.randint(1, self.max_d) for _ in range(n)])
        return {"groups": groups}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        rows = [str(len(identity["groups"]))]
        for d in identity["groups"]:
            rows += [str(len(d)), " ".join(map(str, d))]
        return "\\n".join(rows) + "\\n"
''',
    "defects": {
        "median_too_many_groups": ("bounds", '"hard": {"groups": 5, "max_half": 10, "max_d": 10**4},',
                                   '"hard": {"groups": 30, "max_half": 10, "max_d": 10**4},',
                                   "T above 20 at the hard level"),
        "median_one_line": ("format", '            rows += [str(len(d)), " ".join(map(str, d))]\n',
                            '            rows += [str(len(d)) + " " + " ".join(map(str, d))]\n',
                            "a group's count and values on one line"),
        "median_zero_length": ("bounds", "            n = 2 * rng.randint(0, self.max_half) + 1\n",
                               "            n = 2 * rng.randint(0, self.max_half) + rng.randint(0, 1)\n",
                               "even n (and n = 0) where n is odd and at least 1"),
    },
}
