"""Function mode (HumanEval) against the scripted endpoint: ``synth run --source humaneval
--limit 1`` takes HumanEval/0 (has_close_elements), whose reference is a Python function.

The coder's draft builds the call's first argument as a tuple where the signature says
``List[float]``: the gate's inputs check rejects it (``argument_type``), and it has two levels
where the run's library names three (``level_names``). The revision is right
only when its prompt is the function-mode one (the model's own part, no embedded function
source in it, the gate's evidence naming the annotation); else it sends the draft again. The
judge writes nothing (function mode needs no checker). The solver reads the call from the
prompt and answers right on about half of the prompts, with the value written as the prompt's
rule asks.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Callable
from pathlib import Path

from fakes.openai_server import Reply, Request
from synth.bootcamp import FUNCTION_PROMPT_INTRO

PART = (Path(__file__).resolve().parents[1] / "fixtures" / "function"
        / "ok_has_close_elements.model.py").read_text(encoding="utf-8")
DRAFT = PART.replace('return [identity["numbers"], identity["threshold"]]',
                     'return [tuple(identity["numbers"]), identity["threshold"]]').replace(
    '"medium": {"n": 7}, ', '')  # and two levels, where the library's curriculum wants three
_CALL = re.compile(r"The call:\n```python\nhas_close_elements\((.*)\)\n```", re.S)


def _fenced(code: str) -> str:
    return f"Here is my part.\n\n```python\n{code}```\n"


def _kind(req: Request) -> str:
    text = req.last_user
    if text.startswith(("You write *independent checkers*", "You write *input validators*",
                        "You write *reference solvers*")):
        return "judge"
    if not any(m.get("role") == "system" and "You write *bootcamps*" in m.get("content", "")
               for m in req.messages):
        return "solve"
    return "revise" if "did not pass the quality gate" in text else "draft"


def _close(numbers: list[float], threshold: float) -> bool:
    return any(abs(a - b) < threshold for i, a in enumerate(numbers)
               for j, b in enumerate(numbers) if i != j)


def function_scenario() -> Callable[[Request], Reply]:
    def script(req: Request) -> Reply:
        kind = _kind(req)
        text = req.last_user
        if kind == "judge":
            return Reply(text="I cannot write this.")
        if kind == "draft":
            ok = "Function mode: you write only the arguments" in text and \
                "def call_args" in text and "class HumanEval0HasCloseElementsBootcamp" in text \
                and "# numbers: list[float] (the task passes e.g. [" in text \
                and 'return [identity["numbers"], identity["threshold"]]' in text
            return Reply(text=_fenced(DRAFT if ok else "print('wrong prompt')\n"))
        if kind == "revise":
            own = "tuple(identity" in text and "_REFERENCE_PROGRAM" not in text and \
                "the annotation List[float]" in text and \
                "name their first presets 'easy', 'medium', 'hard'" in text
            return Reply(text=_fenced(PART if own else DRAFT))
        match = _CALL.search(text)
        if not text.startswith(FUNCTION_PROMPT_INTRO) or match is None:
            return Reply(text="<answer>?</answer>")
        numbers, threshold = ast.literal_eval(f"({match.group(1)})")
        right = _close(list(numbers), float(threshold))
        ok = int(hashlib.sha256(text.encode()).hexdigest(), 16) % 2 == 0
        return Reply(text=f"The call returns <answer>{right if ok else not right}</answer>")

    return script
