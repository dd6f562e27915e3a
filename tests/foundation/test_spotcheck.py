"""The export's spot-check (synth.training.spotcheck): it passes honest bootcamps -- a stated float
tolerance included -- and fails one lenient on its exported rows or whose rows a fresh worker
does not reproduce."""

from __future__ import annotations

import random

from helpers import TOY_FLAGGED, TOY_SUM

from synth.serving.sampling import CaseSampler
from synth.training.rows import make_row
from synth.training.spotcheck import spot_check

# the mean of the numbers, accepted within 1e-4 (a tolerance the prompt states): a corrupted
# last digit of the reference may be right
MEAN = TOY_SUM.replace("ToySumBootcamp", "ToyMeanBootcamp").replace(
    "        return str(sum(identity[\"numbers\"]))",
    "        return f'{sum(identity[\"numbers\"]) / len(identity[\"numbers\"]):.6f}'",
).replace(
    "        if not s.lstrip(\"-\").isdigit() or len(s) > 30:\n            return False\n"
    "        return int(s) == sum(identity[\"numbers\"])",
    "        try:\n            value = float(s)\n        except ValueError:\n            return False\n"
    "        want = sum(identity[\"numbers\"]) / len(identity[\"numbers\"])\n"
    "        return abs(value - want) <= 1e-4 * max(1.0, abs(want))",
).replace("Add these numbers", "Give the mean, within 1e-4, of")
FLAGGED = TOY_FLAGGED

def _rows(code: str, seeds: range) -> list[dict]:
    with CaseSampler(code, backend="process") as sampler:
        samples = sampler.sample([(sampler.levels[i % 2], seed) for i, seed in enumerate(seeds)])
    return [make_row("toy", "train", i, s) for i, s in enumerate(samples)]


def test_honest_bootcamps_pass_a_stated_tolerance_included():
    assert MEAN != TOY_SUM and "float(s)" in MEAN
    for code in (TOY_SUM, MEAN):
        found = spot_check("toy", code, "", _rows(code, range(40)), "process",
                           rng=random.Random(3))
        assert found.ok, found.findings
        assert found.checked >= 6 and found.scored > found.checked


def test_a_bootcamp_lenient_on_exported_seeds_fails_with_the_evidence():
    assert "tag" in FLAGGED
    honest = spot_check("toy", FLAGGED, "", _rows(FLAGGED, range(40)), "process")
    assert honest.ok, honest.findings  # the gate's small seeds: nothing to see
    found = spot_check("toy", FLAGGED, "", _rows(FLAGGED, range(10**6, 10**6 + 40)), "process")
    assert not found.ok
    assert "corrupted answers score 1.0" in found.reason and "row train[" in found.reason


def test_a_row_a_fresh_worker_does_not_reproduce_fails_at_once():
    rows = _rows(TOY_SUM, range(8))
    for row in rows:  # another case than its level and seed give
        row["reward_model"]["ground_truth"] = '{"numbers": [1, 2, 3]}'
    found = spot_check("toy", TOY_SUM, "", rows, "process")
    assert not found.ok and "drew another case" in found.reason


def test_the_export_quarantines_a_bootcamp_lenient_on_its_rows_and_leaves_them_out(tmp_path):
    from helpers import make_library

    from synth.training.export import ExportConfig, export

    lib = make_library(tmp_path / "lib", toy_sum=TOY_SUM, flagged=FLAGGED)
    summary = export(ExportConfig(out=tmp_path / "out", library=lib.root, per_bootcamp=60,
                                  test_per_bootcamp=20, sandbox="process"))
    assert list(summary.quarantined) == ["flagged"]
    assert "corrupted answers score 1.0" in summary.quarantined["flagged"]
    assert summary.spot_checked >= 12  # both bootcamps were audited
    rows = (tmp_path / "out" / "train.jsonl").read_text().splitlines()
    assert len(rows) == 60 and all('"bootcamp/toy_sum"' in r for r in rows)
    assert lib.record("flagged").status == "quarantined"
    assert lib.record("toy_sum").status == "accepted"
