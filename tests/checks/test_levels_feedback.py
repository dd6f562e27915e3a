"""The levels check names the parameter a generator ignores, so a revision knows what to fix."""

from __future__ import annotations

from conftest import check_corpus_file

from synth.sandbox.base import Backend


def test_a_level_parameter_the_generator_ignores_is_named(process_backend: Backend) -> None:
    # levels_no_growth.py sets self.n = 6 whatever n its level gives: no level grows
    report = check_corpus_file("levels_no_growth.py", process_backend)
    (levels,) = [c for c in report.checks if c.name == "levels"]
    assert levels.status.value == "failed"
    assert "not measurably larger or harder" in levels.reason
    assert "sets n=8 (level 'easy': 4)" in levels.reason, levels.reason
    assert "changes nothing" in levels.reason and levels.finding == "inert_parameter"
