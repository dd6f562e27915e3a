"""A tiny builder of code rows for the code reward's tests, in the format of docs/code-rl.md
(what ``synth export --format code`` writes), from a library's compiled or function bootcamp
loaded INTO THIS PROCESS (trusted: the test's own library). Plus two toy bootcamps the shipped
library lacks: a stdin task with several valid outputs (judged by its ``check_output``) and a
function task (judged by value). And the direct run of a suite the reward is compared with
(:func:`direct_score`): written without the reward's code."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from synth.bootcamp import CompiledBootcamp, FunctionBootcamp
from synth.compiled import assemble
from synth.gate.programs import run_program
from synth.library import Library
from synth.sandbox.base import Limits, Outcome, SandboxJob
from synth.values import decode, encode, parse, same_value

_TWO_SUMMANDS_MODEL = '''"""Toy compiled bootcamp for tests: two positive summands of n (any pair is accepted)."""

import re
from typing import Any

from synth.bootcamp import CompiledBootcamp


class TwoSummandsBootcamp(CompiledBootcamp):
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
_TWO_SUMMANDS_TASK = """Two Summands

Given an integer n, print two positive integers a and b with a + b = n. Any such pair is accepted.

Input

The only line contains one integer n (2 ≤ n ≤ 10^9).

Output

Print two positive integers a and b, separated by a space, with a + b = n.

Examples

Input

5

Output

1 4
"""
#: a compiled bootcamp whose problem accepts several outputs (judged by its check_output)
TWO_SUMMANDS = assemble(_TWO_SUMMANDS_MODEL, "n = int(input())\nprint(1, n - 1)\n",
                        _TWO_SUMMANDS_TASK)

_MIN_MAX_MODEL = '''"""Toy function bootcamp for tests: the smallest and the largest item of a list."""

from typing import Any

from synth.bootcamp import FunctionBootcamp


class MinMaxBootcamp(FunctionBootcamp):
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
_MIN_MAX_TASK = '''def min_max(xs: list[int]) -> tuple[int, int]:
    """The smallest and the largest item of a non-empty list, as a tuple.

    >>> min_max([3, 1, 2])
    (1, 3)
    """
'''
#: a function bootcamp (judged by value)
MIN_MAX = assemble(_MIN_MAX_MODEL, "def min_max(xs):\n    return (min(xs), max(xs))\n",
                   _MIN_MAX_TASK, entry_point="min_max")

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


# -- the direct run: the tests' own scoring of a response, written without the reward's code -----

VALUES_SOURCE = (Path(__file__).resolve().parents[1] / "synth" / "values.py").read_text("utf-8")

FENCE = re.compile(r"^[ \t]{0,3}(`{3,})[ \t]*([^`\n]*)\n(.*?)^[ \t]{0,3}\1`*[ \t]*$", re.M | re.S)
CALLER = """import json, sys
from synth.values import decode, encode
request = json.loads(sys.stdin.read())
args = decode(request["args"])
import solution
value = getattr(solution, request["entry"])(*args)
sys.stdout.write("\\n@@RESULT@@" + json.dumps(encode(value), allow_nan=False) + "\\n")
"""


def reference_program(response: Any) -> str | None:
    if not isinstance(response, str):
        return None
    text = response.replace("\r\n", "\n")
    programs = [m.group(3) for m in FENCE.finditer(text + "\n")
                if (m.group(2).split() or [""])[0].lower() in ("", "python", "python3", "py")]
    if not programs or not programs[-1].strip():
        return None
    try:
        programs[-1].encode("utf-8")
    except UnicodeEncodeError:
        return None
    return programs[-1]


def reference_cap(judge: str, expected: Any) -> int:
    size = len((json.dumps(expected) if judge == "value" else expected).encode("utf-8"))
    return 8 * size + 1024 if judge == "tokens" else max(4_000_000, 8 * size + 1024)


def _wall_s(suite: dict[str, Any]) -> float:
    """Wall time after which a test's run is killed: 3 x the time limit + 2 s."""
    return 3 * suite["time_limit_s"] + 2


def _limits(suite: dict[str, Any]) -> Limits:
    """A test's job: killed at 3 x the time limit + 2 s of wall time, or at the time limit of
    CPU time (RLIMIT_CPU)."""
    return Limits(wall_s=_wall_s(suite), cpu_s=suite["time_limit_s"],
                  memory_mb=suite["memory_mb"], pids=32, file_size_mb=16, open_files=128,
                  max_output_bytes=32_000_000)


def _alone(backend: Any, suite: dict[str, Any], program: str, stdin: str) -> dict[str, Any]:
    run = backend.run(SandboxJob(files={"solution.py": program}, argv=["solution.py"],
                                 stdin=stdin), _limits(suite))
    return {"stdout": run.stdout, "code": 0 if run.outcome is Outcome.PASSED else 1}


def reference_passes(backend: Any, oracle: Any, suite: dict[str, Any], program: str) -> list[bool]:
    """One verdict per judged test. A stdin program runs as the gate runs a reference program
    (synth.gate.programs.run_program: one sandbox job, each input a fresh fork of a warm
    interpreter); a function program runs in a sandbox job of its own per test, imported by a
    caller script."""
    tests = [t for t in suite["tests"]  # an example cannot be judged by check_output: not run
             if suite["judge"] != "check_output" or t["identity"] is not None]
    if suite["kind"] == "stdin":
        # the whole job gets the wall time of one test (+1 s to start): a job that needs more
        # has a run that timed out, and every such run is decided by a job of its own below
        # anyway (a flood or a daemon would otherwise hold a second round of forks as long)
        runs = run_program(backend, program, [t["stdin"] for t in tests],
                           timeout_s=_wall_s(suite), memory_mb=suite["memory_mb"],
                           role="agreement", wall_s=_wall_s(suite) + 1).outputs
        if runs is None:  # the job as a whole died (a memory hog fills its cgroup, or it ran
            # out of its wall time): one job a test
            runs = [_alone(backend, suite, program, t["stdin"]) for t in tests]
        # run-many waits for the pipes a leftover process holds (a daemon): such a run, and any
        # other that timed out, is decided by a job of its own, which kills what the program
        # left behind when it exits (the sandbox's rule, and the reward's)
        runs = [_alone(backend, suite, program, t["stdin"]) if r["code"] is None else r
                for t, r in zip(tests, runs, strict=True)]
        out = []
        for test, run in zip(tests, runs, strict=True):
            cap = reference_cap(suite["judge"], test["expected"])
            ok = run["code"] == 0 and len(run["stdout"].encode("utf-8", "surrogatepass")) <= cap
            if suite["judge"] == "tokens":
                ok = ok and run["stdout"].split() == test["expected"].split()
            else:
                shown = "" if "<answer>" in run["stdout"] or "</answer>" in run["stdout"] \
                    else run["stdout"]
                ok = ok and oracle(suite["bootcamp"]).verify_score(
                    f"<answer>{shown}</answer>", test["identity"]) == 1.0
            out.append(ok)
        return out
    out = []
    for test in tests:
        job = SandboxJob(files={"solution.py": program, "call.py": CALLER,
                                "synth/__init__.py": "", "synth/values.py": VALUES_SOURCE},
                         argv=["call.py"], stdin=json.dumps({"args": test["args"],
                                                             "entry": suite["entry_point"]}))
        run = backend.run(job, _limits(suite))
        cap = reference_cap(suite["judge"], test["expected"])
        lines = [x for x in run.stdout.split("\n") if x.startswith("@@RESULT@@")]
        result = lines[-1][len("@@RESULT@@"):] if lines else None
        printed = len(run.stdout.encode("utf-8")) - (len(lines[-1]) + 2 if lines else 0)
        out.append(run.outcome is Outcome.PASSED and result is not None and len(result) <= cap
                   and printed <= cap
                   and same_value(decode(test["expected"]), decode(json.loads(result))))
    return out


def direct_score(backend: Any, library: Library, suite: dict[str, Any], response: Any,
                 fraction: bool = False) -> float:
    """A response's score by the direct run: its program (:func:`reference_program`) on every
    test the judge decides (:func:`reference_passes`), all-or-nothing or the share passed."""
    program = reference_program(response)
    if program is None:
        return 0.0
    passes = reference_passes(backend, library.load_bootcamp, suite, program)
    return sum(passes) / len(passes) if fraction else float(all(passes))
