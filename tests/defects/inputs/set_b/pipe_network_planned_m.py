"""Compiled bootcamp of bootcamp-synth; task: "Connected Houses" (t test cases: count the
connected pairs of houses of an undirected graph).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): the task's
bootcamp with one realistic defect of kind 'prompt': prompt_func lists the case itself and
prints the planned number of pipes m on each test's first line, while render_stdin prints the
number of distinct pipes actually generated (duplicates were dropped). The reference program is
embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Connected Houses

A water company serves n houses numbered from 1 to n. Some pairs of houses are joined by pipes, and water can flow along a pipe in both directions. Two different houses are called connected if water can get from one of them to the other, possibly passing through other houses on the way.

The company wants to know how many unordered pairs of different houses are connected.

Input

The first line contains a single integer t (1 ≤ t ≤ 10^4) — the number of test cases. The descriptions of the test cases follow.

The first line of each test case contains two integers n and m (1 ≤ n ≤ 2·10^5, 0 ≤ m ≤ 2·10^5) — the number of houses and the number of pipes.

Each of the next m lines contains two integers x and y (1 ≤ x, y ≤ n, x ≠ y), meaning that a pipe joins houses x and y. No pipe is given twice.

The sum of n over all test cases does not exceed 2·10^5, and so does the sum of m.

Output

For each test case print one integer — the number of unordered pairs of different connected houses.

Examples

Input

2
4 2
1 2
3 2
3 0


Output

3
0


Input

1
6 4
1 2
2 3
4 5
6 5


Output

6


Note

In the first test case of the first example houses 1, 2 and 3 are connected to each other, which gives the pairs (1, 2), (1, 3) and (2, 3); house 4 has no pipes. In the second test case there are no pipes at all.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys


def find(parent, x):
    root = x
    while parent[root] != root:
        root = parent[root]
    while parent[x] != root:
        parent[x], x = root, parent[x]
    return root


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n, m = int(data[pos]), int(data[pos + 1])
        pos += 2
        parent = list(range(n + 1))
        size = [1] * (n + 1)
        for _ in range(m):
            a = find(parent, int(data[pos]))
            b = find(parent, int(data[pos + 1]))
            pos += 2
            if a != b:
                if size[a] < size[b]:
                    a, b = b, a
                parent[b] = a
                size[a] += size[b]
        total = 0
        for v in range(1, n + 1):
            if parent[v] == v:
                total += size[v] * (size[v] - 1) // 2
        out.append(total)
    print("\n".join(map(str, out)))


main()
"""


def _render(identity: dict[str, Any]) -> str:
    lines = [str(len(identity["tests"]))]
    for case in identity["tests"]:
        lines.append(f"{case['n']} {len(case['edges'])}")
        lines.extend(f"{x} {y}" for x, y in case["edges"])
    return "\n".join(lines) + "\n"


class ConnectedHousesBootcamp(CompiledBootcamp):
    """Connected pairs of houses, for several test cases."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_tests": 2, "max_houses": 5, "max_pipes": 4},
        "medium": {"max_tests": 3, "max_houses": 9, "max_pipes": 8},
        "hard": {"max_tests": 4, "max_houses": 15, "max_pipes": 14},
    }

    def __init__(self, seed: int | None = None, max_tests: int = 3, max_houses: int = 9,
                 max_pipes: int = 8) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_tests <= 100 or not 2 <= max_houses <= 1000 or \
                not 0 <= max_pipes <= 1000:
            raise ValueError("need 1 <= max_tests <= 100, 2 <= max_houses <= 1000, "
                             "0 <= max_pipes <= 1000")
        self.max_tests, self.max_houses, self.max_pipes = max_tests, max_houses, max_pipes

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        tests = []
        for _ in range(rng.randint(1, self.max_tests)):
            n = rng.randint(2, self.max_houses)
            m = rng.randint(0, self.max_pipes)
            pairs = set()
            for _ in range(m):
                x, y = rng.sample(range(1, n + 1), 2)
                pairs.add((min(x, y), max(x, y)))  # no pipe twice
            edges = [[x, y] if rng.randrange(2) else [y, x] for x, y in sorted(pairs)]
            rng.shuffle(edges)
            tests.append({"n": n, "m": m, "edges": edges})
        return {"tests": tests}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return _render(identity)

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        lines = [str(len(identity["tests"]))]
        for case in identity["tests"]:
            lines.append(f"{case['n']} {case['m']}")
            lines.extend(f"{x} {y}" for x, y in case["edges"])
        shown = "\n".join(lines) + "\n"
        return (
            "Connected Houses\n\n"
            "A water company serves n houses numbered from 1 to n; some pairs of houses are "
            "joined by two-way pipes. Two different houses are connected if water can get from "
            "one to the other through pipes. For each test case, count the unordered pairs of "
            "different houses that are connected.\n\n"
            "Input format: the first line holds t, the number of test cases. Each test case "
            "starts with a line holding n and m (houses and pipes), followed by m lines "
            "\"x y\", one per pipe.\n\n"
            "Input:\n```\n" + shown + "```\n\n"
            "Output one integer per test case, each on its own line, inside <answer></answer> "
            "tags, e.g. <answer>3\n0</answer>."
        )
