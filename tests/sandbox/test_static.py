"""The static gate: every rule fires on a minimal offending program and clean code passes."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from synth.sandbox.static import MAX_BYTES, MAX_LINES, check_source, format_violations

REPO = Path(__file__).resolve().parents[2]

CLEAN = '''"""Toy task: add two numbers (provenance: written for the static-gate tests)."""

from __future__ import annotations

import math
from collections import Counter

from synth.bootcamp import BaseBootcamp


class AddBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"hi": 9}, "hard": {"hi": 999}}
    __slots__ = ()

    def __init__(self, seed: int | None = None, hi: int = 99) -> None:
        super().__init__(seed=seed)
        self.hi = hi

    def case_generator(self) -> dict:
        return {"a": self.rng.randint(0, self.hi), "b": self.rng.randint(0, self.hi)}

    @staticmethod
    def prompt_func(identity: dict) -> str:
        return f"Add {identity['a']} and {identity['b']}; answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity: dict) -> str:
        return str(identity["a"] + identity["b"])

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict) -> bool:
        name = type(cls).__name__
        if getattr(cls, "LEVELS", None) is None or not name:
            return False
        return solution.strip() == str(math.fsum([identity["a"], identity["b"]]))[:-2] or bool(
            Counter(solution)
        ) and solution.strip() == cls.reference_answer(identity)


if __name__ == "__main__":
    print(AddBootcamp(seed=1).case_generator())
'''


def rules(code: str, mode: str = "synth") -> set[str]:
    return {v.rule for v in check_source(code, mode=mode)}  # type: ignore[arg-type]


def with_method(body: str) -> str:
    """CLEAN plus one extra method holding ``body``."""
    method = textwrap.indent(textwrap.dedent(body), " " * 8)
    extra = f"    @classmethod\n    def helper(cls, x):\n{method}\n"
    return CLEAN.replace("\n\nif __name__", "\n" + extra + "\n\nif __name__")


def test_clean_code_passes() -> None:
    assert check_source(CLEAN) == []


LIBRARY = sorted(
    p for p in (REPO / "generated_bootcamps").glob("*/*.py") if p.name != "__init__.py"
)


def test_library_is_not_empty() -> None:
    assert LIBRARY, "no shipped bootcamps found under generated_bootcamps/"


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: p.name)
def test_shipped_library_bootcamps_pass(path: Path) -> None:
    violations = check_source(path.read_text())
    assert violations == [], format_violations(violations)


def test_syntax_error_names_the_line() -> None:
    (v,) = check_source('"""doc"""\nx = 1\ndef broken(:\n    pass\n')
    assert v.rule == "syntax" and v.line == 3


def test_size_cap_bytes_and_lines() -> None:
    assert rules(CLEAN + "#" * (MAX_BYTES + 1)) == {"size"}
    assert rules(CLEAN + "\n" * MAX_LINES) == {"size"}


def test_missing_docstring() -> None:
    assert rules(CLEAN.split("\n", 2)[2]) == {"docstring"}


def test_no_bootcamp_class() -> None:
    code = '"""doc"""\n\nclass Plain:\n    pass\n'
    (v,) = check_source(code)
    assert v.rule == "class"


def test_two_bootcamp_classes_rejected_at_the_second() -> None:
    second = "\n\nclass Other(BaseBootcamp):\n    pass\n"
    found = check_source(CLEAN + second)
    assert [v.rule for v in found] == ["class"]
    assert found[0].line == CLEAN.count("\n") + 3


def test_intermediate_class_counts_as_a_base_not_a_second_bootcamp() -> None:
    code = CLEAN.replace(
        "class AddBootcamp(BaseBootcamp):",
        "class Mid(BaseBootcamp):\n    pass\n\n\nclass AddBootcamp(Mid):",
    )
    assert check_source(code) == []


def test_missing_required_method() -> None:
    code = CLEAN.replace("def reference_answer", "def not_reference_answer")
    found = check_source(code)
    assert [v.rule for v in found] == ["methods"]
    assert "reference_answer" in found[0].message


@pytest.mark.parametrize(
    "stmt",
    [
        "import os",
        "import subprocess as sp",
        "from sys import modules",
        "import numpy",
        "from os import path",
        "import importlib.util",
        "from . import sibling",
        "import synth.models.llm",
        "from synth import llm",
        "from random import *",
    ],
)
def test_import_allowlist(stmt: str) -> None:
    code = CLEAN.replace("import math\n", f"import math\n{stmt}\n")
    found = check_source(code)
    assert {v.rule for v in found} == {"import"}, format_violations(found)
    assert found[0].line == 6


def test_allowed_imports_pass() -> None:
    extra = "import random, re, itertools, heapq, bisect, string, json, typing\n"
    extra += "from fractions import Fraction\nfrom decimal import Decimal\nimport synth.bootcamp\n"
    extra += "from dataclasses import dataclass\nimport statistics, operator, functools\n"
    assert check_source(CLEAN.replace("import math\n", "import math\n" + extra)) == []


def test_verify_score_override() -> None:
    code = with_method("return x").replace(
        "def helper(cls, x):", "def verify_score(cls, x, identity, format_score=0.0):"
    )
    found = check_source(code)
    assert [v.rule for v in found] == ["verify_override"]


def test_verify_score_assigned_in_class_body() -> None:
    code = CLEAN.replace(
        "    __slots__ = ()\n", "    verify_score = classmethod(lambda c, r, i, f=0.0: 1.0)\n"
    )
    assert rules(code) == {"verify_override"}


def test_kwargs_in_init() -> None:
    code = CLEAN.replace("hi: int = 99) -> None:", "hi: int = 99, **extra) -> None:")
    assert rules(code) == {"kwargs"}


@pytest.mark.parametrize(
    "expr",
    [
        "().__class__.__bases__[0].__subclasses__()",
        "cls.helper.__globals__",
        "x.__builtins__",
        "type.__mro__",
        "cls.helper.__code__",
        "x.__dict__",
        "x.__class__",
        "__builtins__",
        "'__subclasses__'",
        "'{0.__class__}'.format(x)",
        "__loader__",
    ],
)
def test_dunder_walks(expr: str) -> None:
    found = rules(with_method(f"return {expr}"))
    assert found & {"dunder", "forbidden_name"} and found <= {"dunder", "forbidden_name"}


@pytest.mark.parametrize(
    "name",
    [
        "eval",
        "exec",
        "compile",
        "open",
        "__import__",
        "globals",
        "locals",
        "vars",
        "breakpoint",
        "input",
    ],
)
def test_forbidden_names_called_or_referenced(name: str) -> None:
    assert "forbidden_name" in rules(with_method(f"return {name}(x)"))
    assert "forbidden_name" in rules(with_method(f"f = {name}\nreturn f"))


def test_parameter_named_like_a_builtin_is_not_the_builtin() -> None:
    assert (
        check_source(
            with_method("return x")
            .replace("(cls, x)", "(cls, input)")
            .replace("return x", "return input.split()")
        )
        == []
    )
    # ...but the default value of that parameter is evaluated outside: still flagged
    code = with_method("return x").replace("(cls, x)", "(cls, x, f=eval)")
    assert rules(code) == {"forbidden_name"}
    code = with_method("return eval(x)").replace("(cls, x)", "(cls, x, eval=eval)")
    assert rules(code) == {"forbidden_name"}
    assert rules(with_method("return (lambda open=open: open)()")) == {"forbidden_name"}


def test_re_compile_attribute_is_fine() -> None:
    code = CLEAN.replace("import math\n", "import math\nimport re\n")
    assert (
        check_source(
            with_method("return re.compile(x)").replace(
                "import math\n", "import math\nimport re\n", 1
            )
        )
        == []
    )
    assert check_source(code) == []


@pytest.mark.parametrize("func", ["getattr", "setattr", "delattr", "hasattr"])
def test_dynamic_attribute_names(func: str) -> None:
    args = "x, name" + (", 1" if func == "setattr" else "")
    assert rules(with_method(f"name = 'a' + 'b'\nreturn {func}({args})")) == {"dynamic_attr"}


def test_attrgetter_with_computed_or_dunder_names() -> None:
    imp = ("import math\n", "import math\nimport operator\n")
    code = with_method("return operator.attrgetter('__glo' + 'bals__')(x)").replace(*imp)
    assert rules(code) == {"dynamic_attr"}
    code = with_method("return operator.attrgetter('helper.__globals__')(cls)").replace(*imp)
    assert rules(code) == {"dunder"}
    assert check_source(with_method("return operator.attrgetter('real')(x)").replace(*imp)) == []


def test_literal_getattr_is_fine_but_dunder_literal_is_not() -> None:
    assert check_source(with_method("return getattr(x, 'real', 0)")) == []
    assert rules(with_method("return getattr(x, '__globals__')")) == {"dunder"}


@pytest.mark.parametrize(
    "stmt",
    [
        "BaseBootcamp.verify_score = classmethod(lambda c, r, i, f=0.0: 1.0)",
        "setattr(BaseBootcamp, 'verify_score', None)",
        "math.pi = 3",
        "math.floor.x = 1",
        "del BaseBootcamp.extract_output",
    ],
)
def test_monkeypatching(stmt: str) -> None:
    code = CLEAN.replace("\n\nif __name__", f"\n\n{stmt}\n\nif __name__")
    assert rules(code) == {"monkeypatch"}


def test_violation_text_names_line_and_rule() -> None:
    code = CLEAN.replace("import math\n", "import math\nimport os\n")
    text = format_violations(check_source(code))
    assert text.startswith("line 6:0 [import]") and "'os'" in text


INTERN = """import random
import ast
from bootcamp import Basebootcamp


class Puzzle(Basebootcamp):
    def __init__(self, size=3, **kwargs):
        self.size = size

    def case_generator(self):
        return {"n": random.randint(1, self.size)}

    @staticmethod
    def prompt_func(identity):
        return str(identity)

    @staticmethod
    def extract_output(output):
        return output

    @classmethod
    def _verify_correction(cls, solution, identity):
        return ast.literal_eval(solution) == identity["n"]

    @classmethod
    def verify_score(cls, model_output, identity, format_score=0.1):
        return 1.0
"""


def test_intern_mode_accepts_internbootcamp_conventions() -> None:
    assert check_source(INTERN, mode="intern") == []
    # the same module is not a valid synth bootcamp
    assert {"class", "import", "docstring"} <= rules(INTERN)


def test_intern_mode_still_rejects_escapes() -> None:
    code = INTERN.replace("return output", "return eval(output)")
    assert rules(code, mode="intern") == {"forbidden_name"}
    code = INTERN.replace(
        "import ast\n",
        "import ast\nfrom internbootcamp.bootcamp.base import Basebootcamp as B\nimport os\n",
    )
    assert rules(code, mode="intern") == {"import"}


@pytest.mark.parametrize("name", ["extract_output", "wrap_answer"])
def test_extraction_overrides_are_refused(name: str) -> None:
    """The answer is read by the contract's own extract_output: an override sees the whole
    response (its length, prose, other blocks), where gate and production responses differ."""
    as_method = with_method("return x").replace("def helper(cls, x):", f"def {name}(cls, x):")
    assert rules(as_method) == {"extraction_override"}
    assigned = CLEAN.replace("    __slots__ = ()\n", f"    {name} = staticmethod(str.strip)\n")
    assert rules(assigned) == {"extraction_override"}
