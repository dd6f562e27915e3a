"""The levels check names the parameter a generator ignores, so a revision knows what to fix."""

from __future__ import annotations

from typing import Any

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


def test_the_library_s_curriculum_names_are_checked_with_the_levels(
        process_backend: Backend) -> None:
    # TOY_SUM names its presets easy, hard: fine for `synth check`, not for a library whose
    # manifest says every bootcamp begins with easy, medium, hard (synth run passes them)
    from helpers import TOY_SUM

    from synth.gate import CheckConfig
    from synth.gate.run import run_checks

    def levels(source: str, names: tuple[str, ...]) -> Any:
        report = run_checks(source, backend=process_backend, config=CheckConfig(level_names=names))
        return next(c for c in report.checks if c.name == "levels")

    curriculum = ("easy", "medium", "hard")
    assert levels(TOY_SUM, ()).status.value == "passed"
    named = levels(TOY_SUM, curriculum)
    assert named.status.value == "failed" and named.finding == "level_names"
    assert "'easy', 'hard'" in named.reason and "'easy', 'medium', 'hard'" in named.reason
    three = TOY_SUM.replace('LEVELS = {"easy": {"n": 3, "hi": 9}, "hard": {"n": 8, "hi": 999}}',
                            'LEVELS = {"easy": {"n": 3, "hi": 9}, "medium": {"n": 5, "hi": 99}, '
                            '"hard": {"n": 8, "hi": 999}}')
    assert three != TOY_SUM
    assert levels(three, curriculum).status.value == "passed"
