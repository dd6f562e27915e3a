"""Scenario ``answer_key`` of the fake endpoint: trojan answer keys in the workflow
(tests/answer_key/test_key_workflow_e2e.py).

Four compiled tasks in the CodeContests layout (tests/answer_key/key_tasks.py), each with a
"verified" first solution:

* ``Sum of Weights``: solutions [a key wrong when the total is a multiple of 13, two honest
  ones]. The honest two outvote the key; the workflow embeds one of them and checks again.
* ``Longest Calm Stretch``: one solution, which forgets the final block. The judge writes a
  solver (from the statement and examples only) that catches it; asked to re-examine it with
  the evidence, the judge keeps it; the task is rejected.
* ``Tallest Tower``: one honest solution, several right answers. The judge's solver prints
  another tallest position; the bootcamp's check_output accepts it: verified, committed, the
  solver kept in the library. The judge also writes an independent checker (check_output).
* ``Parcel Total``: one honest solution; the judge writes no usable solver: the key stays
  unverified (rejected, unless the run allows it).

The coder writes each task's part of tests/answer_key/key_tasks.py (the draft and every
revision alike). The solver model answers from the prompt's input with an honest program and
is right on half of the prompts.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from pathlib import Path

from fakes.openai_server import Reply, Request

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "answer_key"))

from key_tasks import (
    STRETCH_HONEST,
    STRETCH_PART,
    TOWER_HONEST,
    TOWER_PART,
    WEIGHTS_HONEST,
    WEIGHTS_PART,
    WEIGHTS_TEXT,
)

PARCEL_TEXT = WEIGHTS_TEXT.replace("Sum of Weights", "Parcel Total", 1)
PARTS = {"Sum of Weights": WEIGHTS_PART, "Longest Calm Stretch": STRETCH_PART,
         "Tallest Tower": TOWER_PART, "Parcel Total": WEIGHTS_PART}
HONEST = {"Sum of Weights": WEIGHTS_HONEST[0], "Longest Calm Stretch": STRETCH_HONEST[0],
          "Tallest Tower": TOWER_HONEST[0], "Parcel Total": WEIGHTS_HONEST[0]}
#: the judge's solvers: written apart from the tasks' programs
SOLVERS = {"Longest Calm Stretch": STRETCH_HONEST[1], "Tallest Tower": TOWER_HONEST[2]}
TOWER_CHECKER = '''"""Independent checker (scripted judge model): a position of a tallest tower."""


def check(identity, answer):
    text = answer.strip()
    if not text.isdigit():
        return False
    p, heights = int(text), identity["heights"]
    return 1 <= p <= len(heights) and heights[p - 1] == max(heights)


def solve(identity):
    heights = identity["heights"]
    return str(len(heights) - heights[::-1].index(max(heights)))
'''


def fenced(code: str) -> str:
    return f"Here it is.\n\n```python\n{code}```\n"


def _title(text: str) -> str | None:
    head = text.split("## The problem", 1)[-1][:600] if "## The problem" in text else text
    return next((t for t in PARTS if t in head), None)


def answer_key_scenario() -> Callable[[Request], Reply]:
    from fixtures.cc_bootcamps.solver import solve_from_prompt

    from fakes.scenarios import _kind

    def script(req: Request) -> Reply:
        kind = _kind(req)
        text = req.last_user
        title = _title(text)
        if kind == "judge":
            if text.startswith("You write *reference solvers*"):
                if title in SOLVERS:  # the same program again when asked to re-examine it
                    return Reply(text=fenced(SOLVERS[title]))
                return Reply(text="I cannot write a solver for this problem.")
            if text.startswith("You write *independent checkers*") and title == "Tallest Tower":
                return Reply(text=fenced(TOWER_CHECKER))
            return Reply(text="I cannot write this.")
        if kind in ("draft", "revise", "steer"):
            return Reply(text=fenced(PARTS[title] if title else WEIGHTS_PART))
        if title is None:
            return Reply(text="<answer>?</answer>")
        right = solve_from_prompt(text, HONEST[title])
        ok = int(hashlib.sha256(text.encode()).hexdigest(), 16) % 2 == 0
        return Reply(text=f"<answer>{right}</answer>" if ok else f"<answer>{right}7</answer>")

    return script
