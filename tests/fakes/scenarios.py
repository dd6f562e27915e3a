"""Scripted behaviours of the fake OpenAI server for end-to-end runs.

A scenario decides, from the request alone, what the code model and the solver say:

* ``toy``: tasks whose title names the behaviour (local Markdown tasks written by the tests):
  ``accept-*`` first draft passes and the solver is right on easy prompts only (in band);
  ``revise-*`` first draft fails the gate, the revision passes, then as ``accept``;
  ``broken-*`` never passes the gate; ``easy-*`` always solved; ``hard-*`` never solved.
* ``codecontests5``: the first five bundled CodeContests problems, with fixture bootcamps that
  match their reference programs (see tests/fixtures/cc_bootcamps/).

``fault_rate`` answers that share of calls with a 429, a 500, a timeout-length delay, garbage
or a dropped connection instead (seeded, so a run is reproducible).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import threading
from collections.abc import Callable
from pathlib import Path

from fakes.openai_server import Reply, Request

ROOT = Path(__file__).resolve().parents[2]
TOY_SUM = '''"""Toy bootcamp written by the fake code model: the sum of a list of integers."""

from synth.bootcamp import BaseBootcamp


class ToySumBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 3, "hi": 9}, "medium": {"n": 5, "hi": 99}, "hard": {"n": 8, "hi": 999}}

    def __init__(self, seed=None, n=4, hi=99):
        super().__init__(seed=seed)
        self.n = n
        self.hi = hi

    def case_generator(self):
        return {"numbers": [self.rng.randint(0, self.hi) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        nums = " ".join(str(x) for x in identity["numbers"])
        return f"Add these numbers: {nums}. Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["numbers"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        s = solution.strip()
        if not s.lstrip("-").isdigit() or len(s) > 30:
            return False
        return int(s) == sum(identity["numbers"])
'''
BROKEN = TOY_SUM.replace("from synth.bootcamp import BaseBootcamp", "import os\nfrom synth.bootcamp import BaseBootcamp")


def fenced(code: str) -> str:
    return f"Here is the bootcamp.\n\n```python\n{code}```\n"


def _kind(req: Request) -> str:
    text = req.last_user
    if "did not pass the quality gate" in text or "could not be used" in text:
        return "revise"
    if "You write *bootcamps*" in text:
        return "draft"
    return "solve"


def _task_id(text: str) -> str:
    m = re.search(r"Task id: (\S+)", text) or re.search(r"\((\w+/[^)\s]+)\)", text)
    return m.group(1) if m else ""


def _wrong(answer: str) -> str:
    return f"<answer>{answer}0</answer>"  # a different integer / string


def toy(req: Request) -> Reply:
    kind = _kind(req)
    text = req.last_user
    if kind in ("draft", "revise"):
        tid = _task_id(text)
        if "broken" in tid:
            return Reply(text=fenced(BROKEN))
        if "revise" in tid and kind == "draft":
            return Reply(text=fenced(BROKEN))
        code = TOY_SUM
        # each task gets its own module text, so library content differs per task
        code = code.replace("Toy bootcamp written", f"Toy bootcamp for {tid}, written")
        if "easy" in tid:
            code = code.replace("return f\"Add these", "return f\"[easy] Add these")
        if "hard" in tid:
            code = code.replace("return f\"Add these", "return f\"[hard] Add these")
        return Reply(text=fenced(code))
    nums = [int(x) for x in re.findall(r"\d+", text.split(":", 1)[1].split(".", 1)[0])]
    answer = str(sum(nums))
    if text.startswith("[easy]"):
        return Reply(text=f"<answer>{answer}</answer>")
    if text.startswith("[hard]"):
        return Reply(text=_wrong(answer))
    return Reply(text=f"<answer>{answer}</answer>" if len(nums) <= 3 else _wrong(answer))


def _cc_tasks() -> list[dict]:
    lines = (ROOT / "task_descriptions/codecontests/sample.jsonl").read_text().splitlines()
    return [json.loads(x) for x in lines[:5]]


def codecontests5() -> Callable[[Request], Reply]:
    from fixtures.cc_bootcamps.solver import solve_from_prompt

    tasks = _cc_tasks()
    fixtures = {i: (ROOT / f"tests/fixtures/cc_bootcamps/{i + 1:02d}.py").read_text() for i in range(5)}
    refs = {i: t["solutions"]["solution"][t["solutions"]["language"].index(3)] for i, t in enumerate(tasks)}
    # behaviour per task index: (first draft passes, revision passes, solver policy)
    plan = {0: ("broken", "fixture", "half"), 1: ("fixture", "fixture", "half"),
            2: ("broken", "broken", "half"), 3: ("fixture", "fixture", "always"),
            4: ("fixture", "fixture", "never")}
    markers = {i: fixtures[i] for i in range(5)}

    def which_task(text: str) -> int | None:
        for i, t in enumerate(tasks):
            if t["name"].split(". ", 1)[1] in text:
                return i
        return None

    def which_fixture(prompt: str) -> int | None:
        for i, code in markers.items():
            head = re.search(r"FAKE-SOLVER-KEY: (\w+)", code)
            if head and head.group(1) in prompt:
                return i
        return None

    def script(req: Request) -> Reply:
        kind = _kind(req)
        text = req.last_user
        if kind in ("draft", "revise"):
            i = which_task(text)
            if i is None:
                return Reply(text="I do not know this task.")
            choice = plan[i][0 if kind == "draft" else 1]
            return Reply(text=fenced(BROKEN if choice == "broken" else fixtures[i]))
        i = which_fixture(text)
        if i is None:
            return Reply(text="<answer>?</answer>")
        right = solve_from_prompt(text, refs[i])
        policy = plan[i][2]
        ok = policy == "always" or (
            policy == "half" and int(hashlib.sha256(text.encode()).hexdigest(), 16) % 2 == 0
        )
        return Reply(text=f"<answer>{right}</answer>" if ok else f"<answer>{right} x</answer>")

    return script


SCENARIOS: dict[str, Callable[[], Callable[[Request], Reply]]] = {
    "toy": lambda: toy,
    "codecontests5": codecontests5,
}


def with_faults(script: Callable[[Request], Reply], rate: float, seed: int, timeout_s: float = 3.0
                ) -> Callable[[Request], Reply]:
    rng = random.Random(seed)
    lock = threading.Lock()
    faults = [
        lambda: Reply(status=429, headers={"retry-after": "0.05"}),
        lambda: Reply(status=500),
        lambda: Reply(status=503),
        lambda: Reply(delay_s=timeout_s, text="late"),
        lambda: Reply(garbage=True),
        lambda: Reply(drop=True),
    ]

    def faulty(req: Request) -> Reply:
        with lock:
            roll = rng.random()
            pick = rng.randrange(len(faults))
        if roll < rate:
            return faults[pick]()
        return script(req)

    return faulty


def build(name: str, fault_rate: float = 0.0, seed: int = 1, delay_s: float = 0.0
          ) -> Callable[[Request], Reply]:
    script = SCENARIOS[name]()
    if delay_s:
        inner = script

        def script(req: Request) -> Reply:
            import time

            time.sleep(delay_s)
            return inner(req)

    return with_faults(script, fault_rate, seed) if fault_rate else script
