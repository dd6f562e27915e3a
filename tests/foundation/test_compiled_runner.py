"""The contract's in-process program runner (``synth.runner.run_program``, which generated code
imports from ``synth.bootcamp``) and the ``CompiledBootcamp`` base class.

Fidelity: every program here runs both through ``run_program`` and through a real ``python3``
subprocess on the same inputs; the standard output must be identical, and the program must fail
in both or in neither (with the same exit status).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from synth.bootcamp import (
    PROGRAM_MODULES,
    BootcampContractError,
    CompiledBootcamp,
    ProgramError,
    UnsupportedProgramError,
    run_program,
    same_tokens,
)
from synth.sandbox.static import ALLOWED_IMPORTS

REPO = Path(__file__).resolve().parents[2]

# (name, program, inputs)
PROGRAMS: list[tuple[str, str, list[str]]] = [
    ("input_lines", """
        n = int(input())
        xs = list(map(int, input().split()))
        print(n, sum(xs))
        """, ["3\n1 2 3\n", "1\n-5", "2\r\n7 8\r\n"]),
    ("stdin_read_split", """
        import sys
        data = sys.stdin.read().split()
        print(len(data), data[-1] if data else None)
        """, ["", "a b\nc\n", "x\r\ny\r\n", "  lots   of\n\n space  "]),
    ("stdin_buffer_bytes", """
        import sys
        data = sys.stdin.buffer.read().split()
        n = int(data[0])
        words = data[1:1 + n]
        print(n, words, b' '.join(sorted(words)).decode())
        """, ["3\nb a c\n", "2\r\nzz yy\r\n", "1 \xe9t\xe9\n"]),
    ("open_zero", """
        text = open(0).read()
        print(repr(text))
        """, ["a\nb\n", "a\r\nb", ""]),
    ("open_zero_binary_lines", """
        rows = open(0, 'rb').readlines()
        print(rows)
        """, ["1\n2\n", "x", "a\r\nb"]),
    ("open_zero_text_lines", """
        with open(0) as f:
            print(f.readlines())
        """, ["1\n2\n", "x", "a\r\nb"]),
    ("iterate_stdin", """
        import sys
        total = 0
        for line in sys.stdin:
            total += sum(map(int, line.split()))
        print(total)
        """, ["1 2\n3\n", "", "4\r\n5 6"]),
    ("readline_alias", """
        import sys
        input = sys.stdin.readline
        t = int(input())
        for _ in range(t):
            a, b = map(int, input().split())
            sys.stdout.write(str(a * b) + "\\n")
        """, ["2\n3 4\n5 6\n", "1\n10 10"]),
    ("buffer_readline", """
        import sys
        first = sys.stdin.buffer.readline()
        rest = sys.stdin.buffer.read()
        print(first, rest)
        """, ["ab\ncd\nef", "\n"]),
    ("print_sep_end", """
        import sys
        print(1, 2, 3, sep=", ", end=";\\n")
        print("a", "b", sep="")
        print(*range(4), sep="\\n")
        print("no newline", end="")
        print()
        print(None, True, 1.5, [1, 'x'], {'k': 2}, sep=None, end=None)
        print("to stderr", file=sys.stderr)
        print("flushed", flush=True)
        sys.stdout.writelines(["x", "y", "\\n"])
        """, [""]),
    ("stdout_buffer_mix", """
        import sys
        sys.stdout.write("text ")
        sys.stdout.flush()  # a real interpreter buffers text ahead of the bytes otherwise
        sys.stdout.buffer.write("caf\\u00e9 ".encode())
        sys.stdout.flush()
        sys.stdout.write("done\\n")
        """, [""]),
    ("exit_midway", """
        n = int(input())
        if n < 0:
            print("negative")
            exit()
        print("positive")
        quit(0)
        print("never")
        """, ["-1\n", "4\n"]),
    ("sys_exit_in_function", """
        import sys
        def main():
            for i in range(5):
                print(i)
                if i == int(sys.stdin.readline()):
                    sys.exit(0)
        try:
            main()
        finally:
            print("finally")
        """, ["2\n2\n2\n", "9\n9\n9\n9\n9\n"]),
    ("raise_system_exit", """
        print("before")
        raise SystemExit
        """, [""]),
    ("exit_status", """
        import sys
        print("partial")
        sys.exit(int(input()))
        """, ["0", "3", "1"]),
    ("exit_message", """
        import sys
        sys.exit("bad input")
        """, [""]),
    ("deep_recursion", """
        import sys
        sys.setrecursionlimit(10 ** 6)
        def depth(n):
            return 0 if n == 0 else 1 + depth(n - 1)
        print(depth(int(input())))
        print(sys.getrecursionlimit())
        """, ["10", "3000", "8000"]),
    ("lru_cache_recursion", """
        import sys
        from functools import lru_cache
        sys.setrecursionlimit(5000)
        @lru_cache(maxsize=None)
        def fib(n):
            return n if n < 2 else fib(n - 1) + fib(n - 2)
        print(fib(int(input())) % 1000000007)
        """, ["10", "2000"]),
    ("main_guard_and_globals", """
        counter = 0
        seen = []
        def bump():
            global counter
            counter += 1
            seen.append(counter)
        def main():
            for _ in range(int(input())):
                bump()
            print(counter, seen)
        if __name__ == "__main__":
            main()
        """, ["3", "1"]),
    ("stdlib_modules", """
        import heapq, bisect, math, itertools, string, operator
        from collections import deque, Counter, defaultdict
        from fractions import Fraction
        from decimal import Decimal, getcontext
        from functools import reduce
        xs = list(map(int, input().split()))
        h = xs[:]; heapq.heapify(h)
        print(heapq.heappop(h), bisect.bisect_left(sorted(xs), 3), math.gcd(*xs))
        print(Counter(xs).most_common(1), deque(xs, maxlen=2), len(list(itertools.permutations(xs[:3]))))
        print(Fraction(xs[0], xs[-1]), reduce(operator.mul, xs, 1), string.ascii_lowercase[:3])
        getcontext().prec = 30
        print(Decimal(1) / Decimal(7))
        d = defaultdict(list); d[1].append(2); print(dict(d))
        """, ["4 6 8 2", "3 9 27"]),
    ("star_import_and_classes", """
        from math import *
        from dataclasses import dataclass
        @dataclass
        class P:
            x: int
            y: int
            def norm(self):
                return sqrt(self.x ** 2 + self.y ** 2)
        class Q(P):
            pass
        a, b = map(int, input().split())
        print(P(a, b).norm(), Q(a, b), floor(pi * 100))
        """, ["3 4", "5 12"]),
    ("import_fallback", """
        try:
            import not_a_real_module_xyz as fast
        except ImportError:
            fast = None
        print("fallback" if fast is None else "fast")
        """, [""]),
    ("eof_error", """
        a = input()
        b = input()
        print(a, b)
        """, ["one\ntwo\n", "only one\n"]),
    ("value_error", """
        n = int(input())
        print(n * 2)
        """, ["21", "x"]),
    ("big_integers", """
        import sys
        if hasattr(sys, "set_int_max_str_digits"):
            sys.set_int_max_str_digits(0)
        n = int(input())
        print(len(str(3 ** n)))
        """, ["10", "20000"]),
    ("big_integers_default_limit", """
        print(len(str(3 ** int(input()))))
        """, ["10", "20000"]),
    ("input_prompt", """
        name = input("name? ")
        print("hi", name)
        """, ["bob\n"]),
    ("recursion_error", """
        def f(n):
            return f(n + 1)
        f(0)
        """, [""]),
]


def _real(program: str, stdin: str) -> tuple[str, int]:
    proc = subprocess.run([sys.executable, "-I", "-c", program], input=stdin.encode("utf-8"),
                          capture_output=True, timeout=60,
                          env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"})
    return proc.stdout.decode("utf-8"), proc.returncode


def _ours(program: str, stdin: str) -> tuple[str, int]:
    try:
        return run_program(program, stdin), 0
    except ProgramError as exc:
        return exc.stdout, exc.exit_code


@pytest.mark.parametrize(("name", "program", "inputs"), PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_run_program_matches_a_real_interpreter(name: str, program: str,
                                                inputs: list[str]) -> None:
    source = textwrap.dedent(program).lstrip("\n")
    for stdin in inputs:
        want_out, want_code = _real(source, stdin)
        got_out, got_code = _ours(source, stdin)
        assert (got_code == 0) == (want_code == 0), (name, stdin, got_code, want_code)
        if want_code == 0:
            assert got_out == want_out, (name, stdin)
        else:
            assert got_code == want_code, (name, stdin)
            assert want_out.startswith(got_out), (name, stdin)  # what it printed before


def test_every_case_runs_in_a_fresh_namespace() -> None:
    program = "import collections\ntry:\n    seen\nexcept NameError:\n    seen = []\n" \
              "seen.append(input())\nprint(len(seen))\n"
    assert [run_program(program, "x") for _ in range(3)] == ["1\n"] * 3


@pytest.mark.parametrize("module", ["os", "subprocess", "socket", "threading", "builtins",
                                    "importlib", "io", "os.path"])
def test_an_import_outside_the_allowlist_is_a_typed_error(module: str) -> None:
    with pytest.raises(UnsupportedProgramError, match=f"import {module}") as info:
        run_program(f"print('start')\nimport {module}\nprint('never')\n", "")
    assert info.value.stdout == "start\n"
    assert "line 2" in str(info.value)
    with pytest.raises(UnsupportedProgramError):
        run_program(f"from {module} import *\n", "")


def test_relative_imports_files_and_hidden_sys_attributes_are_refused() -> None:
    with pytest.raises(UnsupportedProgramError, match="relative imports"):
        run_program("from . import x\n", "")
    with pytest.raises(UnsupportedProgramError, match=r"input\.txt"):
        run_program("print(open('input.txt').read())\n", "")
    with pytest.raises(UnsupportedProgramError, match="open"):
        run_program("open(0, 'w').write('x')\n", "")
    with pytest.raises(UnsupportedProgramError, match=r"sys\.modules is not available"):
        run_program("import sys\nsys.modules['os']\n", "")
    # the program may catch a refusal, as it catches a missing module
    assert run_program("try:\n    import os\nexcept ImportError as e:\n    print('no os')\n",
                       "") == "no os\n"


def test_open_one_writes_standard_output() -> None:
    assert run_program("open(1, 'w').write('a')\nprint('b')\n", "") == "ab\n"


def test_the_allowlist_is_part_of_the_static_gates() -> None:
    assert PROGRAM_MODULES <= ALLOWED_IMPORTS


def test_the_contract_re_exports_the_runner() -> None:
    """The runner lives in synth.runner; generated code imports its names from synth.bootcamp."""
    import synth.bootcamp
    import synth.runner

    for name in synth.runner.__all__:
        assert getattr(synth.bootcamp, name) is getattr(synth.runner, name), name


def test_a_program_error_carries_a_traceback_with_the_programs_lines() -> None:
    program = "def parse(s):\n    return int(s)\n\n\nprint('ok')\nprint(parse(input()))\n"
    with pytest.raises(ProgramError) as info:
        run_program(program, "abc\n")
    exc = info.value
    assert type(exc) is ProgramError and exc.exit_code == 1 and exc.stdout == "ok\n"
    assert "ValueError: invalid literal for int() with base 10: 'abc'" in str(exc)
    assert "at line 2 (return int(s))" in str(exc) and "'abc\\n'" in str(exc)
    assert exc.stderr.splitlines() == [
        "Traceback (most recent call last):",
        '  File "<reference program>", line 6',
        "    print(parse(input()))",
        '  File "<reference program>", line 2',
        "    return int(s)",
        "ValueError: invalid literal for int() with base 10: 'abc'",
    ]
    with pytest.raises(ProgramError, match=r"does not compile: SyntaxError.*line 2"):
        run_program("x = 1\ny = (\n", "")


def test_the_programs_own_stderr_comes_before_the_traceback() -> None:
    with pytest.raises(ProgramError) as info:
        run_program("import sys\nprint('warn', file=sys.stderr)\nraise KeyError(7)\n", "")
    assert info.value.stderr.startswith("warn\nTraceback")
    assert info.value.stderr.rstrip().endswith("KeyError: 7")


def test_a_flood_of_output_is_an_error_not_a_memory_blowup() -> None:
    with pytest.raises(ProgramError, match="more than 1,000,000 characters"):
        run_program("while True:\n    print('x' * 1000)\n", "")


def test_limits_are_restored_after_a_run() -> None:
    before = (sys.getrecursionlimit(), sys.get_int_max_str_digits())
    run_program("import sys\nsys.setrecursionlimit(10**6)\nsys.set_int_max_str_digits(0)\n", "")
    with pytest.raises(ProgramError):
        run_program("import sys\nsys.setrecursionlimit(9000)\nraise ValueError\n", "")
    assert (sys.getrecursionlimit(), sys.get_int_max_str_digits()) == before


def test_base_exceptions_and_memory_errors_propagate() -> None:
    with pytest.raises(KeyboardInterrupt):
        run_program("raise KeyboardInterrupt\n", "")
    with pytest.raises(MemoryError):
        run_program("raise MemoryError\n", "")
    with pytest.raises(TypeError):
        run_program("print(1)\n", b"bytes")  # type: ignore[arg-type]


def test_a_base_exception_leaves_without_the_programs_frames() -> None:
    with pytest.raises(KeyboardInterrupt) as info:
        run_program("x = 1\n\ndef f():\n    raise KeyboardInterrupt\n\nf()\n", "")
    tb, lines = info.value.__traceback__, []
    while tb is not None:
        lines.append(tb.tb_lineno)
        tb = tb.tb_next
    assert lines and max(lines) < 100_000  # no frame of the program (numbered from 100,000)
    assert info.value.__notes__ == ["(in the reference program, line 4)"]


def test_same_tokens() -> None:
    assert same_tokens("3 4\n5", " 3\n4 5 \n")
    assert not same_tokens("3 4", "3 4 5") and not same_tokens("3", "03")
    assert not same_tokens("1", "1" + " " * 5000)
    assert not same_tokens("1", None)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------
# CompiledBootcamp
# ------------------------------------------------------------------------------------------

SUM_PROGRAM = "import sys\nxs = list(map(int, sys.stdin.read().split()))\nprint(sum(xs[1:]))\n"


class SumCamp(CompiledBootcamp):
    REFERENCE_PROGRAM = SUM_PROGRAM
    LEVELS = {"easy": {"n": 3}, "hard": {"n": 9}}

    def __init__(self, seed: int | None = None, n: int = 5) -> None:
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self) -> dict[str, Any]:
        return {"xs": [self.rng.randint(-9, 9) for _ in range(self.n)]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return f"{len(identity['xs'])}\n{' '.join(map(str, identity['xs']))}\n"

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        return f"Sum {identity['xs']}; answer in <answer></answer>."


def test_reference_answer_is_the_programs_output_and_scores_one() -> None:
    camp = SumCamp.from_level("hard", seed=4)
    for _ in range(20):
        case = camp.case_generator()
        answer = SumCamp.reference_answer(case)
        assert answer == str(sum(case["xs"]))
        assert SumCamp.verify_score(SumCamp.wrap_answer(answer), case) == 1.0
        assert SumCamp.verify_score(SumCamp.wrap_answer(f"\n {answer}\n"), case) == 1.0
        assert SumCamp.verify_score(SumCamp.wrap_answer(answer + "0"), case) == 0.0
        assert SumCamp.verify_score(SumCamp.wrap_answer(f"{answer} 1"), case) == 0.0


def test_reference_outputs_are_cached_per_case_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import synth.bootcamp as contract

    calls: list[str] = []
    real = contract.execute

    def counting(program: Any, stdin: str) -> str:
        calls.append(stdin)
        return real(program, stdin)

    monkeypatch.setattr(contract, "execute", counting)
    monkeypatch.setattr(contract, "_MAX_OUTPUTS", 3)
    case = {"xs": [1, 2, 3]}
    for _ in range(4):
        SumCamp.verify_score("<answer>6</answer>", dict(case))
    assert len(calls) == 1
    for i in range(6):
        SumCamp.reference_answer({"xs": [i]})
    program = contract._PROGRAMS[SumCamp]
    assert len(program.outputs) <= 3
    monkeypatch.setattr(contract, "_MAX_CACHED_CHARS", 40)
    for i in range(6):
        SumCamp.reference_answer({"xs": [i, i]})
    assert program.size <= 40
    assert program.size == sum(len(k) + len(v) for k, v in program.outputs.items())


def test_a_program_failure_on_a_case_is_a_program_error() -> None:
    class Broken(SumCamp):
        @staticmethod
        def render_stdin(identity: dict[str, Any]) -> str:
            return "2\n1 x\n"

    with pytest.raises(ProgramError, match="invalid literal"):
        Broken.reference_answer({"xs": [1, 2]})


def test_check_output_accepts_any_valid_output() -> None:
    class AnyPair(CompiledBootcamp):
        """Print two numbers whose sum is n (the program prints 0 and n)."""

        REFERENCE_PROGRAM = "n = int(input())\nprint(0, n)\n"

        def case_generator(self) -> dict[str, Any]:
            return {"n": self.rng.randint(0, 50)}

        @staticmethod
        def render_stdin(identity: dict[str, Any]) -> str:
            return f"{identity['n']}\n"

        @staticmethod
        def prompt_func(identity: dict[str, Any]) -> str:
            return f"Two numbers summing to {identity['n']}"

        @staticmethod
        def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
            parts = answer.split()
            return len(parts) == 2 and all(p.isdigit() for p in parts) and \
                int(parts[0]) + int(parts[1]) == identity["n"] and expected.split()[0] == "0"

    case = {"n": 7}
    assert AnyPair.reference_answer(case) == "0 7"
    assert AnyPair.verify_score("<answer>3 4</answer>", case) == 1.0
    assert AnyPair.verify_score("<answer>3 5</answer>", case) == 0.0


def test_overriding_the_answer_key_is_refused() -> None:
    with pytest.raises(TypeError, match=r"overrides reference_answer.*check_output"):
        class A(CompiledBootcamp):
            REFERENCE_PROGRAM = "print(1)\n"

            @classmethod
            def reference_answer(cls, identity: dict[str, Any]) -> str:
                return "1"
    with pytest.raises(TypeError, match="overrides _verify_correction"):
        class B(CompiledBootcamp):
            @classmethod
            def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool:
                return True
    with pytest.raises(TypeError, match="overrides verify_score"):
        class C(CompiledBootcamp):
            @classmethod
            def verify_score(cls, response: str, identity: dict[str, Any],
                             format_score: float = 0.0) -> float:
                return 1.0
    with pytest.raises(TypeError, match="must be a str"):
        class D(CompiledBootcamp):
            REFERENCE_PROGRAM = b"print(1)"  # type: ignore[assignment]


def test_a_program_that_does_not_compile_fails_at_class_creation() -> None:
    with pytest.raises(ProgramError, match="does not compile"):
        class Bad(CompiledBootcamp):
            REFERENCE_PROGRAM = "def f(:\n"


def test_without_a_program_or_render_stdin_the_contract_says_what_is_missing() -> None:
    class NoProgram(CompiledBootcamp):
        @staticmethod
        def render_stdin(identity: dict[str, Any]) -> str:
            return ""

    with pytest.raises(BootcampContractError, match=r"synth\.compiled\.assemble"):
        NoProgram.reference_answer({})

    class NoRender(CompiledBootcamp):
        REFERENCE_PROGRAM = "print(1)\n"
        TASK_TEXT = "Print 1."

    with pytest.raises(BootcampContractError, match="render_stdin"):
        NoRender.reference_answer({})


_AUDIT_SCRIPT = r"""
import json, sys
events = []
armed = []
sys.addaudithook(lambda ev, args: events.append([ev, str(args[0])[:40] if args else ""])
                 if armed else None)
import synth.bootcamp as contract  # the kit imports the contract before arming its guard
armed.append(1)
from synth.bootcamp import CompiledBootcamp
class Camp(CompiledBootcamp):
    REFERENCE_PROGRAM = __PROGRAM__
    TASK_TEXT = "Sum the numbers."
    @staticmethod
    def render_stdin(identity):
        return identity["stdin"]
created = list(events)
del events[:]
outputs = [Camp.reference_answer({"stdin": s}) for s in ("3\n1 2 3\n", "2\n5 5\n")]
Camp.verify_score("<answer>6</answer>", {"stdin": "3\n1 2 3\n"})
run = list(events)
del events[:]
try:
    Camp.reference_answer({"stdin": "2\n1 x\n"})  # a ProgramError and its traceback
except contract.ProgramError:
    pass
try:
    contract.run_program("def f():\n    raise KeyboardInterrupt\nf()\n", "")
except KeyboardInterrupt:
    pass
print(json.dumps({"created": created, "run": run, "outputs": outputs, "failures": events}))
"""


def test_audit_events_compile_at_class_creation_then_one_exec_per_run() -> None:
    """What the sandbox guard sees: one ``compile`` when the class is created, then one
    ``exec`` per program run (a cached answer runs nothing), and no import, open or
    attribute events: the allowed modules are already imported."""
    program = ("import sys, heapq\nfrom collections import deque\n"
               "data = sys.stdin.buffer.read().split()\nprint(sum(map(int, data[1:])))\n")
    script = _AUDIT_SCRIPT.replace("__PROGRAM__", repr(program))
    prelude = "import heapq, collections\n"  # as the kit pre-imports the allowlist
    proc = subprocess.run([sys.executable, "-I", "-c", prelude + script], capture_output=True,
                          text=True, timeout=60, cwd=REPO,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["outputs"] == ["6", "10"]
    assert [e[0] for e in report["created"]] == ["compile"]
    assert [e[0] for e in report["run"]] == ["exec", "exec"]
    # formatting a failure reads no frame: one exec each, and a compile for the new source
    assert [e[0] for e in report["failures"]] == ["exec", "compile", "exec"]
