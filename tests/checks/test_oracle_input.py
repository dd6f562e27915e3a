"""The oracle notices a render_stdin that does not write the problem's input format.

A small code model in compiled mode writes a generator and a render_stdin of its own; when the
text it renders is not what the problem reads (here: the count line announces one query fewer
than the lines after it), the embedded program silently ignores part of the input. Every other
check passes -- a compiled bootcamp's answers are self-consistent by construction -- so the
oracle changes the last value of the input and sees that the output never moves.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from synth.gate import run_checks
from synth.sandbox.base import Backend

COMPILED = Path(__file__).resolve().parents[1] / "fixtures" / "compiled"
NAME = "13_strangers_to_m"
GOOD_COUNT = 'lines = [str(len(identity["queries"]))]'
BAD_COUNT = 'lines = [str(len(identity["queries"]) - 1)]'


def _reference() -> str:
    spec = importlib.util.spec_from_file_location("compiled_fixtures_oi", COMPILED / "assemble_all.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["compiled_fixtures_oi"] = module
    spec.loader.exec_module(module)
    return str(module.reference(NAME))


def test_a_count_line_that_disagrees_with_the_lines_after_it_fails_the_oracle(
        process_backend: Backend) -> None:
    stored = (COMPILED / f"{NAME}.py").read_text(encoding="utf-8")
    assert stored.count(GOOD_COUNT) == 1
    report = run_checks(stored.replace(GOOD_COUNT, BAD_COUNT), reference=_reference(),
                        backend=process_backend, name="miscounted.py")
    oracle = report.get("oracle")
    assert oracle is not None and oracle.status == "failed", report.feedback()
    assert "never depends on the last value of render_stdin" in oracle.reason
    assert oracle.artifacts.get("stdin"), oracle.artifacts
    assert not report.passed
    # the statement's layout says the same, from the embedded task text (issue 21)
    inputs = report.get("inputs")
    assert inputs is not None and inputs.finding == "input_violates_statement", report.feedback()
    assert inputs.artifacts.get("rule") == "layout"
    others = [c for c in report.checks if c.name not in ("oracle", "differential", "inputs")]
    assert all(c.status.value in ("passed", "skipped") for c in others), report.feedback()


def test_the_honest_module_passes_and_says_its_tail_matters(process_backend: Backend) -> None:
    stored = (COMPILED / f"{NAME}.py").read_text(encoding="utf-8")
    report = run_checks(stored, reference=_reference(), backend=process_backend, name="honest.py")
    oracle = report.get("oracle")
    assert oracle is not None and oracle.status == "passed", report.feedback()
    assert "depends on the last value" in oracle.reason


def test_a_first_line_unlike_every_example_input_fails_the_oracle(process_backend: Backend) -> None:
    """The count line left out: the program still reads something, its output still depends
    on the last value, but the task's examples all start with one value on the first line."""
    stored = (COMPILED / f"{NAME}.py").read_text(encoding="utf-8")
    no_count = stored.replace(GOOD_COUNT, "lines: list[str] = []")
    examples = ["3\n10 6\n5 1\n12 12\n", "1\n7 7\n"]
    report = run_checks(no_count, reference=_reference(), backend=process_backend,
                        name="no_count.py", example_inputs=examples)
    oracle = report.get("oracle")
    assert oracle is not None and oracle.status == "failed", report.feedback()
    assert "first line has 2 value(s)" in oracle.reason and "has 1" in oracle.reason
    assert oracle.artifacts.get("example_input") == examples[0]
    honest = run_checks(stored, reference=_reference(), backend=process_backend,
                        name="honest.py", example_inputs=examples)
    assert honest.get("oracle").status == "passed", honest.feedback()  # type: ignore[union-attr]
    mixed = run_checks(no_count, reference=_reference(), backend=process_backend,
                       name="mixed.py", example_inputs=[*examples, "2 3\n"])
    assert "first line has" not in mixed.get("oracle").reason  # type: ignore[union-attr]
