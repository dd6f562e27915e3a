"""A compiled bootcamp's STRESS level (code test suites only): the inputs check draws its cases
and holds them to the statement, as it holds the levels' -- legal, larger than every level's
input, and the reference program finishes on each. A bootcamp without STRESS is not asked for one.

The fixture is the compiled exemplar (its own STRESS is the first case below), on its task ("Strangers to m": t <= 10 queries, n <= 10^18,
m <= 10^10; the hard level asks 6 queries up to 10^12 and 10^6)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from synth.gate import CheckConfig, run_checks
from synth.sandbox.base import Backend

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "compiled" / "13_strangers_to_m.py"
#: a smaller gate than the default: these tests are about the inputs check
CFG = CheckConfig(cases_per_level=8, oracle_cases=24, differential_cases=40, mutation_cases=8,
                  consistency_samples=20)


def _with_stress(stress: str | None) -> str:
    """The fixture with its own STRESS line (the exemplar's) replaced by ``stress`` (None: no
    STRESS at all)."""
    code, found = re.subn(r"    # the statement's limits[^\n]*\n    STRESS: [^\n]*\n", "",
                          FIXTURE.read_text(encoding="utf-8"))
    assert found == 1
    anchor = "    def __init__(self, seed"
    assert code.count(anchor) == 1
    if stress is None:
        return code
    return code.replace(anchor, f"    STRESS = {stress}\n\n{anchor}")


def _inputs(code: str, backend: Backend) -> tuple[bool, object]:
    report = run_checks(code, backend=backend, name="strangers.py", config=CFG)
    inputs = report.get("inputs")
    assert inputs is not None
    return report.passed, inputs


def test_a_stress_level_at_the_limits_passes_and_is_reported(process_backend: Backend) -> None:
    passed, inputs = _inputs(_with_stress('{"queries": 10, "max_n": 10**18, "max_m": 10**10}'),
                             process_backend)
    assert passed, inputs
    checked = inputs.artifacts["checked"]  # type: ignore[attr-defined]
    assert "STRESS {'queries': 10" in checked and "the reference finishes on each" in checked


@pytest.mark.parametrize(("stress", "says"), [
    # 12 queries where the statement allows at most 10: the statement's checker rejects it
    ('{"queries": 12, "max_n": 10**18, "max_m": 10**10}', "does not allow"),
    # the levels' sizes: a stress level that catches no slow program
    ('{"queries": 2, "max_n": 30, "max_m": 30}', "no larger than the levels'"),
    # not plain parameters
    ('{"queries": 10, "max_n": float("inf")}', "STRESS"),
    # a parameter __init__ does not take
    ('{"queries": 10, "size": 5}', "constructing STRESS"),
], ids=["beyond_the_bounds", "levels_size", "not_plain", "unknown_parameter"])
def test_a_broken_stress_level_fails_the_inputs_check(stress: str, says: str,
                                                      process_backend: Backend) -> None:
    passed, inputs = _inputs(_with_stress(stress), process_backend)
    assert not passed
    # an exception in the bootcamp (an unknown parameter) is an error, a broken rule a failure
    assert inputs.status.value in ("failed", "error"), inputs  # type: ignore[attr-defined]
    assert says in inputs.reason, inputs.reason  # type: ignore[attr-defined]


def test_no_stress_level_is_not_asked_for(process_backend: Backend) -> None:
    passed, inputs = _inputs(_with_stress(None), process_backend)
    assert passed, inputs
    assert "STRESS" not in inputs.artifacts["checked"]  # type: ignore[attr-defined]
