"""A tiny builder of code rows for the code reward's tests, in the format of docs/code-rl.md
(what ``synth export --format code`` writes), from a library's compiled or function bootcamp
loaded INTO THIS PROCESS (trusted: the test's own library). Plus two toy bootcamps the shipped
library lacks: a stdin task with several valid outputs (judged by its ``check_output``) and a
function task (judged by value)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from synth.bootcamp import CompiledBootcamp, FunctionBootcamp
from synth.library import Library
from synth.values import encode, parse

TWO_SUMMANDS = '''"""Toy compiled bootcamp for tests: two positive summands of n (any pair is accepted)."""

import re
from typing import Any

from synth.bootcamp import CompiledBootcamp


class TwoSummandsBootcamp(CompiledBootcamp):
    REFERENCE_PROGRAM = "n = int(input())\\nprint(1, n - 1)\\n"
    TASK_TEXT = (
        "Two Summands\\n\\nGiven an integer n, print two positive integers a and b with "
        "a + b = n. Any such pair is accepted.\\n\\nInput\\n\\nOne integer n (2 <= n <= 10^9)."
        "\\n\\nOutput\\n\\nTwo positive integers a and b, separated by a space.\\n")
    LEVELS = {"easy": {"top": 100}, "hard": {"top": 1000000000}}

    def __init__(self, seed: int | None = None, top: int = 50) -> None:
        super().__init__(seed=seed)
        self.top = top

    def case_generator(self) -> dict[str, Any]:
        return {"n": self.rng.randint(2, self.top)}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return f"{identity['n']}\\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        parts = answer.split()
        if len(parts) != 2 or not all(re.fullmatch("[0-9]{1,12}", p) for p in parts):
            return False
        a, b = int(parts[0]), int(parts[1])
        return a >= 1 and b >= 1 and a + b == identity["n"]
'''

MIN_MAX = '''"""Toy function bootcamp for tests: the smallest and the largest item of a list."""

from typing import Any

from synth.bootcamp import FunctionBootcamp


class MinMaxBootcamp(FunctionBootcamp):
    REFERENCE_PROGRAM = "def min_max(xs):\\n    return (min(xs), max(xs))\\n"
    ENTRY_POINT = "min_max"
    TASK_TEXT = (
        "def min_max(xs: list[int]) -> tuple[int, int]:\\n"
        "    \\"\\"\\"The smallest and the largest item of a non-empty list, as a tuple.\\n\\n"
        "    >>> min_max([3, 1, 2])\\n    (1, 3)\\n    \\"\\"\\"\\n")
    LEVELS = {"easy": {"n": 4}, "hard": {"n": 40}}

    def __init__(self, seed: int | None = None, n: int = 4) -> None:
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self) -> dict[str, Any]:
        size = self.rng.randint(1, self.n)
        return {"xs": [self.rng.randint(-50, 50) for _ in range(size)]}

    @staticmethod
    def call_args(identity: dict[str, Any]) -> list[Any]:
        return [list(identity["xs"])]
'''

TOYS = {"toy_two_summands": TWO_SUMMANDS, "toy_min_max": MIN_MAX}


def toy_library(root: Path) -> Library:
    """A library with the shipped library's two compiled CodeContests bootcamps and the toys."""
    lib = Library(root)
    shipped = Library()
    for name in ("codecontests_06_c_divisors_loyal_to_their_digits",
                 "codecontests_16_f_bulbs_without_long_glows"):
        rec, code = shipped.checked_code(name)
        lib.commit(name=name, code=code, class_name=rec.class_name, source="codecontests",
                   task_id=rec.task_id, origin="generated")
    for name, code in TOYS.items():
        lib.commit(name=name, code=code, class_name=code.split("class ", 1)[1].split("(", 1)[0],
                   source="toys", task_id=f"toys/{name}", origin="handwritten")
    return lib


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def build_suite(library: Library, name: str, per_level: dict[str, int], *, seed: int = 0,
                examples: list[tuple[str, str]] = (), judge: str | None = None,  # type: ignore[assignment]
                time_limit_s: float = 1.0, memory_mb: int = 256) -> dict[str, Any]:
    """The suite of ``name``: ``examples`` (stdin, expected; no identity) then ``per_level``
    generated cases of each level, each with the reference's output; judged by the class's own
    ``check_output`` when it defines one."""
    rec, _ = library.checked_code(name)
    cls = library.load_bootcamp(name)
    tests: list[dict[str, Any]] = []
    function = issubclass(cls, FunctionBootcamp)
    for stdin, expected in examples:
        tests.append({"level": "example", "stdin": stdin, "expected": expected.rstrip(),
                      "identity": None})
    for level, count in per_level.items():
        camp = cls.from_level(level, seed=seed)
        for _ in range(count):
            identity = camp.case_generator()
            if function:
                value = parse(cls.reference_answer(identity))
                tests.append({"level": level, "args": encode(cls.arguments(identity)),
                              "expected": encode(value), "identity": identity})
            else:
                assert issubclass(cls, CompiledBootcamp)
                tests.append({"level": level, "stdin": cls.render_stdin(identity),
                              "expected": cls.reference_answer(identity).rstrip(),
                              "identity": identity})
    suite: dict[str, Any] = {
        "version": 1, "kind": "function" if function else "stdin", "language": "python3",
        "bootcamp": name, "code_sha256": rec.code_sha256,
        "judge": judge or ("value" if function else
                           "check_output" if "check_output" in vars(cls) else "tokens"),
        "time_limit_s": time_limit_s, "memory_mb": memory_mb, "tests": tests}
    if function:
        suite["entry_point"] = cls.ENTRY_POINT
    return suite


def code_row(suite: dict[str, Any], index: int = 0, split: str = "train",
             statement: str = "") -> dict[str, Any]:
    """A code row in verl's row shape (docs/code-rl.md)."""
    truth = canonical_json(suite)
    levels: dict[str, int] = {}
    for test in suite["tests"]:
        levels[test["level"]] = levels.get(test["level"], 0) + 1
    what = ("Write a complete Python 3 program that reads standard input and writes standard "
            "output, in one ```python fenced block." if suite["kind"] == "stdin" else
            f"Write the function {suite.get('entry_point')} with its signature in Python 3, in "
            "one ```python fenced block.")
    return {"data_source": f"code/{suite['bootcamp']}",
            "prompt": [{"role": "user", "content": f"{statement or suite['bootcamp']}\n\n{what}"}],
            "ability": "code",
            "reward_model": {"style": "rule", "ground_truth": truth},
            "extra_info": {"bootcamp": suite["bootcamp"], "kind": suite["kind"], "index": index,
                           "split": split, "tests": len(suite["tests"]), "levels": levels,
                           "suite_sha256": hashlib.sha256(truth.encode("utf-8")).hexdigest()}}


def fenced(program: str, lang: str = "python") -> str:
    return f"Here is my solution.\n\n```{lang}\n{program.rstrip()}\n```\n"
