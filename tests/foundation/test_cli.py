"""The CLI as a user runs it: `synth library ...`, `synth export`, and reward over exported rows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import TOY_SUM, library_sample

from synth.library import Library
from synth.training.reward import RewardFunction

SYNTH = [sys.executable, "-m", "synth.cli"]
NAMES = Library().list_bootcamps()
# the command line's path is the same for every bootcamp: the export acceptance and `library
# show` run on a sample (tests/helpers.py:library_sample), whose cost does not grow with the
# library; engine-backed bootcamps draw cases by self-play (tests/engines exports those)
QUICK = library_sample()
SHOWN = library_sample(engines=True)


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    res = subprocess.run([*SYNTH, *args], capture_output=True, text=True, timeout=600, env=env)
    if check:
        assert res.returncode == 0, res.stderr[-3000:]
    return res


def test_help_lists_commands():
    res = run("--help")
    for cmd in ("library", "export"):
        assert cmd in res.stdout


def test_library_list_json_records():
    res = run("library", "list", "--json")
    records = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["name"] for r in records] == NAMES
    for r in records:
        assert {"name", "source", "task_id", "origin", "status", "pass_rate"} <= set(r)
        assert r["status"] == "accepted"
    table = run("library", "list").stdout
    for name in NAMES:
        assert name in table


@pytest.mark.parametrize("name", SHOWN)
def test_library_show_each(name: str):
    res = run("library", "show", name, "--level", "hard", "--seed", "3")
    for needle in ("prompt", "reference answer", "class", "case (level=hard, seed=3)"):
        assert needle in res.stdout, needle


def test_library_errors_are_one_clear_line(tmp_path: Path):
    res = run("library", "show", "no_such_bootcamp", check=False)
    assert res.returncode == 2 and "no bootcamp named 'no_such_bootcamp'" in res.stderr
    res = run("library", "list", "--library", str(tmp_path / "missing"), check=False)
    assert res.returncode == 2 and "does not exist" in res.stderr
    assert "Traceback" not in res.stderr


def test_library_add_to_another_folder(tmp_path: Path):
    src = tmp_path / "toy.py"
    src.write_text(TOY_SUM)
    lib = tmp_path / "lib"
    run("library", "add", str(src), "--library", str(lib), "--source", "mine")
    res = run("library", "list", "--library", str(lib), "--json")
    rec = json.loads(res.stdout)
    assert rec["name"] == "toy" and rec["source"] == "mine" and rec["levels"] == ["easy", "hard"]
    again = run("library", "add", str(src), "--library", str(lib), "--source", "mine", check=False)
    assert again.returncode == 2 and "already exists" in again.stderr


def test_export_acceptance(tmp_path: Path):
    outs = [tmp_path / "a", tmp_path / "b"]
    for out in outs:
        res = run("export", "--out", str(out), "--per-bootcamp", "200",
                  "--test-per-bootcamp", "50", "--seed", "7",
                  *[arg for n in QUICK for arg in ("--bootcamp", n)])
        assert "duplicate prompts dropped" in res.stderr
    for split in ("train.jsonl", "test.jsonl"):
        assert (outs[0] / split).read_bytes() == (outs[1] / split).read_bytes()
    train = [json.loads(x) for x in (outs[0] / "train.jsonl").read_text().splitlines()]
    test = [json.loads(x) for x in (outs[0] / "test.jsonl").read_text().splitlines()]
    assert len(train) == 200 * len(QUICK) and len(test) == 50 * len(QUICK)
    assert {r["extra_info"]["bootcamp"] for r in train} == set(QUICK)
    shared = {r["prompt"][0]["content"] for r in train} & {r["prompt"][0]["content"] for r in test}
    assert shared == set()
    score = RewardFunction()
    lib = Library()
    for row in test:
        if row["extra_info"].get("multi_turn"):  # an episode, not one answer (tests/multiturn)
            continue
        cls = lib.load_bootcamp(row["extra_info"]["bootcamp"])
        gt = row["reward_model"]["ground_truth"]
        answer = cls.wrap_answer(cls.reference_answer(json.loads(gt)))
        assert score(row["data_source"], answer, gt, row["extra_info"]) == 1.0
        assert score(row["data_source"], "", gt, row["extra_info"]) == 0.0


def test_export_parquet_and_bad_options(tmp_path: Path):
    run("export", "--out", str(tmp_path / "p"), "--per-bootcamp", "5", "--test-per-bootcamp", "2",
        "--format", "parquet", *[arg for n in QUICK[:2] for arg in ("--bootcamp", n)])
    assert (tmp_path / "p" / "train.parquet").stat().st_size > 0
    res = run("export", "--out", str(tmp_path / "q"), "--format", "csv", check=False)
    assert res.returncode == 2 and "error" in res.stderr
    res = run("export", "--out", str(tmp_path / "q"), "--level", "nightmare", check=False)
    assert res.returncode == 2 and "nightmare" in res.stderr
