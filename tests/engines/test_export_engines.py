"""`synth export` on the engine-backed bootcamps: a few rows of each, drawn in the sandbox with
the engine, reproducible, the multi-turn ones marked as such.

The rows are drawn at the easiest level (``level="easy"``: 9x9 openings, two-move games), which
costs GNU Go some 40 % less than one row of each level (a 13x13 position, a five-move game):
what is asserted -- drawn with the engine in the sandbox, the same bytes twice, marked
multi-turn -- does not depend on the level. How export spreads rows over the levels is
tests/foundation/test_export.py's; every level of both bootcamps is drawn in the sandbox, twice
and compared, by the gate's generate and determinism checks on the shipped modules
(test_gate.py)."""

from __future__ import annotations

import json
from pathlib import Path

from synth.training.export import ExportConfig, export


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_engine_bootcamps_export_reproducibly(tmp_path: Path):
    kw = {"per_bootcamp": 3, "test_per_bootcamp": 1, "seed": 4, "bootcamps": ["go_move", "go_game"],
          "sandbox": "process", "level": "easy"}
    export(ExportConfig(out=tmp_path / "a", **kw))
    export(ExportConfig(out=tmp_path / "b", **kw))
    for split in ("train.jsonl", "test.jsonl"):
        assert (tmp_path / "a" / split).read_bytes() == (tmp_path / "b" / split).read_bytes()
    rows = _rows(tmp_path / "a" / "train.jsonl")
    assert [r["extra_info"]["bootcamp"] for r in rows] == ["go_move"] * 3 + ["go_game"] * 3
    assert {r["extra_info"]["level"] for r in rows} == {"easy"}
    for row in rows:
        identity = json.loads(row["reward_model"]["ground_truth"])
        assert identity["engine"].startswith("GNU Go")
        multi = row["extra_info"].get("multi_turn", False)
        assert multi == (row["extra_info"]["bootcamp"] == "go_game")
        if multi:
            assert row["extra_info"]["max_turns"] >= 1
