"""Acceptance: `synth run --source codecontests --limit 5` on the bundled sample, fake endpoint."""

from __future__ import annotations

import sys
from pathlib import Path

from e2e import FakeEndpoint, only_run, outcomes, synth, synth_env

from synth.library import Library

EXPECTED_STATUS = [
    ("accepted", "accepted"),  # 01: first drafts fail the gate, the revision passes, in band
    ("accepted", "accepted"),  # 02: passes at once, in band
    ("rejected", "gate_failed"),  # 03: never passes the gate
    ("rejected", "too_easy"),  # 04: the solver always solves it
    ("rejected", "too_hard"),  # 05: the solver never solves it
]


def test_codecontests_limit_5_as_scripted(tmp_path: Path):
    fake = FakeEndpoint(tmp_path, "codecontests5")
    try:
        args = [
            sys.executable, "-m", "synth.cli", "run", "--source", "codecontests", "--limit", "5",
            "--coder-model", "fake-coder", "--solver-model", "fake-solver",
            "--library", str(tmp_path / "lib"), "--runs-dir", str(tmp_path / "runs"),
            "--sandbox", "process", "--samples", "32", "--rounds", "2", "--mode", "full",
            "--candidates", "1",  # one draft a round: the scripted outcomes need no second
        ]
        res = synth(args, synth_env(fake.base_url))
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    assert "bundled sample" in res.stderr
    run_dir = only_run(tmp_path / "runs")
    result = outcomes(run_dir)
    assert len(result) == 5
    assert list(result.values()) == EXPECTED_STATUS, result
    lib = Library(tmp_path / "lib")
    accepted = lib.list_bootcamps()
    assert len(accepted) == 2
    for name in accepted:
        rec = lib.record(name)
        assert rec.reference_program is not None
        assert (lib.root / rec.reference_program).exists()
        cls = lib.load_bootcamp(name)
        case = cls.from_level("medium", seed=11).case_generator()
        assert cls.verify_score(cls.wrap_answer(cls.reference_answer(case)), case) == 1.0
        assert hasattr(cls, "render_stdin")
