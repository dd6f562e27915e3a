"""The record fields that say what a pass rate rests on (level_samples, stopped_early,
calibration): optional, so manifests written before them load; validated when present."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from synth.library import BootcampRecord, Calibration, Library

REPO = Path(__file__).resolve().parents[2]


def test_a_manifest_without_the_fields_loads_with_their_defaults(tmp_path: Path):
    shutil.copytree(REPO / "generated_bootcamps", tmp_path / "lib",
                    ignore=shutil.ignore_patterns("*.lock", "__pycache__"))
    raw = json.loads((tmp_path / "lib" / "manifest.json").read_text())
    for rec in raw["bootcamps"]:
        for key in ("level_samples", "stopped_early", "calibration"):
            rec.pop(key, None)
    (tmp_path / "lib" / "manifest.json").write_text(json.dumps(raw))
    records = Library(tmp_path / "lib").records(None)
    assert len(records) == len(raw["bootcamps"]) > 0
    assert all(r.level_samples == {} and r.stopped_early is None and r.calibration is None
               for r in records)


def _record(**fields: object) -> BootcampRecord:
    return BootcampRecord(name="x", class_name="X", module_path="s/x.py", source="s", task_id="s/x",
                          origin="handwritten", code_sha256="0" * 64, created_at="now", **fields)  # type: ignore[arg-type]


def test_the_fields_round_trip_and_are_validated():
    cal = Calibration(solver_model="m", endpoint="[::1]:8080", samples_requested=64,
                      samples_answered=60, solver_failures=4, seed=3, calibrated_at="t")
    rec = _record(level_samples={"easy": 30, "hard": 30}, stopped_early=False, calibration=cal)
    assert BootcampRecord.model_validate(json.loads(rec.model_dump_json())) == rec
    with pytest.raises(ValidationError):
        _record(level_samples={"easy": -1})
    with pytest.raises(ValidationError):
        _record(calibration={**cal.model_dump(), "api_key": "sk-x"})  # extra fields are refused
    for endpoint in ("user:sk-secret@host", "https://host/v1", "host/v1?key=sk", "", "a b"):
        with pytest.raises(ValidationError):
            Calibration(**{**cal.model_dump(), "endpoint": endpoint})


@pytest.mark.parametrize(("url", "name"), [
    (None, "api.openai.com"),
    ("http://127.0.0.1:8080/v1", "127.0.0.1:8080"),
    ("https://user:sk-secret@api.example.com/v1?key=sk-2", "api.example.com"),
    ("http://[::1]:9000/v1", "[::1]:9000"),
    ("localhost:8000/v1", "localhost:8000"),
])
def test_endpoint_name_keeps_the_host_only(url: str | None, name: str):
    from synth.library import endpoint_name

    assert endpoint_name(url) == name
    Calibration(solver_model="m", endpoint=endpoint_name(url), samples_requested=1,
                samples_answered=1, seed=0, calibrated_at="t")


def test_wilson_interval_matches_published_values():
    from synth.training.curriculum import wilson_interval

    assert wilson_interval(5, 10) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    z2 = 1.959963984540054 ** 2  # at the ends the interval has a closed form
    assert wilson_interval(1, 1) == (pytest.approx(1 / (1 + z2)), 1.0)
    assert wilson_interval(0, 34) == (0.0, pytest.approx(z2 / (34 + z2)))
    assert wilson_interval(0, 34)[1] == pytest.approx(0.1015, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
