"""Scripted behaviours of the fake OpenAI server for end-to-end runs.

A scenario decides, from the request alone, what the code model and the solver say:

* ``toy``: tasks whose title names the behaviour (local Markdown tasks written by the tests):
  ``accept-*`` first draft passes and the solver is right on easy prompts only (in band);
  ``revise-*`` first draft fails the gate, the revision passes, then as ``accept``;
  ``broken-*`` never passes the gate; ``easy-*`` always solved; ``hard-*`` never solved (a
  steering round gets the same module back); ``steer-*`` always solved until a steering prompt
  shows every level at 1.000 and asks for a harder bootcamp: the steered module is in band.
* ``codecontests5``: the first five bundled CodeContests problems, with fixture bootcamps that
  match their reference programs (see tests/fixtures/cc_bootcamps/).
* ``judge``: the independent checker at work (tests/workflow/test_judge_e2e.py). ``*sort*``: the
  first draft's verifier accepts any permutation (it passes every other check); the judge's
  checker exposes it; the revision (only when the prompt shows the evidence) fixes it.
  ``*argue*``: the bootcamp is right and the judge's first checker is wrong (it wants the
  minimum); the coder argues ``CHECKER IS WRONG:``; the rewritten checker (only when the judge's
  prompt carries the argument and the evidence) is right. ``*refmax*``: a task with a reference
  program whose first checker is wrong on a few cases; the program sides with the bootcamp.
  ``*nochecker*``: the judge's first checker imports ``os`` (refused by the lint), its second
  reply has no code: the task goes on without a checker. ``*reshape*``: the draft fails the
  static gate; its revision renames the identity's field, so the checker is rewritten for it.

In every scenario the judge model (prompts starting "You write *independent checkers*") answers
too: ``toy`` with a right checker for the sum, ``codecontests5`` with no code at all (the task
goes on without a checker).

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
    """judge | draft | revise | steer | solve. A coder request is the stable prefix (system
    message, "You write *bootcamps*") followed by its task part (the user message)."""
    text = req.last_user
    if text.startswith(("You write *independent checkers*", "You write *input validators*",
                        "You write *reference solvers*")):
        return "judge"
    coder = any(m.get("role") == "system" and "You write *bootcamps*" in m.get("content", "")
                for m in req.messages)
    if not coder:
        return "solve"
    if "its difficulty is outside the band" in text:
        return "steer"
    if "did not pass the quality gate" in text or "could not be used" in text:
        return "revise"
    return "draft"


def _task_id(text: str) -> str:
    m = re.search(r"Task id: (\S+)", text) or re.search(r"\((\w+/[^)\s]+)\)", text)
    return m.group(1) if m else ""


def _wrong(answer: str) -> str:
    return f"<answer>{answer}0</answer>"  # a different integer / string


SUM_CHECKER = '''"""Independent checker (scripted judge model): the sum of the numbers."""

import re


def check(identity, answer):
    s = answer.strip()
    if not re.fullmatch(r"-?[0-9]{1,29}", s):
        return False
    return int(s) == sum(identity["numbers"])


def solve(identity):
    return str(sum(identity["numbers"]))


def probes(identity):
    total = sum(identity["numbers"])
    return [str(total + 1), str(-total) if total else "1", " ".join(str(x) for x in identity["numbers"])]
'''


def toy(req: Request) -> Reply:
    kind = _kind(req)
    text = req.last_user
    if kind == "judge":
        return Reply(text=fenced(SUM_CHECKER))
    if kind in ("draft", "revise", "steer"):
        tid = _task_id(text)
        if "broken" in tid:
            return Reply(text=fenced(BROKEN))
        if "revise" in tid and kind == "draft":
            return Reply(text=fenced(BROKEN))
        code = TOY_SUM
        # each task gets its own module text, so library content differs per task
        code = code.replace("Toy bootcamp written", f"Toy bootcamp for {tid}, written")
        # steer-*: too easy until a steering prompt shows the per-level rates and asks for harder
        steered = kind == "steer" and "steer" in tid and "TOO EASY" in text and \
            "- easy: 1.000" in text and "- hard: 1.000" in text and "Make the bootcamp HARDER" in text
        if "easy" in tid or ("steer" in tid and not steered):
            code = code.replace("return f\"Add these", "return f\"[easy] Add these")
        if "hard" in tid:
            code = code.replace("return f\"Add these", "return f\"[hard] Add these")
        if "surrogate" in tid:  # lone surrogates in the reply (JSON escapes): code and solver
            code = code.replace("return f\"Add these", "return f\"[sur] Add these") + "# \ud800\n"
            return Reply(text=fenced(code) + "\udfff")
        return Reply(text=fenced(code))
    nums = [int(x) for x in re.findall(r"\d+", text.split(":", 1)[1].split(".", 1)[0])]
    answer = str(sum(nums))
    if text.startswith("[easy]"):
        return Reply(text=f"<answer>{answer}</answer>")
    if text.startswith("[hard]"):
        return Reply(text=_wrong(answer))
    if text.startswith("[sur]"):
        return Reply(text=f"\udc80 <answer>{answer}</answer>" if len(nums) <= 3 else
                     f"<answer>{answer}\ud800</answer>")
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
        if kind == "judge":
            return Reply(text="I cannot write an independent checker for this task.")
        if kind in ("draft", "revise", "steer"):
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


SORT_LENIENT = '''"""Sort a list of integers in ascending order (written by the scripted fake code model)."""

from synth.bootcamp import BaseBootcamp


class SortBootcamp(BaseBootcamp):
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
        return (f"Sort these integers in ascending order: {nums}. Answer with the sorted numbers "
                "separated by single spaces, as <answer>a b c</answer>.")

    @classmethod
    def reference_answer(cls, identity):
        return " ".join(str(x) for x in sorted(identity["numbers"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        if len(solution) > 10_000:
            return False
        tokens = solution.split()
        if not all(t.isdigit() and len(t) < 12 for t in tokens):
            return False
        return sorted(int(t) for t in tokens) == sorted(identity["numbers"])
'''
#: the fix: the order of the answer counts
SORT_FIXED = SORT_LENIENT.replace("return sorted(int(t) for t in tokens) ==",
                                  "return [int(t) for t in tokens] ==")
SORT_CHECKER = '''"""Independent checker (scripted judge model): the numbers, sorted ascending."""

import re


def check(identity, answer):
    tokens = answer.split()
    if len(answer) > 10_000 or not all(re.fullmatch(r"[0-9]{1,11}", t) for t in tokens):
        return False
    return [int(t) for t in tokens] == sorted(identity["numbers"])


def solve(identity):
    return " ".join(str(x) for x in sorted(identity["numbers"]))


def probes(identity):
    nums = identity["numbers"]
    return [" ".join(str(x) for x in nums), " ".join(str(x) for x in sorted(nums, reverse=True))]
'''
MAX_BOOTCAMP = '''"""The largest of a list of integers (written by the scripted fake code model)."""

from synth.bootcamp import BaseBootcamp


class MaxBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 3, "hi": 9}, "medium": {"n": 6, "hi": 99}, "hard": {"n": 10, "hi": 999}}

    def __init__(self, seed=None, n=4, hi=99):
        super().__init__(seed=seed)
        self.n = n
        self.hi = hi

    def case_generator(self):
        return {"numbers": [self.rng.randint(-self.hi, self.hi) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        nums = " ".join(str(x) for x in identity["numbers"])
        return (f"Which is the largest of these integers: {nums}? "
                "Answer with that one integer, as <answer>N</answer>.")

    @staticmethod
    def render_stdin(identity):
        nums = identity["numbers"]
        return f"{len(nums)}\\n{' '.join(str(x) for x in nums)}\\n"

    @classmethod
    def reference_answer(cls, identity):
        return str(max(identity["numbers"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        s = solution.strip()
        if len(s) > 30 or not s.lstrip("-").isdigit() or s.count("-") > 1:
            return False
        return int(s) == max(identity["numbers"])
'''
#: MAX_BOOTCAMP without its reference_answer: a module, not a complete bootcamp
MAX_PARTIAL = MAX_BOOTCAMP.replace(
    "    @classmethod\n    def reference_answer(cls, identity):\n"
    "        return str(max(identity[\"numbers\"]))\n\n", "")
MAX_CHECKER = '''"""Independent checker (scripted judge model): the largest of the numbers."""

import re


def check(identity, answer):
    s = answer.strip()
    if not re.fullmatch(r"-?[0-9]{1,29}", s):
        return False
    return int(s) == max(identity["numbers"])


def solve(identity):
    return str(max(identity["numbers"]))


def probes(identity):
    nums = identity["numbers"]
    return [str(min(nums)), str(sorted(nums)[-2]) if len(nums) > 1 else "0", str(abs(max(nums)) + 1)]
'''
#: wrong on every case: it wants the smallest number
MAX_CHECKER_WRONG = '''"""Independent checker (scripted judge model, wrong): it compares with the minimum."""


def check(identity, answer):
    s = answer.strip()
    if len(s) > 30 or not s.lstrip("-").isdigit() or s.count("-") > 1:
        return False
    return int(s) == min(identity["numbers"])


def solve(identity):
    return str(min(identity["numbers"]))
'''
#: wrong on a few cases (a largest value that is 7 modulo 20), without solve() or probes()
MAX_CHECKER_RARE = '''"""Independent checker (scripted judge model, wrong on a few cases)."""


def check(identity, answer):
    s = answer.strip()
    if len(s) > 30 or not s.lstrip("-").isdigit() or s.count("-") > 1:
        return False
    best = max(identity["numbers"])
    return best % 20 != 7 and int(s) == best
'''
MAX_REFERENCE = "input()\nprint(max(map(int, input().split())))\n"
#: what the coder says when it holds the checker wrong (the judge's rewrite looks for it)
ARGUMENT_MIN = ("CHECKER IS WRONG: the task asks for the LARGEST integer of the list, and my "
                "reference answers are the maxima. The checker rejects the maximum on every case "
                "and accepts the smallest number: it computes min() where the statement says largest.")
#: the same task with the identity's field renamed (what a revision may do)
MAX_RESHAPED = MAX_BOOTCAMP.replace('"numbers"', '"values"')
MAX_CHECKER_RESHAPED = MAX_CHECKER.replace('"numbers"', '"values"')
ARGUMENT_REF = ("CHECKER IS WRONG: the reference program agrees with my reference answers on "
                "every disputed case (checker_outvoted); the checker rejects a correct maximum "
                "whenever that maximum is 7 modulo 20.")


def _numbers(prompt: str, end: str) -> list[int]:
    return [int(x) for x in prompt.split(": ", 1)[1].split(end, 1)[0].split()]


def judge_scenario() -> Callable[[Request], Reply]:
    def script(req: Request) -> Reply:
        kind = _kind(req)
        text = req.last_user
        tid = _task_id(text)
        if kind == "judge":
            if "sort" in tid:
                return Reply(text=fenced(SORT_CHECKER))
            if "nochecker" in tid:
                if "## Your previous checker was refused" in text:
                    return Reply(text="Sorry, I cannot write a checker for this task.")
                return Reply(text=fenced("import os\n\n" + MAX_CHECKER))
            if "reshape" in tid:
                changed = "## The instances changed" in text and '"values"' in text
                return Reply(text=fenced(MAX_CHECKER_RESHAPED if changed else MAX_CHECKER))
            disputed = "## Your checker was disputed" in text and "the bootcamp's verifier:" in text
            if "argue" in tid:
                ok = disputed and "it computes min() where the statement says largest" in text
                return Reply(text=fenced(MAX_CHECKER if ok else MAX_CHECKER_WRONG))
            ok = disputed and "7 modulo 20" in text and "reference program (third voter)" in text
            return Reply(text=fenced(MAX_CHECKER if ok else MAX_CHECKER_RARE))
        if kind == "draft":
            if "reshape" in tid:
                return Reply(text=fenced(MAX_BOOTCAMP.replace("from synth", "import os\nfrom synth")))
            return Reply(text=fenced(SORT_LENIENT if "sort" in tid else MAX_BOOTCAMP))
        if kind == "revise":
            if "reshape" in tid:
                return Reply(text=fenced(MAX_RESHAPED))
            if "sort" in tid:  # fixes the order only when the evidence says what is wrong
                shown = ("### verifier_too_lenient" in text and "independent checker: rejects it" in text
                         and "your verifier: score 1.0 (accepted)" in text)
                return Reply(text=fenced(SORT_FIXED if shown else SORT_LENIENT))
            program = "reference program (third voter), oracle check passed" in text
            if "CHECKER IS WRONG:" in text and "## differential: failed" in text and \
                    ("argue" in tid or program):
                return Reply(text=(ARGUMENT_MIN if "argue" in tid else ARGUMENT_REF)
                             + "\n\nMy module is unchanged.")
            return Reply(text=fenced(MAX_BOOTCAMP))
        if text.startswith("Sort these integers"):
            nums = _numbers(text, ".")
            right = " ".join(str(x) for x in sorted(nums))
            return Reply(text=f"<answer>{right if len(nums) <= 3 else right[::-1]}</answer>")
        if text.startswith("Which is the largest"):
            nums = _numbers(text, "?")
            return Reply(text=f"<answer>{max(nums) if len(nums) <= 3 else min(nums)}</answer>")
        return Reply(text="<answer>?</answer>")

    return script


#: the largest-integer bootcamp without its contract import (the pipeline repairs it) and with a
#: forbidden import (the static gate refuses it): the revision must see the repair and the finding
MAX_UNIMPORTED = MAX_BOOTCAMP.replace("from synth.bootcamp import BaseBootcamp\n", "import os\n")
#: a LEVELS preset that cannot be constructed (the construct check fails)
MAX_BAD_LEVEL = MAX_BOOTCAMP.replace('"hard": {"n": 10, "hi": 999}', '"hard": {"n": 0, "hi": 999}').replace(
    "        super().__init__(seed=seed)\n",
    "        super().__init__(seed=seed)\n        if n < 1:\n            raise ValueError('n must be positive')\n")
#: ``max`` written with a helper whose import is local to another method: bound somewhere, so
#: the static repair leaves it, and case_generator fails with a NameError (the gate's errors
#: call for the import)
MAX_LOCAL_IMPORT = MAX_BOOTCAMP.replace(
    '        return {"numbers": [self.rng.randint(-self.hi, self.hi) for _ in range(self.n)]}',
    '        return {"numbers": list(islice((self.rng.randint(-self.hi, self.hi) for _ in iter(int, 1)), self.n))}',
).replace("    @classmethod\n    def reference_answer(cls, identity):\n",
          "    @classmethod\n    def reference_answer(cls, identity):\n        from itertools import islice  # noqa\n\n")
LOOP_STATEMENT = "The first line holds n, the second n integers. Print the largest of them."


def feedback_scenario() -> Callable[[Request], Reply]:
    """``loop-*``: the feedback loop. The draft imports ``os`` (static gate), the first revision
    has a LEVELS preset that cannot be built (construct), the second is right -- each only when
    its prompt is self-contained: the task statement, the reference program and every earlier
    round's failures. ``repair-*``: the draft lacks its contract import (repaired before the
    gate) and imports ``os``; the revision is right only if its prompt says what the pipeline
    repaired. ``errfix-*``: the draft's NameError at generate is repaired from the gate's errors,
    then it passes. The judge answers with a right checker; the solver is right on easy prompts."""

    def context_ok(text: str, rounds: list[str]) -> bool:
        return (LOOP_STATEMENT in text and MAX_REFERENCE.strip() in text
                and all(r in text for r in rounds))

    def script(req: Request) -> Reply:
        kind = _kind(req)
        text = req.last_user
        tid = _task_id(text)
        if kind == "judge":
            return Reply(text=fenced(MAX_CHECKER))
        if kind in ("draft", "revise", "steer"):
            if "loop" in tid:
                if kind == "draft":
                    return Reply(text=fenced(MAX_BOOTCAMP.replace("from synth", "import os\nfrom synth")))
                first = "round 0 (draft): candidate 0: failed static"
                if "revision 1 of" in text:
                    return Reply(text=fenced(MAX_BAD_LEVEL if context_ok(text, [first]) else MAX_UNIMPORTED))
                second = "round 1 (revise): candidate 0: failed construct"
                return Reply(text=fenced(MAX_BOOTCAMP if context_ok(text, [first, second]) else MAX_BAD_LEVEL))
            if "repair" in tid:
                if kind == "draft":
                    return Reply(text=fenced(MAX_UNIMPORTED))
                shown = "the pipeline repaired: contract_import" in text and "from synth.bootcamp import" in text
                return Reply(text=fenced(MAX_BOOTCAMP if shown else MAX_UNIMPORTED))
            if "errfix" in tid:
                return Reply(text=fenced(MAX_LOCAL_IMPORT))
            return Reply(text=fenced(MAX_BOOTCAMP))
        if text.startswith("Which is the largest"):
            nums = _numbers(text, "?")
            return Reply(text=f"<answer>{max(nums) if len(nums) <= 3 else min(nums)}</answer>")
        return Reply(text="<answer>?</answer>")

    return script


def compiled_scenario() -> Callable[[Request], Reply]:
    """Compiled mode on bundled CodeContests records 8 ("One Wall Down") and 13 ("Strangers to
    m"), with the model parts of tests/fixtures/compiled. Record 13: the draft lacks its
    contract import (repaired) and imports ``os`` (static gate); the revision is right only when
    its prompt shows the model's own part -- not the embedded program -- and the compiled
    instructions. Record 8: the draft is a BaseBootcamp module without its reference_answer (not
    a complete bootcamp, which ``--mode auto`` would gate in full mode: it cannot be
    assembled); the revision, shown why, writes the part. The judge writes no checker; the solver runs the
    reference program on the prompt's input and is right on half of the prompts."""
    from fixtures.cc_bootcamps.solver import solve_from_prompt
    from fixtures.compiled.assemble_all import model_part, sample_reference

    from synth.bootcamp import COMPILED_PROMPT_INTRO

    parts = {"Strangers to m": model_part("13_strangers_to_m"),
             "One Wall Down": model_part("08_one_wall_down")}
    refs = {"Strangers to m": sample_reference(13), "One Wall Down": sample_reference(8)}

    def script(req: Request) -> Reply:
        kind = _kind(req)
        text = req.last_user
        if kind == "judge":
            return Reply(text="I cannot write an independent checker for this task.")
        name = next((n for n in parts if f"## Your task: {n}" in text or text.startswith(n)
                     or text.startswith(f"{COMPILED_PROMPT_INTRO}\n\n{n}")), None)
        if name is None:
            return Reply(text="<answer>?</answer>")
        if kind in ("draft", "revise", "steer"):
            part = parts[name]
            if name == "Strangers to m":
                if kind == "draft":
                    bad = part.replace("from synth.bootcamp import CompiledBootcamp\n", "import os\n")
                    return Reply(text=fenced(bad))
                own = "import os" in text and "_REFERENCE_PROGRAM" not in text and \
                    text.count(refs[name].strip()) == 1 and "Compiled mode: you write only" in text
                return Reply(text=fenced(part if own else part.replace("from synth", "import os\nfrom synth")))
            if kind == "draft":
                return Reply(text=fenced(MAX_PARTIAL))
            shown = "could not be assembled" in text and "subclass CompiledBootcamp" in text
            return Reply(text=fenced(part if shown else MAX_PARTIAL))
        right = solve_from_prompt(text, refs[name])
        ok = int(hashlib.sha256(text.encode()).hexdigest(), 16) % 2 == 0
        return Reply(text=f"<answer>{right}</answer>" if ok else f"<answer>{right} 9</answer>")

    return script


#: A compiled part for sample record 16 ("Bulbs Without Long Glows") in the way the 1.5B model
#: wrote it: the format is right, the presets are too small (6 distinct easy cases) and not
#: ordered (medium smaller than easy on k). Written for the tests.
TINY_LEVELS_PART = '''"""Bootcamp for Bulbs Without Long Glows (test fixture: presets too small)."""
from typing import Any

from synth.bootcamp import CompiledBootcamp


class BulbsWithoutLongGlowsBootcamp(CompiledBootcamp):
    LEVELS = {"easy": {"n": 3, "k": 2}, "medium": {"n": 5, "k": 1}, "hard": {"n": 10**4, "k": 2}}

    def __init__(self, seed: int | None = None, n: int = 3, k: int = 2) -> None:
        super().__init__(seed=seed)
        self.n, self.k = n, k

    def case_generator(self) -> dict[str, Any]:
        return {"n": self.rng.randint(1, self.n), "k": self.rng.randint(1, self.k)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return f"Input: {identity['n']} {identity['k']}\\n"
'''


def resize_scenario() -> Callable[[Request], Reply]:
    """Compiled mode on sample record 16 with :data:`TINY_LEVELS_PART` as the draft (and as any
    revision): the pipeline's repairs (the "Input:" label, then the presets) must make it pass.
    The judge writes no checker; the solver runs the reference program on the prompt's input and
    is right on half of the prompts."""
    from fixtures.cc_bootcamps.solver import solve_from_prompt
    from fixtures.compiled.assemble_all import sample_reference

    ref = sample_reference(16)

    def script(req: Request) -> Reply:
        kind = _kind(req)
        if kind == "judge":
            return Reply(text="I cannot write an independent checker for this task.")
        if kind in ("draft", "revise", "steer"):
            return Reply(text=fenced(TINY_LEVELS_PART))
        right = solve_from_prompt(req.last_user, ref)
        ok = int(hashlib.sha256(req.last_user.encode()).hexdigest(), 16) % 2 == 0
        return Reply(text=f"<answer>{right}</answer>" if ok else f"<answer>{right} 9</answer>")

    return script


_GUESS_NOTE = re.compile(r"(\d+) is too (low|high)\.")
_GUESS_TOP = re.compile(r"a whole number from 1 to (\d+)\.")


def multiturn_scenario() -> Callable[[Request], Reply]:
    """The coder writes a multi-turn bootcamp (the defect corpus's clean guess-the-number game);
    the solver plays it over the conversation so far: a halving search when the secret is at
    most 100 (it wins within par), the guess 1 again and again above that (it never wins)."""
    game = (ROOT / "tests/defects/multiturn/clean_guess.py").read_text()

    def script(req: Request) -> Reply:
        kind = _kind(req)
        if kind == "judge":
            return Reply(text=fenced(SUM_CHECKER))
        if kind != "solve":
            return Reply(text=fenced(game))
        users = [m.get("content", "") for m in req.messages if m.get("role") == "user"]
        top = int(_GUESS_TOP.findall(users[0])[0]) if _GUESS_TOP.findall(users[0]) else 100
        if top > 100:
            return Reply(text="A small number first.\n<answer>1</answer>")
        low, high = 1, top
        for text in users:
            for number, side in _GUESS_NOTE.findall(text):
                if side == "low":
                    low = max(low, int(number) + 1)
                else:
                    high = min(high, int(number) - 1)
        return Reply(text=f"Halving the range {low}..{high}.\n<answer>{(low + high) // 2}</answer>")

    return script


def _validator() -> Callable[[Request], Reply]:
    from fakes.validator_scenario import validator_scenario  # the judge's input validator

    return validator_scenario()


def _answer_key() -> Callable[[Request], Reply]:
    from fakes.answer_key_scenario import answer_key_scenario  # trojan answer keys

    return answer_key_scenario()


def _function() -> Callable[[Request], Reply]:
    from fakes.function_scenario import function_scenario  # HumanEval in function mode

    return function_scenario()


SCENARIOS: dict[str, Callable[[], Callable[[Request], Reply]]] = {
    "answer_key": _answer_key,
    "function": _function,
    "validator": _validator,
    "multiturn": multiturn_scenario,
    "resize": resize_scenario,
    "compiled": compiled_scenario,
    "feedback": feedback_scenario,
    "toy": lambda: toy,
    "codecontests5": codecontests5,
    "judge": judge_scenario,
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


def with_key_solvers(script: Callable[[Request], Reply]) -> Callable[[Request], Reply]:
    """Solver prompts (the answer key's second voter) for the compiled tasks the scenarios
    share are answered from tests/fakes/key_solvers.py; the rest go to the scenario."""
    from fakes.key_solvers import answer

    def solving(req: Request) -> Reply:
        return answer(req) or script(req)

    return solving


def build(name: str, fault_rate: float = 0.0, seed: int = 1, delay_s: float = 0.0
          ) -> Callable[[Request], Reply]:
    script = with_key_solvers(SCENARIOS[name]())
    if delay_s:
        inner = script

        def script(req: Request) -> Reply:
            import time

            time.sleep(delay_s)
            return inner(req)

    return with_faults(script, fault_rate, seed) if fault_rate else script
