"""Fixtures of the suite tests: the "Even Pairs" compiled bootcamp (with a STRESS preset), its
labelled programs, and libraries that hold it; "Odd Digits" (no STRESS: suites derive one)."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

from synth.compiled import assemble
from synth.library import Library

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
LABELLED = FIXTURES / "labelled"
#: the fixture's task id (its labelled folder is LABELLED / "even-pairs")
EVEN_PAIRS_TASK = "codecontests/even-pairs"
EVEN_PAIRS = "even_pairs"


@cache
def even_pairs_text() -> str:
    return (FIXTURES / "even_pairs_task.txt").read_text(encoding="utf-8")


@cache
def even_pairs_reference() -> str:
    return (FIXTURES / "even_pairs_reference.py").read_text(encoding="utf-8")


def even_pairs_model() -> str:
    return (FIXTURES / "even_pairs.model.py").read_text(encoding="utf-8")


def even_pairs_module(model: str | None = None) -> str:
    """The assembled module (``model``: another model part, e.g. a changed generator)."""
    return assemble(model or even_pairs_model(), even_pairs_reference(), even_pairs_text())


def compiled_library(root: Path, modules: dict[str, str], task_id: str = EVEN_PAIRS_TASK,
                     **fields: object) -> Library:
    """A library holding each module of ``modules`` (name -> code) as a compiled bootcamp."""
    lib = Library(root)
    for name, code in modules.items():
        cls_name = code.split("\nclass ", 1)[1].split("(", 1)[0]
        lib.commit(name=name, code=code, class_name=cls_name, source="codecontests",
                   task_id=task_id, origin="generated", mode="compiled", **fields)
    return lib


def load_module(code: str, name: str) -> ModuleType:
    """Import a module's source in this process (the tests trust their own fixtures)."""
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(code, f"<{name}>", "exec"), module.__dict__)
    return module


#: "Odd Digits": a compiled bootcamp with no STRESS (code suites derive one), its task id and
#: its labelled programs (a correct one, one that reads at most 1000 digits, an off-by-one one)
ODD_DIGITS_TASK = "codecontests/odd-digits"
LABELLED_DERIVED = FIXTURES / "labelled_derived"


def odd_digits_text() -> str:
    return (FIXTURES / "odd_digits_task.txt").read_text(encoding="utf-8")


def odd_digits_module(model: str | None = None) -> str:
    """The assembled module (``model``: another model part)."""
    return assemble(model or odd_digits_model(), (FIXTURES / "odd_digits_reference.py").read_text(
        encoding="utf-8"), odd_digits_text())


def odd_digits_model() -> str:
    return (FIXTURES / "odd_digits.model.py").read_text(encoding="utf-8")
