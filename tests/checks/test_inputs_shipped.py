"""The inputs check on what the project ships: the generated CodeContests bootcamps and the
compiled fixtures read their embedded statement, derive rules from it, and have no finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from synth.gate import run_checks_file
from synth.sandbox import get_backend

REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted((REPO / "generated_bootcamps" / "codecontests").glob("codecontests_*.py"))
FIXTURES = [REPO / "tests" / "fixtures" / "compiled" / f"{n}.py"
            for n in ("12_rebuild_the_queue", "13_strangers_to_m", "14_earliest_course_plan")]


@pytest.mark.parametrize("path", SHIPPED + FIXTURES, ids=lambda p: p.stem)
def test_compiled_modules_pass_the_inputs_check_with_rules_from_their_statement(path):
    report = run_checks_file(path, backend=get_backend("process"))
    inputs = report.get("inputs")
    assert inputs is not None and inputs.status.value == "passed", report.feedback()
    checked = inputs.artifacts["checked"]
    assert "statement layout" in checked and "statement chain" in checked, checked
    assert "the prompt shows render_stdin's text" in checked
    assert report.passed, report.feedback()
