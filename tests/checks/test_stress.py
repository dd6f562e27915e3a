"""A compiled bootcamp's STRESS level (code test suites only): the inputs check draws its cases
and holds them to the statement, as it holds the levels' -- legal, larger than every level's
input, and the reference program finishes on each. A bootcamp without STRESS is not asked for one.

The fixture is the compiled exemplar (its own STRESS is the first case below), on its task ("Strangers to m": t <= 10 queries, n <= 10^18,
m <= 10^10; the hard level asks 6 queries up to 10^12 and 10^6)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from synth.compiled import assemble, task_text
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


STACKS_MODEL = '''"""Stack Leveling (bundled record 1): n stacks of heights h_i, the fewest moves to level them."""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class StackLevelingBootcamp(CompiledBootcamp):
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"n": 4, "top": 9}, "medium": {"n": 8, "top": 100}, "hard": {"n": 12, "top": 10**9},
    }
    STRESS: ClassVar[dict[str, Any]] = {"n": 200000, "top": 10**9}

    def __init__(self, seed: int | None = None, n: int = 4, top: int = 9) -> None:
        super().__init__(seed=seed)
        self.n, self.top = n, top

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = self.n if self.n > 100 else rng.randint(1, self.n)
        return {"h": [rng.randint(0, self.top) for _ in range(n)]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return f"{len(identity['h'])}\\n{' '.join(map(str, identity['h']))}\\n"
'''


def test_a_stress_input_at_a_real_statements_limits_is_read_whole(process_backend: Backend) -> None:
    """2*10^5 heights up to 10^9 (about 2 MB of stdin): larger than any prompt, and still read
    and judged by the statement's checker, the input reply and the reference run."""
    spec = importlib.util.spec_from_file_location("stress_fixtures", FIXTURE.parent / "assemble_all.py")
    assert spec is not None and spec.loader is not None
    fixtures = importlib.util.module_from_spec(spec)
    sys.modules["stress_fixtures"] = fixtures
    spec.loader.exec_module(fixtures)
    code = assemble(STACKS_MODEL, fixtures.sample_reference(1), task_text(fixtures.sample_task(1)))
    report = run_checks(code, backend=process_backend, name="stacks.py", config=CFG)
    inputs = report.get("inputs")
    assert report.passed and inputs is not None, report.feedback()
    checked = inputs.artifacts["checked"]
    assert "STRESS {'n': 200000" in checked, checked
    sizes = [int(x) for x in checked.split("inputs of ")[1].split(" characters")[0].split(", ")]
    assert min(sizes) > 1_500_000, sizes
