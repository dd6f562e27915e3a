"""Compiled CodeContests bootcamps: assembly (``synth.compiled``), the static gate and the
library on assembled modules, and the whole gate on the fixtures of ``tests/fixtures/compiled``
(the model's part, assembled with the task's reference program).

The gate's oracle check runs the task's reference program in a sandbox job of its own and
compares its output with the bootcamp's reference answers -- which, in a compiled bootcamp,
come from the embedded copy of that program run by the contract's in-process runner. So the
oracle guards the compilation itself: an altered embedded program fails it.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from synth.bootcamp import COMPILED_PROMPT_INTRO, BaseBootcamp, CompiledBootcamp
from synth.compiled import (
    CLASS_LINE,
    EXEMPLAR,
    TEXT_LINE,
    AssemblyError,
    Parts,
    assemble,
    check_embedded,
    compiled_reference,
    embedded_program,
    embedded_text,
    literal,
    parts,
    program_problems,
    split,
    task_text,
)
from synth.gate import run_checks
from synth.library import find_bootcamp_class
from synth.sandbox import kit
from synth.sandbox.base import Backend
from synth.sandbox.static import check_source
from synth.tasks import Example, Provenance, ReferenceProgram, TaskDescription, TaskKind

REPO = Path(__file__).resolve().parents[2]
COMPILED = REPO / "tests" / "fixtures" / "compiled"


def _load_path(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


fixtures = _load_path(COMPILED / "assemble_all.py", "compiled_fixtures_assemble_all")
NAMES = list(fixtures.FIXTURES)
GATE_TIMES: dict[str, float] = {}


def _module(name: str) -> ModuleType:
    return _load_path(COMPILED / f"{name}.py", f"compiled_fixture_{name}")


def _camp(name: str) -> Any:
    module = _module(name)
    cls = kit.find_bootcamp_class(module, BaseBootcamp)
    assert issubclass(cls, CompiledBootcamp)
    return cls


MODEL = '''"""Toy compiled bootcamp: the sum of some numbers."""

from __future__ import annotations

from synth.bootcamp import CompiledBootcamp


class SumBootcamp(CompiledBootcamp):
    """Sum a list."""

    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"xs": [self.rng.randint(0, 9) for _ in range(self.n)]}

    @staticmethod
    def render_stdin(identity):
        return f"{len(identity['xs'])}\\n{' '.join(map(str, identity['xs']))}\\n"

    @staticmethod
    def prompt_func(identity):
        return "Input:\\n```\\n" + SumBootcamp.render_stdin(identity) + "```\\n<answer></answer>"
'''
PROGRAM = "import sys\ndata = sys.stdin.read().split()\nprint(sum(map(int, data[1:])))\n"


# ------------------------------------------------------------------------------------------
# assemble / split
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_stored_fixture_is_the_assembly_of_its_model_part(name: str) -> None:
    stored = (COMPILED / f"{name}.py").read_text(encoding="utf-8")
    assert stored == fixtures.assembled(name), \
        "out of date: run `python tests/fixtures/compiled/assemble_all.py`"
    assert split(stored) == (fixtures.model_part(name), fixtures.reference(name))
    assert parts(stored) == (fixtures.model_part(name), fixtures.reference(name),
                             fixtures.text(name))
    assert check_embedded(stored, fixtures.reference(name), fixtures.text(name)) is None
    assert check_source(stored) == []


def test_the_sample_fixtures_use_the_default_prompt_and_pair_sum_its_own() -> None:
    for name in NAMES:
        camp, text = _camp(name), fixtures.text(name)
        case = camp.from_level("easy", seed=1).case_generator()
        prompt = camp.prompt_func(case)
        assert f"Input:\n```\n{camp.render_stdin(case)}```" in prompt and "<answer>" in prompt
        if text is None:  # pair_sum: its own prompt_func, no embedded text
            assert "def prompt_func" in fixtures.model_part(name) and camp.TASK_TEXT == ""
        else:
            assert "def prompt_func" not in fixtures.model_part(name)
            assert text == camp.TASK_TEXT and prompt.startswith(COMPILED_PROMPT_INTRO + "\n\n" + text.strip())


def test_the_exemplar_is_the_strangers_fixture_and_short() -> None:
    assert fixtures.model_part("13_strangers_to_m") == EXEMPLAR
    assert len(EXEMPLAR) < 3500 and check_source(assemble(EXEMPLAR, fixtures.reference(
        "13_strangers_to_m"))) == []


def test_assemble_puts_the_program_after_the_imports_and_the_line_after_the_docstring() -> None:
    module = assemble(MODEL, PROGRAM)
    tree = ast.parse(module)
    kinds = [type(s).__name__ for s in tree.body]
    assert kinds == ["Expr", "ImportFrom", "ImportFrom", "Assign", "ClassDef"]
    constant = tree.body[3]
    assert isinstance(constant, ast.Assign) and ast.literal_eval(constant.value) == PROGRAM
    cls = tree.body[4]
    assert isinstance(cls, ast.ClassDef)
    assert ast.unparse(cls.body[1]) == CLASS_LINE  # after the class docstring
    assert '_REFERENCE_PROGRAM = """\\\nimport sys\n' in module  # readable, no escapes
    loaded = {}
    exec(compile(module, "<assembled>", "exec"), loaded)
    camp = loaded["SumBootcamp"]
    case = camp(seed=1, n=4).case_generator()
    assert camp.reference_answer(case) == str(sum(case["xs"]))
    assert camp.verify_score(camp.wrap_answer(str(sum(case["xs"]))), case) == 1.0


def test_assemble_replaces_a_program_the_model_wrote_and_split_is_its_inverse() -> None:
    own = MODEL.replace('    """Sum a list."""\n',
                        '    """Sum a list."""\n\n    REFERENCE_PROGRAM = "print(42)"\n')
    own = own.replace("from synth.bootcamp import CompiledBootcamp\n",
                      "from synth.bootcamp import CompiledBootcamp\n\n"
                      "_REFERENCE_PROGRAM: str = 'print(1)'\n")
    module = assemble(own, PROGRAM)
    assert "print(42)" not in module and "print(1)" not in module
    assert check_embedded(module, PROGRAM) is None
    assert split(module) == (assemble_strip(own), PROGRAM)
    # assembling an assembled module (a revision that kept the embedding) changes nothing
    assert assemble(module, PROGRAM) == module
    assert assemble(assemble(MODEL, "print(0)\n"), PROGRAM) == assemble(MODEL, PROGRAM)
    assert split(MODEL) == (MODEL, None) and embedded_program(MODEL) is None


def assemble_strip(code: str) -> str:
    """``code`` without the lines that bind REFERENCE_PROGRAM / _REFERENCE_PROGRAM."""
    return "".join(line for line in code.splitlines(keepends=True)
                   if "REFERENCE_PROGRAM" not in line)


def test_assemble_without_a_class_docstring_or_imports() -> None:
    bare = "class A(CompiledBootcamp):\n    def case_generator(self):\n        return {}\n"
    module = assemble(bare, PROGRAM)
    lines = module.splitlines()
    assert lines[3].startswith("_REFERENCE_PROGRAM = ") and lines[-3] == f"    {CLASS_LINE}"
    assert split(module) == (bare, PROGRAM)
    chained = ("from synth import bootcamp\n\n\nclass _Base(bootcamp.CompiledBootcamp):\n"
               "    pass\n\n\nclass Leaf(_Base):\n    x = 1\n")
    module = assemble(chained, PROGRAM)
    assert f"class Leaf(_Base):\n    {CLASS_LINE}\n    x = 1\n" in module
    assert find_bootcamp_class(module) == "Leaf"


@pytest.mark.parametrize(("code", "match"), [
    ("from synth.bootcamp import BaseBootcamp\n\n\nclass A(BaseBootcamp):\n    pass\n",
     "A subclasses BaseBootcamp: in compiled mode subclass CompiledBootcamp"),
    ("class A(CompiledBootcamp):\n    pass\n\n\nclass B(CompiledBootcamp):\n    pass\n",
     "more than one CompiledBootcamp subclass"),
    ("class A(CompiledBootcamp): pass\n", "on lines of its own"),
    ("class A(CompiledBootcamp):\n    x = 1; REFERENCE_PROGRAM = 'y'\n", "lines of its own"),
    ("class A(CompiledBootcamp):\n    a = REFERENCE_PROGRAM = 'y'\n", "assigned together"),
    ("class A(CompiledBootcamp\n", "does not parse"),
])
def test_assemble_says_what_to_change(code: str, match: str) -> None:
    with pytest.raises(AssemblyError, match=match):
        assemble(code, PROGRAM)
    with pytest.raises(AssemblyError, match="empty"):
        assemble(MODEL, "  \n")


@pytest.mark.parametrize("program", [
    PROGRAM,
    "print('a\\nb')\n",
    'print("""x""")\n',
    "print('''x''')\nprint(\"\"\"y\"\"\")\n",
    'print(1)  # ends with a quote"',
    "s = 'tab\\there'\r\nprint(s)\r\n",
    "print('\u00e9\u4e2d')\n",
    "print(1)\x00\n",
    "x = '\ud800'\n",
    "print(1)\\",
])
def test_the_literal_reads_back_exactly(program: str) -> None:
    text = literal(program)
    assert ast.literal_eval(text) == program
    module = assemble(MODEL, program)
    assert split(module)[1] == program
    module.encode("utf-8")  # writable as a source file


TEXT = "Sum\n\nPrint the sum of n numbers (x.__class__ is int).\n"


def test_assemble_embeds_the_task_text_and_parts_is_its_inverse() -> None:
    module = assemble(MODEL, PROGRAM, TEXT)
    tree = ast.parse(module)
    assert [type(s).__name__ for s in tree.body] == \
        ["Expr", "ImportFrom", "ImportFrom", "Assign", "Assign", "ClassDef"]
    assert '_TASK_TEXT = """\\\nSum\n' in module  # readable, before the program
    cls = tree.body[5]
    assert isinstance(cls, ast.ClassDef)
    assert [ast.unparse(s) for s in cls.body[1:3]] == [CLASS_LINE, TEXT_LINE]
    assert parts(module) == Parts(MODEL, PROGRAM, TEXT) and split(module) == (MODEL, PROGRAM)
    assert embedded_text(module) == TEXT and embedded_text(assemble(MODEL, PROGRAM)) is None
    assert check_embedded(module, PROGRAM, TEXT) is None
    assert check_embedded(module, PROGRAM) is None  # an assembled text is allowed unasked
    assert assemble(module, PROGRAM, TEXT) == module
    assert assemble(assemble(MODEL, PROGRAM, "Other\n"), PROGRAM, TEXT) == module
    assert assemble(module, PROGRAM) == assemble(MODEL, PROGRAM)  # re-assembled without it
    own = MODEL.replace('    """Sum a list."""\n',
                        '    """Sum a list."""\n\n    TASK_TEXT = "count x with gcd(x, h) = 1"\n')
    replaced = assemble(own, PROGRAM, TEXT)  # a text the model wrote itself goes
    assert "gcd" not in replaced and check_embedded(replaced, PROGRAM, TEXT) is None
    loaded: dict[str, Any] = {}
    exec(compile(module, "<assembled>", "exec"), loaded)
    assert loaded["SumBootcamp"].TASK_TEXT == TEXT
    with pytest.raises(AssemblyError, match="task text is empty"):
        assemble(MODEL, PROGRAM, " \n")


@pytest.mark.parametrize(("edit", "problem"), [
    (lambda m: m.replace("Print the sum", "Print the product"), "not the task's problem text"),
    (lambda m: m + "\nSumBootcamp.TASK_TEXT = 'Stack Leveling'\n", "attribute TASK_TEXT"),
    (lambda m: m + "\n_TASK_TEXT = 'x'\n", "_TASK_TEXT exactly once"),
    (lambda m: m + "\nsetattr(SumBootcamp, 'TASK_TEXT', 'x')\n", "names the embedded task text"),
    (lambda m: m.replace(f"    {TEXT_LINE}\n", ""), f"must go on with `{TEXT_LINE}`"),
    (lambda m: m.replace(f"    {TEXT_LINE}\n", "    TASK_TEXT = 'gcd'\n"), "must go on with"),
])
def test_check_embedded_refuses_a_swapped_or_rebound_task_text(edit: Any, problem: str) -> None:
    module = assemble(MODEL, PROGRAM, TEXT)
    found = check_embedded(edit(module), PROGRAM, TEXT)
    assert found is not None and problem in found, found


def test_check_embedded_without_a_text_refuses_one_the_model_bound() -> None:
    bound = assemble(MODEL, PROGRAM).replace(f"    {CLASS_LINE}\n",
                                             f"    {CLASS_LINE}\n    TASK_TEXT = 'gcd'\n")
    assert "TASK_TEXT is bound here" in (check_embedded(bound, PROGRAM) or "")
    assert "_TASK_TEXT exactly once" in (check_embedded(assemble(MODEL, PROGRAM), PROGRAM, TEXT)
                                         or "")


def test_static_gate_on_the_task_text() -> None:
    no_prompt = MODEL[:MODEL.index("    @staticmethod\n    def prompt_func")].rstrip("\n") + "\n"
    module = assemble(no_prompt, PROGRAM, TEXT)
    assert check_source(module) == []  # no prompt_func needed; the text is prose
    assert not any(v.rule == "methods" for v in check_source(assemble(no_prompt, PROGRAM)))

    def rules(code: str) -> set[str]:
        return {v.rule for v in check_source(code)}

    assert "compiled" in rules(module + "\nSumBootcamp.TASK_TEXT = 'x'\n")
    assert "compiled" in rules(module + "\n_TASK_TEXT = 'x'\n")
    assert "compiled" in rules(module + "\nX = {'TASK_TEXT': 1}\n")
    assert "compiled" in rules(module.replace(f"    {TEXT_LINE}\n", "    TASK_TEXT = 'gcd'\n"))
    assert "dunder" in rules(module + f"\nX = {TEXT!r}\n")  # only the embedded literal is prose


def _task(**fields: Any) -> TaskDescription:
    return TaskDescription(id="codecontests/x", source="codecontests",
                           kind=TaskKind.STDIO_PROGRAM, provenance=Provenance(dataset="t",
                                                                              location="t"),
                           **fields)


def test_task_text_renders_what_the_statement_does_not_hold() -> None:
    sample = fixtures.sample_task(1)  # a CodeContests statement holds specs and examples
    text = task_text(sample)
    assert text == f"{sample.title}\n\n{sample.statement.strip()}\n"
    assert text.startswith("Stack Leveling\n\n") and "gcd" not in text
    bare = _task(title="Pairs", statement="Count the pairs.", input_spec="n, then n numbers",
                 output_spec="one integer", notes="Pairs are unordered.",
                 examples=[Example(input="2\n1 1\n", output="1\n", explanation="one pair")])
    assert task_text(bare) == (
        "Pairs\n\nCount the pairs.\n\nInput\n\nn, then n numbers\n\nOutput\n\none integer\n\n"
        "Examples\n\nExample 1\ninput:\n2\n1 1\noutput:\n1\none pair\n\n"
        "Note\n\nPairs are unordered.\n")
    titled = _task(title="Pairs", statement="Pairs\n\nCount them.")
    assert task_text(titled) == "Pairs\n\nCount them.\n"


# ------------------------------------------------------------------------------------------
# check_embedded, the static gate and the library on assembled modules
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("edit", "problem"), [
    (lambda m: m.replace("print(sum(", "print(1 + sum("), "not the task's reference program"),
    (lambda m: m + "\nSumBootcamp.REFERENCE_PROGRAM = 'print(0)'\n", "attribute REFERENCE_PROG"),
    (lambda m: m + "\n_REFERENCE_PROGRAM = 'print(0)'\n", "exactly once"),
    (lambda m: m + "\nsetattr(SumBootcamp, 'REFERENCE_PROGRAM', 'x')\n", "names the embedded"),
    (lambda m: m + "\nEvil = type('E', (CompiledBootcamp,), {'REFERENCE_PROGRAM': 'x'})\n",
     "names the embedded"),
    (lambda m: m + "\nfrom synth.bootcamp import run_program\n", "run_program"),
    (lambda m: m.replace(f"    {CLASS_LINE}\n", ""), "must begin with"),
])
def test_check_embedded_refuses_a_swapped_or_rebound_program(edit: Any, problem: str) -> None:
    module = assemble(MODEL, PROGRAM)
    assert check_embedded(module, PROGRAM) is None
    found = check_embedded(edit(module), PROGRAM)
    assert found is not None and problem in found, found


def test_static_gate_accepts_compiled_modules_and_flags_what_they_must_not_do() -> None:
    module = assemble(MODEL, PROGRAM)
    assert check_source(module) == []

    def rules(code: str) -> set[str]:
        return {v.rule for v in check_source(code)}

    with_answer = module.replace("    @staticmethod\n    def prompt_func",
                                 "    @classmethod\n    def reference_answer(cls, identity):\n"
                                 "        return '0'\n\n    @staticmethod\n    def prompt_func")
    assert "compiled" in rules(with_answer)
    no_render = module.replace("def render_stdin(identity)", "def render(identity)")
    assert any(v.rule == "methods" and "render_stdin" in v.message
               for v in check_source(no_render))
    assert "compiled" in rules(module + "\nfrom synth.bootcamp import run_program\n")
    assert "compiled" in rules(module.replace("import CompiledBootcamp",
                                              "import CompiledBootcamp, run_program"))
    assert "compiled" in rules(module + "\nSumBootcamp.REFERENCE_PROGRAM = 'x'\n")
    assert "compiled" in rules(module + "\nX = {'REFERENCE_PROGRAM': 1}\n")
    assert "compiled" in rules(module + "\n_REFERENCE_PROGRAM = 'print(2)'\n")
    # a compiled module need not define reference_answer / _verify_correction
    assert not any(v.rule == "methods" for v in check_source(module))


def test_the_embedded_program_is_prose_to_the_static_gate() -> None:
    """A reference program may hold what the lint flags in bootcamp code (dunders in strings,
    introspection words): it is the task's own program, checked against the task."""
    program = ("import sys\nclass P:\n    pass\nprint(P().__class__.__name__, f'{__name__}', "
               "'os', '.__dict__')\n")
    module = assemble(MODEL, program)
    assert check_source(module) == []
    assert "dunder" in {v.rule for v in check_source(module + f"\nX = {program!r}\n")}


def test_find_bootcamp_class_finds_the_compiled_leaf() -> None:
    module = assemble(MODEL, PROGRAM)
    assert find_bootcamp_class(module) == "SumBootcamp"
    for name in NAMES:
        stored = (COMPILED / f"{name}.py").read_text(encoding="utf-8")
        assert find_bootcamp_class(stored) == _camp(name).__name__


# ------------------------------------------------------------------------------------------
# program_problems / compiled_reference
# ------------------------------------------------------------------------------------------


def test_every_sample_reference_can_be_compiled() -> None:
    for record in range(1, 19):
        assert program_problems(fixtures.sample_reference(record)) == [], record


@pytest.mark.parametrize(("program", "problem"), [
    ("import os\nprint(os.getpid())\n", "imports os"),
    ("import threading\nthreading.stack_size(1 << 27)\n", "imports threading"),
    ("from io import BytesIO\n", "imports io"),
    ("import sys\nprint(sys.modules)\n", "uses sys.modules"),
    ("from sys import path\n", "uses sys.path"),
    ("print(open('in.txt').read())\n", "opens a file"),
    ("print 'python 2'\n", "SyntaxError"),
    ("from . import x\n", "relative import"),
])
def test_program_problems_names_what_the_runner_lacks(program: str, problem: str) -> None:
    found = program_problems(program)
    assert any(problem in p for p in found), found


def test_program_problems_spares_guarded_imports_and_the_standard_streams() -> None:
    program = ("try:\n    import numpy as np\nexcept ImportError:\n    np = None\n"
               "import sys\ninput = sys.stdin.readline\nprint(open(0).read(), file=sys.stderr)\n"
               "sys.setrecursionlimit(10000)\n")
    assert program_problems(program) == []


def test_compiled_reference_picks_a_verified_runnable_python3_program() -> None:
    def task(*refs: ReferenceProgram) -> TaskDescription:
        return TaskDescription(id="codecontests/x", source="codecontests",
                               kind=TaskKind.STDIO_PROGRAM, title="x", statement="x",
                               references=list(refs),
                               provenance=Provenance(dataset="t", location="t"))

    runnable = ReferenceProgram(language="python3", code=PROGRAM, verified=True)
    needs_os = ReferenceProgram(language="python3", code="import os\n", verified=True)
    unverified = ReferenceProgram(language="python3", code="print(1)\n")
    assert compiled_reference(task(needs_os, runnable)) == PROGRAM
    assert compiled_reference(task(needs_os, unverified)) is None


# ------------------------------------------------------------------------------------------
# The whole gate
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_fixture_passes_the_gate_with_the_oracle(name: str, process_backend: Backend) -> None:
    code = (COMPILED / f"{name}.py").read_text(encoding="utf-8")
    start = time.perf_counter()
    report = run_checks(code, reference=fixtures.reference(name), backend=process_backend,
                        name=f"{name}.py")
    GATE_TIMES[name] = time.perf_counter() - start
    assert report.passed, report.feedback()
    oracle = report.get("oracle")
    assert oracle is not None and oracle.status == "passed", oracle
    assert "matches reference_answer" in oracle.reason
    assert GATE_TIMES[name] < 30, f"the gate took {GATE_TIMES[name]:.1f}s"


def test_an_altered_embedded_program_fails_the_oracle(process_backend: Backend) -> None:
    """One constant of the embedded program changed (trial division starts at 3, so factors
    of 2 go uncounted): every other check passes -- the answers are still self-consistent --
    and the oracle, running the task's own program, rejects the module."""
    name = "13_strangers_to_m"
    reference = fixtures.reference(name)
    stored = (COMPILED / f"{name}.py").read_text(encoding="utf-8")
    assert stored.count("    d = 2\n") == 1
    altered = stored.replace("    d = 2\n", "    d = 3\n")
    assert check_source(altered) == []
    assert "not the task's reference program" in (check_embedded(altered, reference) or "")
    report = run_checks(altered, reference=reference, backend=process_backend, name="altered.py")
    assert not report.passed
    oracle = report.get("oracle")
    assert oracle is not None and oracle.status == "failed", oracle
    assert "disagrees with reference_answer" in oracle.reason
    assert report.get("self_consistency").status == "passed"  # type: ignore[union-attr]


def test_check_output_accepts_every_valid_answer_of_a_multiple_answer_task() -> None:
    camp = _camp("pair_sum")
    several = 0
    for seed in range(200):
        case = camp.from_level("medium", seed=seed).case_generator()
        a, s = case["a"], case["s"]
        pairs = [(i + 1, j + 1) for i in range(len(a)) for j in range(i + 1, len(a))
                 if a[i] + a[j] == s]
        expected = camp.reference_answer(case)
        assert (expected == "-1") == (not pairs)
        if not pairs:
            assert camp.verify_score("<answer>-1</answer>", case) == 1.0
            assert camp.verify_score("<answer>1 2</answer>", case) == 0.0
            continue
        assert camp.verify_score("<answer>-1</answer>", case) == 0.0
        for i, j in pairs:
            assert camp.verify_score(f"<answer>{i} {j}</answer>", case) == 1.0
            assert camp.verify_score(f"<answer>{j} {i}</answer>", case) == 0.0
        others = [f"{i} {j}" for i, j in pairs if f"{i} {j}" != expected]
        if others:  # answers the token-wise default would reject
            several += 1
            assert camp.verify_score(camp.wrap_answer(others[0]), case) == 1.0
    assert several > 20


# ------------------------------------------------------------------------------------------
# The prompt part
# ------------------------------------------------------------------------------------------


def test_the_compiled_prompt_part_is_short_and_says_what_to_write() -> None:
    from synth.models.prompts import Prompts

    prompts = Prompts()
    text, _ = prompts.render("_compiled.j2", task=None, reference_program=PROGRAM)
    assert len(text) < 2400, len(text)  # about 500 tokens: small models have small contexts
    for needed in ("CompiledBootcamp", "render_stdin", "case_generator", "prompt_func",
                   "check_output(identity, expected, answer)", "read-only", "<answer>",
                   "reference_answer", "_verify_correction", "12 x 12", "TASK_TEXT",
                   "Leave `prompt_func` out"):
        assert needed in text, needed
    assert PROGRAM not in text  # _task.j2 shows the program, once
    via_mode, _ = prompts.render("_mode.j2", mode="compiled", task=None,
                                 reference_program=PROGRAM)
    assert text.strip() in via_mode
