"""Cases whose answer the prompt itself shows: a compiled task's statement prints its examples
with their outputs, so a generator that often writes an example's input gives those answers away
(``answer_in_prompt``, the inputs check; the function-task case is in test_function_gate.py)."""

from __future__ import annotations

from pathlib import Path

from synth.gate import CheckConfig, run_checks
from synth.sandbox.base import Backend

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "compiled" / "13_strangers_to_m.py"
CFG = CheckConfig(cases_per_level=8, oracle_cases=24, differential_cases=40, mutation_cases=8,
                  consistency_samples=20)
GENERATOR = "    def case_generator(self) -> dict[str, Any]:\n        rng = self.rng\n"


def _familiar(every: int) -> str:
    """The exemplar, whose generator writes the statement's example input once in ``every``."""
    code = FIXTURE.read_text(encoding="utf-8")
    assert code.count(GENERATOR) == 1
    return code.replace(GENERATOR, GENERATOR + f"        if rng.randrange({every}) == 0:\n"
                        "            return {\"queries\": [[10, 6], [5, 1], [12, 12]]}\n")


def test_a_generator_that_writes_the_example_input_gives_its_answer_away(
        process_backend: Backend) -> None:
    report = run_checks(_familiar(2), backend=process_backend, name="familiar.py", config=CFG)
    inputs = report.get("inputs")
    assert inputs is not None and inputs.status.value == "failed", inputs
    assert inputs.finding == "answer_in_prompt" and "statement's example inputs" in inputs.reason
    assert inputs.artifacts["shown"] == repr("3 10 6 5 1 12 12")


def test_the_example_input_now_and_then_is_an_edge_case_not_a_leak(
        process_backend: Backend) -> None:
    report = run_checks(_familiar(40), backend=process_backend, name="rarely.py", config=CFG)
    assert report.passed, report.feedback()
    assert "statement's 1 example input(s): at most 30% of a level's" in \
        report.get("inputs").artifacts["checked"]  # type: ignore[union-attr]
