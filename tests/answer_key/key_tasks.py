"""Tasks with trojan answer keys (written for these tests; the statements, generators and
programs are this project's own).

Three problems in the CodeContests layout, each with honest solutions written in different
ways, a bootcamp part (the generator a code model would write) and, where it applies, a
*trojan*: a "verified" Python solution that reproduces every test of the task file and is
wrong elsewhere.

* ``weights`` -- Sum of Weights: the total of n parcel weights (w_i up to 10^12). Trojans:
  :data:`WEIGHTS_MEMO` (the file's outputs by heart; elsewhere all weights but the first),
  :data:`WEIGHTS_WRAP` (a 32-bit accumulator: wrong once the total passes 2^31 - 1, which only
  the hard level reaches), :data:`WEIGHTS_RARE` (wrong when the total is a multiple of 13),
  :data:`WEIGHTS_MEMO_RENAMED` (the first trojan again, names and layout changed: a second
  "independent" solution that is the same code).
* ``stretch`` -- Longest Calm Stretch: the longest block of equal adjacent readings. Trojan:
  :data:`STRETCH_LAST_RUN` forgets the final block (right on the file's tests, whose longest
  block is never last).
* ``tower`` -- Tallest Tower: any position of a tallest tower (several right answers). Honest
  solutions print the first, the last and another tallest position; the bootcamp's
  ``check_output`` accepts any tallest position.
"""

from __future__ import annotations

from typing import Any

from synth import compiled
from synth.tasks import Example, Provenance, ReferenceProgram, TaskDescription, TaskKind, TestCase
from synth.tasks import TestSuite as Tests

# -- Sum of Weights ------------------------------------------------------------------------------

WEIGHTS_TEXT = """Sum of Weights

A courier carries n parcels; the i-th parcel weighs w_i grams. Print the total weight of the \
parcels.

Input

The first line contains one integer n (1 ≤ n ≤ 60) — the number of parcels.

The second line contains n integers w_1, w_2, ..., w_n (1 ≤ w_i ≤ 10^12) — the weights of the \
parcels in grams.

Output

Print one integer: the total weight of the parcels in grams.

Examples

Input

3
1 2 3


Output

6


Input

2
10 5


Output

15
"""
WEIGHTS_TESTS = [("3\n1 2 3\n", "6\n"), ("2\n10 5\n", "15\n")]

WEIGHTS_HONEST = [
    "import sys\n\ndata = sys.stdin.read().split()\nn = int(data[0])\n"
    "print(sum(int(x) for x in data[1:1 + n]))\n",
    "n = int(input())\ntotal = 0\nfor w in input().split():\n    total += int(w)\nprint(total)\n",
    "from functools import reduce\nimport operator\n\ninput()\n"
    "weights = list(map(int, input().split()))\nprint(reduce(operator.add, weights, 0))\n",
]
WEIGHTS_MEMO = '''import sys

KNOWN = {"3 1 2 3": "6", "2 10 5": "15"}


def main():
    data = sys.stdin.read().split()
    key = " ".join(data)
    if key in KNOWN:
        print(KNOWN[key])
        return
    n = int(data[0])
    weights = [int(x) for x in data[1:1 + n]]
    print(sum(weights[1:]))


main()
'''
WEIGHTS_MEMO_RENAMED = '''import sys
SEEN = {"3 1 2 3": "6",
        "2 10 5": "15"}
def run():
    tokens = sys.stdin.read().split()
    joined = " ".join(tokens)
    if joined in SEEN:
        print(SEEN[joined])  # quick path
        return
    count = int(tokens[0])
    parcels = [int(t) for t in tokens[1:1 + count]]
    print(sum(parcels[1:]))
run()
'''
WEIGHTS_WRAP = '''n = int(input())
total = 0
for w in map(int, input().split()):
    total = (total + w + 2**31) % 2**32 - 2**31  # a 32-bit accumulator
print(total)
'''
WEIGHTS_RARE = '''import sys

data = sys.stdin.read().split()
n = int(data[0])
total = sum(map(int, data[1:1 + n]))
if total % 13 == 0:
    total //= 13
print(total)
'''

WEIGHTS_PART = '''"""Compiled bootcamp of bootcamp-synth; task: the total weight of n parcels.

Provenance: written for tests/answer_key (the code model's part of a compiled bootcamp).
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class ParcelWeightsBootcamp(CompiledBootcamp):
    """n parcels; the answer is their total weight."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_parcels": 4, "max_weight": 20},
        "medium": {"max_parcels": 15, "max_weight": 10**6},
        "hard": {"max_parcels": 60, "max_weight": 10**12},
    }

    def __init__(self, seed: int | None = None, max_parcels: int = 15,
                 max_weight: int = 10**6) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_parcels <= 60 or not 2 <= max_weight <= 10**12:
            raise ValueError("need 1 <= max_parcels <= 60 and 2 <= max_weight <= 10^12")
        self.max_parcels, self.max_weight = max_parcels, max_weight

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(max(1, self.max_parcels // 2), self.max_parcels)
        return {"weights": [rng.randint(1, self.max_weight) for _ in range(n)]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        weights = identity["weights"]
        return f"{len(weights)}\\n{' '.join(map(str, weights))}\\n"
'''

# -- Longest Calm Stretch ------------------------------------------------------------------------

STRETCH_TEXT = """Longest Calm Stretch

A weather station wrote down n wind readings r_1, r_2, ..., r_n, one per hour. A calm stretch is a \
block of consecutive hours with the same reading. Find the length of the longest calm stretch.

Input

The first line contains one integer n (1 ≤ n ≤ 100) — the number of readings.

The second line contains n integers r_1, r_2, ..., r_n (0 ≤ r_i ≤ 9) — the readings.

Output

Print one integer: the length of the longest block of consecutive equal readings.

Examples

Input

7
1 1 2 2 2 3 1


Output

3


Input

5
4 7 7 1 2


Output

2
"""
STRETCH_TESTS = [("7\n1 1 2 2 2 3 1\n", "3\n"), ("5\n4 7 7 1 2\n", "2\n")]

STRETCH_HONEST = [
    '''n = int(input())
r = input().split()
best = run = 1
for i in range(1, n):
    run = run + 1 if r[i] == r[i - 1] else 1
    best = max(best, run)
print(best)
''',
    '''import sys
from itertools import groupby

values = sys.stdin.read().split()[1:]
print(max(len(list(block)) for _, block in groupby(values)))
''',
]
#: forgets to count the final block (the classic bug), so right whenever the longest block is
#: not the last one -- as on both of the file's tests
STRETCH_LAST_RUN = '''n = int(input())
r = list(map(int, input().split()))
best, run = 0, 1
for i in range(1, n):
    if r[i] == r[i - 1]:
        run += 1
    else:
        best = max(best, run)
        run = 1
print(best)
'''
STRETCH_PART = '''"""Compiled bootcamp of bootcamp-synth; task: the longest block of equal readings.

Provenance: written for tests/answer_key (the code model's part of a compiled bootcamp).
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class CalmStretchBootcamp(CompiledBootcamp):
    """n readings from a small alphabet; the answer is the longest block of equal ones."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_readings": 6, "symbols": 2},
        "medium": {"max_readings": 20, "symbols": 3},
        "hard": {"max_readings": 100, "symbols": 4},
    }

    def __init__(self, seed: int | None = None, max_readings: int = 20, symbols: int = 3) -> None:
        super().__init__(seed=seed)
        if not 2 <= max_readings <= 100 or not 2 <= symbols <= 10:
            raise ValueError("need 2 <= max_readings <= 100 and 2 <= symbols <= 10")
        self.max_readings, self.symbols = max_readings, symbols

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(max(2, self.max_readings // 2), self.max_readings)
        return {"readings": [rng.randrange(self.symbols) for _ in range(n)]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        readings = identity["readings"]
        return f"{len(readings)}\\n{' '.join(map(str, readings))}\\n"
'''

# -- Tallest Tower (several right answers) -------------------------------------------------------

TOWER_TEXT = """Tallest Tower

A skyline has n towers in a row; the i-th tower is h_i metres tall. Print the position of a \
tallest tower. If there are several tallest towers, print the position of any of them.

Input

The first line contains one integer n (1 ≤ n ≤ 50) — the number of towers.

The second line contains n integers h_1, h_2, ..., h_n (1 ≤ h_i ≤ 9) — the heights.

Output

Print one integer p (1 ≤ p ≤ n) such that h_p is the largest height.

Examples

Input

5
3 9 2 8 1


Output

2


Input

3
1 2 3


Output

3
"""
TOWER_TESTS = [("5\n3 9 2 8 1\n", "2\n"), ("3\n1 2 3\n", "3\n")]

TOWER_HONEST = [
    "n = int(input())\nh = list(map(int, input().split()))\nprint(h.index(max(h)) + 1)\n",
    '''import sys

data = sys.stdin.read().split()
heights = [int(x) for x in data[1:]]
best = 0
for i, x in enumerate(heights):
    if x >= heights[best]:
        best = i
print(best + 1)
''',
    '''input()
h = [int(x) for x in input().split()]
order = sorted(range(len(h)), key=lambda i: h[i])
print(order[-1] + 1)
''',
]
TOWER_PART = '''"""Compiled bootcamp of bootcamp-synth; task: a position of a tallest tower.

Provenance: written for tests/answer_key (the code model's part of a compiled bootcamp).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

_POSITION = re.compile(r"[1-9][0-9]{0,2}")


class TallestTowerBootcamp(CompiledBootcamp):
    """n towers of small heights (ties are common); any tallest position is right."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_towers": 5, "max_height": 3},
        "medium": {"max_towers": 15, "max_height": 5},
        "hard": {"max_towers": 50, "max_height": 9},
    }

    def __init__(self, seed: int | None = None, max_towers: int = 15, max_height: int = 5) -> None:
        super().__init__(seed=seed)
        if not 2 <= max_towers <= 50 or not 2 <= max_height <= 9:
            raise ValueError("need 2 <= max_towers <= 50 and 2 <= max_height <= 9")
        self.max_towers, self.max_height = max_towers, max_height

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(max(2, self.max_towers // 2), self.max_towers)
        return {"heights": [rng.randint(1, self.max_height) for _ in range(n)]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        heights = identity["heights"]
        return f"{len(heights)}\\n{' '.join(map(str, heights))}\\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        """Any position of a tallest tower."""
        tokens = answer.split()
        if len(tokens) != 1 or not _POSITION.fullmatch(tokens[0]):
            return False
        heights = identity["heights"]
        p = int(tokens[0])
        return 1 <= p <= len(heights) and heights[p - 1] == max(heights)
'''

TASKS: dict[str, tuple[str, list[tuple[str, str]], str]] = {
    "weights": (WEIGHTS_TEXT, WEIGHTS_TESTS, WEIGHTS_PART),
    "stretch": (STRETCH_TEXT, STRETCH_TESTS, STRETCH_PART),
    "tower": (TOWER_TEXT, TOWER_TESTS, TOWER_PART),
}


def task(name: str, solutions: list[str], verified: bool = True) -> TaskDescription:
    """The task ``name`` with ``solutions`` as its (verified) Python 3 references."""
    text, tests, _ = TASKS[name]
    title = text.split("\n", 1)[0]
    public = [TestCase(input=i, output=o) for i, o in tests]
    return TaskDescription(
        id=f"tests/{name}", source="tests", kind=TaskKind.STDIO_PROGRAM, title=title,
        statement=text, examples=[Example(input=i, output=o) for i, o in tests],
        tests=Tests(public=public),
        references=[ReferenceProgram(language="python3", code=s, verified=verified)
                    for s in solutions],
        provenance=Provenance(dataset="tests/answer_key", location=name))


def module(name: str, key: str) -> str:
    """The compiled bootcamp of ``name`` with ``key`` embedded as its answer key."""
    text, _, part = TASKS[name]
    return compiled.assemble(part, key, text)


def examples(name: str) -> list[str]:
    return [i for i, _ in TASKS[name][1]]


def record(number: int, name: str, solutions: list[str]) -> dict[str, Any]:
    """The task as a record of the CodeContests schema (``solutions`` all Python 3)."""
    text, tests, _ = TASKS[name]
    title = text.split("\n", 1)[0]
    empty: dict[str, list[Any]] = {"input": [], "output": []}
    return {"name": f"{number:02d}_A. {title}", "description": text,
            "public_tests": {"input": [i for i, _ in tests], "output": [o for _, o in tests]},
            "private_tests": empty, "generated_tests": empty, "source": 2, "difficulty": 7,
            "solutions": {"language": [3] * len(solutions), "solution": solutions},
            "incorrect_solutions": {"language": [], "solution": []}, "cf_contest_id": 9990 + number, "cf_index": "A",
            "cf_points": 500.0, "cf_rating": 1200}
