"""`synth export --curriculum` and `--format hf`, and the estimates a curriculum rests on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers import TOY_SUM

from synth.library import BootcampRecord, Library
from synth.training.curriculum import RELIABLE_SAMPLES, level_difficulty, wilson_interval
from synth.training.export import ExportConfig, export

TOY_B = TOY_SUM.replace("ToySumBootcamp", "ToyBBootcamp")


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _lib(root: Path) -> Library:
    """toy_sum: measured rates (easy 0.8, hard 0.1) from a filter that stopped early after 5
    answers (3 easy, 2 hard); toy_b: no rates, so its LEVELS order (easy, hard) stands in."""
    lib = Library(root)
    counts = {"level_samples": {"easy": 3, "hard": 2}, "stopped_early": True}
    extra = {k: v for k, v in counts.items() if k in BootcampRecord.model_fields}
    lib.commit(name="toy_sum", code=TOY_SUM, class_name="ToySumBootcamp", source="toys",
               task_id="toys/toy_sum", origin="handwritten", pass_rate=0.4, samples=5,
               level_pass_rates={"easy": 0.8, "hard": 0.1}, levels=["easy", "hard"], **extra)
    lib.commit(name="toy_b", code=TOY_B, class_name="ToyBBootcamp", source="toys",
               task_id="toys/toy_b", origin="handwritten")
    return lib


def _expected_hardness(row: dict) -> float:
    info = row["extra_info"]
    if info["bootcamp"] == "toy_sum":
        return 1 - {"easy": 0.8, "hard": 0.1}[info["level"]]
    return {"easy": 0.25, "hard": 0.75}[info["level"]]


def test_narrower_intervals_with_more_answers():
    widths = [(lambda iv: iv[1] - iv[0])(wilson_interval(0.3 * n, n)) for n in (4, 16, 64, 256)]
    assert widths == sorted(widths, reverse=True)


def test_level_difficulty_says_what_each_rate_rests_on():
    measured = SimpleNamespace(name="b", level_pass_rates={"easy": 0.75, "hard": 0.25},
                               level_samples={"easy": 2, "hard": RELIABLE_SAMPLES},
                               samples=2 + RELIABLE_SAMPLES, stopped_early=True, calibration=None)
    easy = level_difficulty(measured, "easy", ["easy", "hard"])
    assert (easy.basis, easy.hardness, easy.samples, easy.stopped_early) == ("measured", 0.25, 2, True)
    assert not easy.reliable and "rests on 2 answer(s)" in easy.note()
    assert "stopped early" in easy.note() and "synth calibrate b --samples" in easy.note()
    hard = level_difficulty(measured, "hard", ["easy", "hard"])
    assert hard.reliable and hard.note() == ""
    assert hard.interval is not None and hard.interval[0] < 0.25 < hard.interval[1]
    calibrated = SimpleNamespace(**{**vars(measured), "calibration": {"samples": 64}})
    assert level_difficulty(calibrated, "hard", ["easy", "hard"]).basis == "calibrated"
    old = SimpleNamespace(name="o", level_pass_rates={"a": 0.5}, samples=3)  # no per-level counts
    d = level_difficulty(old, "a", ["a"])
    assert d.samples is None and d.total_samples == 3 and "unrecorded share of 3" in d.note()
    none = level_difficulty(old, "b", ["a", "b", "c"])
    assert (none.basis, none.hardness, none.pass_rate) == ("levels_order", 0.5, None)


def test_curriculum_export_orders_train_easy_to_hard_and_keeps_every_row(tmp_path: Path):
    lib = _lib(tmp_path / "lib")
    kw = {"library": lib.root, "per_bootcamp": 30, "test_per_bootcamp": 6, "seed": 2,
          "sandbox": "process"}
    export(ExportConfig(out=tmp_path / "plain", **kw))
    summary = export(ExportConfig(out=tmp_path / "cur", curriculum=True, **kw))
    plain, cur = _rows(tmp_path / "plain" / "train.jsonl"), _rows(tmp_path / "cur" / "train.jsonl")
    assert len(cur) == len(plain) == 60 and summary.rows["train"] == 60
    hard = [_expected_hardness(r) for r in cur]
    assert hard == sorted(hard) and len(set(hard)) == 4
    assert [r["extra_info"]["curriculum"]["hardness"] for r in cur] == pytest.approx(hard)
    # ties: the bootcamp's position in the request (library order), then the row's index
    order = Library(lib.root).list_bootcamps()
    keys = [(h, order.index(r["extra_info"]["bootcamp"]), r["extra_info"]["index"])
            for h, r in zip(hard, cur, strict=True)]
    assert keys == sorted(keys)

    def strip(row: dict) -> str:
        info = {k: v for k, v in row["extra_info"].items() if k != "curriculum"}
        return json.dumps({**row, "extra_info": info}, sort_keys=True)

    assert sorted(map(strip, cur)) == sorted(map(strip, plain))  # the same rows, reordered
    for row in cur:
        c = row["extra_info"]["curriculum"]
        if row["extra_info"]["bootcamp"] == "toy_sum":
            assert c["basis"] == "measured" and c["stopped_early"] is True
            if "level_samples" in BootcampRecord.model_fields:
                assert c["rate_samples"] == {"easy": 3, "hard": 2}[row["extra_info"]["level"]]
        else:
            assert c["basis"] == "levels_order" and c["pass_rate"] is None
    test_rows = _rows(tmp_path / "cur" / "test.jsonl")
    assert all("curriculum" in r["extra_info"] for r in test_rows)
    doc = json.loads((tmp_path / "cur" / "curriculum.json").read_text())
    levels = {(d["bootcamp"], d["level"]): d for d in doc["levels"]}
    assert set(levels) == {("toy_sum", "easy"), ("toy_sum", "hard"), ("toy_b", "easy"),
                           ("toy_b", "hard")}
    assert levels[("toy_sum", "hard")]["pass_rate"] == 0.1
    assert levels[("toy_sum", "hard")]["stopped_early"] is True
    assert levels[("toy_sum", "hard")]["reliable"] is False
    assert not (tmp_path / "plain" / "curriculum.json").exists()
    assert "curriculum" not in plain[0]["extra_info"]


def test_hf_format_is_a_datasetdict_with_the_exported_rows(tmp_path: Path):
    datasets = pytest.importorskip("datasets")
    lib = _lib(tmp_path / "lib")
    kw = {"library": lib.root, "per_bootcamp": 12, "test_per_bootcamp": 4, "seed": 5,
          "sandbox": "process"}
    export(ExportConfig(out=tmp_path / "j", **kw))
    summary = export(ExportConfig(out=tmp_path / "h", format="hf", **kw))
    assert summary.files == [str(tmp_path / "h" / "hf")]
    dd = datasets.load_from_disk(str(tmp_path / "h" / "hf"))
    assert set(dd) == {"train", "test"}
    for split in ("train", "test"):
        want = _rows(tmp_path / "j" / f"{split}.jsonl")
        assert dd[split].to_list() == want
    assert set(dd["train"].column_names) == {"data_source", "prompt", "ability", "reward_model",
                                             "extra_info"}
    # exporting again replaces the dataset whole
    export(ExportConfig(out=tmp_path / "h", format="hf", **{**kw, "per_bootcamp": 3}))
    assert len(datasets.load_from_disk(str(tmp_path / "h" / "hf"))["train"]) == 6
    assert sorted(p.name for p in (tmp_path / "h").iterdir()) == ["hf"]
    # an empty split reads back empty, with the same columns
    export(ExportConfig(out=tmp_path / "e", format="hf", **{**kw, "test_per_bootcamp": 0}))
    dd = datasets.load_from_disk(str(tmp_path / "e" / "hf"))
    assert (len(dd["train"]), len(dd["test"])) == (24, 0)
    assert dd["test"].column_names == dd["train"].column_names
    with pytest.raises(ValueError, match="every split is empty"):
        export(ExportConfig(out=tmp_path / "z", format="hf",
                            **{**kw, "per_bootcamp": 0, "test_per_bootcamp": 0}))


def test_cli_curriculum_prints_the_table_and_what_to_calibrate(tmp_path: Path):
    lib = _lib(tmp_path / "lib")
    res = subprocess.run(
        [sys.executable, "-m", "synth.cli", "export", "--out", str(tmp_path / "o"), "--library",
         str(lib.root), "--per-bootcamp", "8", "--test-per-bootcamp", "2", "--curriculum",
         "--sandbox", "process", "--format", "parquet"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert res.returncode == 0, res.stderr[-2000:]
    assert "curriculum: train rows easy to hard" in res.stderr
    assert "synth calibrate toy_sum --samples 64" in res.stderr
    assert "toy_b/easy: no measured rate" in res.stderr
    assert (tmp_path / "o" / "curriculum.json").exists() and (tmp_path / "o" / "train.parquet").exists()
