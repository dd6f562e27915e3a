"""`synth export` on the engine-backed bootcamps: a few rows of each, drawn in the sandbox with
the engine, reproducible, the multi-turn ones marked as such."""

from __future__ import annotations

import json
from pathlib import Path

from synth.training.export import ExportConfig, export


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_engine_bootcamps_export_reproducibly(tmp_path: Path):
    kw = {"per_bootcamp": 3, "test_per_bootcamp": 1, "seed": 4, "bootcamps": ["go_move", "go_game"],
          "sandbox": "process"}
    export(ExportConfig(out=tmp_path / "a", **kw))
    export(ExportConfig(out=tmp_path / "b", **kw))
    for split in ("train.jsonl", "test.jsonl"):
        assert (tmp_path / "a" / split).read_bytes() == (tmp_path / "b" / split).read_bytes()
    rows = _rows(tmp_path / "a" / "train.jsonl")
    assert [r["extra_info"]["bootcamp"] for r in rows] == ["go_move"] * 3 + ["go_game"] * 3
    for row in rows:
        identity = json.loads(row["reward_model"]["ground_truth"])
        assert identity["engine"].startswith("GNU Go")
        multi = row["extra_info"].get("multi_turn", False)
        assert multi == (row["extra_info"]["bootcamp"] == "go_game")
        if multi:
            assert row["extra_info"]["max_turns"] >= 1
