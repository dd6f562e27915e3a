"""Scenario ``validator`` of the fake endpoint: the judge's input validator at work
(tests/workflow/test_validator_e2e.py).

Two compiled tasks in the CodeContests layout, written for the test (:func:`record`): share the
candies of ``n`` bags equally; the Input section guarantees that the total is even -- a
guarantee the statement's model-free rules do not read, so only a validator sees it broken.

* ``Even Split``: the judge's first validator wants ``n >= 3`` and rejects an example input; the
  second (only when its prompt shows the refused validator and the rejected example) is right.
  The draft's generator ignores the guarantee (odd totals); the gate's validator rejects it
  naming the rule; the revision (only when its prompt shows the validator's reason and the
  stdin) keeps every total even and is accepted.
* ``Fair Candy Share``: the judge's validator is wrong (``a_i <= 50`` where the statement says
  100); the coder's draft is right, and its revision argues ``VALIDATOR IS WRONG:`` without
  code; the rewritten validator (only when the prompt carries the argument and the evidence) is
  right, and the same module passes.

The solver runs the reference program on the prompt's input and is right on half the prompts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from fakes.openai_server import Reply, Request

REFERENCE = "n = int(input())\na = list(map(int, input().split()))\nprint(sum(a) // 2)\n"

_DESCRIPTION = """{title}

{story}

Input

The first line contains one integer n (1 ≤ n ≤ 100) — the number of bags.

The second line contains n integers a_1, a_2, ..., a_n (1 ≤ a_i ≤ 100) — the numbers of candies \
in the bags. It is guaranteed that the total number of candies is even.

Output

Print one integer: how many candies each {who} gets when they share all the candies equally.

Examples

Input

3
1 2 3


Output

3


Input

2
5 7


Output

6
"""

TASKS = {"Even Split": ("Two friends share the candies of n bags.", "friend"),
         "Fair Candy Share": ("A brother and a sister split a heap of candy bags between them.",
                              "child")}


def record(number: int, title: str) -> dict[str, Any]:
    """A CodeContests record of the candy task (its reference program verifies in the sandbox)."""
    story, who = TASKS[title]
    tests = {"input": ["3\n1 2 3\n", "2\n5 7\n"], "output": ["3\n", "6\n"]}
    empty: dict[str, list[Any]] = {"input": [], "output": []}
    return {"name": f"{number:02d}_A. {title}",
            "description": _DESCRIPTION.format(title=title, story=story, who=who),
            "public_tests": tests, "private_tests": empty, "generated_tests": empty,
            "source": 2, "difficulty": 7, "solutions": {"language": [3], "solution": [REFERENCE]},
            "incorrect_solutions": {"language": [], "solution": []}, "cf_contest_id": 9999,
            "cf_index": "A", "cf_points": 500.0, "cf_rating": 1200}


_PART = '''"""Compiled bootcamp of bootcamp-synth; task: share the candies of n bags equally.

Provenance: written for tests/workflow/test_validator_e2e.py (the scripted code model).
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class CandySplitBootcamp(CompiledBootcamp):
    """n bags of candies, shared equally by two."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_bags": 3, "max_candies": 10},
        "medium": {"max_bags": 8, "max_candies": 50},
        "hard": {"max_bags": 20, "max_candies": 100},
    }

    def __init__(self, seed: int | None = None, max_bags: int = 8, max_candies: int = 50) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_bags <= 100 or not 2 <= max_candies <= 100:
            raise ValueError("need 1 <= max_bags <= 100 and 2 <= max_candies <= 100")
        self.max_bags, self.max_candies = max_bags, max_candies

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(max(1, self.max_bags // 2), self.max_bags)
        bags = [rng.randint(1, self.max_candies) for _ in range(n)]
#EVEN#
        return {"bags": bags}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        bags = identity["bags"]
        return f"{len(bags)}\\n{' '.join(map(str, bags))}\\n"
'''
#: the draft: the totals are odd about half the time (the guarantee is ignored)
DRAFT = _PART.replace("#EVEN#\n", "")
#: the revision: an odd total is made even by moving one bag by one candy
FIXED = _PART.replace("#EVEN#\n", '''        if sum(bags) % 2:  # the statement guarantees an even total
            i = rng.randrange(n)
            bags[i] += -1 if bags[i] > 1 else 1
''')

_VALIDATOR = '''"""Input validator (scripted judge model): n bags, 1 <= a_i <= LIMIT, an even total."""

import re

INT = re.compile(r"[1-9][0-9]*")


def validate(stdin):
    lines = stdin.split("\\n")
    while len(lines) > 2 and lines[-1] == "":
        lines.pop()
    if len(lines) != 2:
        return f"expected two lines, got {len(lines)}"
    if not INT.fullmatch(lines[0].strip()):
        return "the first line must hold one positive integer n"
    n = int(lines[0])
    if not LOW_N <= n <= 100:
        return f"n = {n} breaks LOW_N <= n <= 100"
    values = lines[1].split()
    if len(values) != n:
        return f"the second line holds {len(values)} values, not n = {n}"
    if not all(INT.fullmatch(v) for v in values):
        return "the second line must hold positive integers"
    a = [int(v) for v in values]
    for i, x in enumerate(a, 1):
        if x > LIMIT:
            return f"a_{i} = {x} breaks 1 <= a_i <= LIMIT"
    if sum(a) % 2:
        return (f"the total number of candies {sum(a)} is odd, but the statement guarantees "
                "that it is even")
    return None
'''
VALIDATOR = _VALIDATOR.replace("LOW_N", "1").replace("LIMIT", "100")
#: refused at vetting: it rejects the second example input (n = 2)
VALIDATOR_NEEDS_3 = _VALIDATOR.replace("LOW_N", "3").replace("LIMIT", "100")
#: accepts both examples, but wrong: a_i <= 50 where the statement says 100
VALIDATOR_STRICT = _VALIDATOR.replace("LOW_N", "1").replace("LIMIT", "50")

ARGUMENT = ("VALIDATOR IS WRONG: the statement says 1 ≤ a_i ≤ 100, so a bag of 77 candies is a "
            "legal input; the validator's limit of 50 is not in the statement.")


def fenced(code: str) -> str:
    return f"Here it is.\n\n```python\n{code}```\n"


def _title(text: str) -> str | None:
    return next((t for t in TASKS if t in text), None)


def validator_scenario() -> Callable[[Request], Reply]:
    from fixtures.cc_bootcamps.solver import solve_from_prompt

    from fakes.scenarios import _kind

    def script(req: Request) -> Reply:
        kind = _kind(req)
        text = req.last_user
        title = _title(text)
        if kind == "judge":
            if not text.startswith("You write *input validators*"):
                return Reply(text="I cannot write an independent checker for this task.")
            if title == "Even Split":
                refused = ("## Your previous validator was refused" in text
                           and "rejects 1 of the 2 example inputs" in text
                           and "n = 2 breaks 3 <= n <= 100" in text)
                return Reply(text=fenced(VALIDATOR if refused else VALIDATOR_NEEDS_3))
            argued = ("## Your validator was disputed" in text and "a bag of 77 candies" in text
                      and "breaks 1 <= a_i <= 50" in text and VALIDATOR_STRICT.strip() in text)
            return Reply(text=fenced(VALIDATOR if argued else VALIDATOR_STRICT))
        if kind == "draft":
            return Reply(text=fenced(DRAFT if title == "Even Split" else FIXED))
        if kind == "revise":
            if title == "Fair Candy Share":
                return Reply(text=ARGUMENT if "VALIDATOR IS WRONG:" in text else fenced(FIXED))
            shown = ("the input validator rejects" in text and "validator_says:" in text
                     and "is odd, but the statement guarantees that it is even" in text)
            return Reply(text=fenced(FIXED if shown else DRAFT))
        if kind != "solve":
            return Reply(text=fenced(FIXED))
        right = solve_from_prompt(text, REFERENCE)
        ok = int(hashlib.sha256(text.encode()).hexdigest(), 16) % 2 == 0
        return Reply(text=f"<answer>{right}</answer>" if ok else f"<answer>{right} 9</answer>")

    return script
