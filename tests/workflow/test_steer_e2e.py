"""Difficulty steering end to end: the real CLI against the scripted endpoint (scenario ``toy``).

``steer-*`` is too easy until a steering prompt shows every level at 1.000 and asks for a harder
bootcamp; ``easy-*`` and ``hard-*`` come back unchanged from a steering round. The prefix cache
the fake endpoint emulates shows up in the ledger.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from e2e import FakeEndpoint, only_run, outcomes, run_args, synth, synth_env, write_tasks

from synth.library import Library
from synth.reporting.report import analyse, load_run
from synth.runs import read_events


def _run(tmp: Path, names: list[str], *extra: str, cache: str = "openai") -> Path:
    fake = FakeEndpoint(tmp, "toy", "--cache", cache)
    try:
        tasks = write_tasks(tmp / "tasks", names)
        res = synth(run_args(tasks, tmp / "lib", tmp / "runs", "--candidates", "1", *extra),
                    synth_env(fake.base_url))
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    return only_run(tmp / "runs")


def _events(run_dir: Path, kind: str, task: str | None = None) -> list[dict[str, Any]]:
    return [e for e in read_events(run_dir / "events.jsonl")
            if e["kind"] == kind and (task is None or e.get("task") == task)]


def _steer_prompts(run_dir: Path, task: str) -> list[str]:
    lines = (run_dir / "transcripts" / f"{task.replace('/', '_')}.jsonl").read_text().splitlines()
    return [json.loads(x)["messages"][-1]["content"] for x in lines
            if json.loads(x)["record"]["tag"].startswith(f"{task}|steer")]


@pytest.fixture(scope="module")
def steered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("steer"), ["steer-a", "easy-b", "hard-c", "accept-d"])


def test_a_too_easy_bootcamp_is_steered_into_the_band_and_committed(steered: Path):
    run_dir = steered
    assert outcomes(run_dir) == {
        "local/steer-a": ("accepted", "accepted"),
        "local/easy-b": ("rejected", "too_easy"),
        "local/hard-c": ("rejected", "too_hard"),
        "local/accept-d": ("accepted", "accepted"),
    }
    task = "local/steer-a"
    asked, result = _events(run_dir, "steer", task)
    assert asked["action"] == "asked" and asked["step"] == 1 and asked["verdict_before"] == "too_easy"
    assert asked["pass_rate_before"] == 1.0 and asked["level_pass_rates_before"]["hard"] == 1.0
    assert result["action"] == "result" and result["verdict_after"] == "accepted"
    assert 0.03 <= result["pass_rate_after"] <= 0.85
    assert result["level_pass_rates_after"]["easy"] == 1.0 and result["level_pass_rates_after"]["hard"] == 0.0
    (prompt,) = _steer_prompts(run_dir, task)
    assert "TOO EASY" in prompt and "- medium: 1.000" in prompt and "[0.03, 0.85]" in prompt
    assert "Add a list of integers (steer-a)" in prompt  # the task statement, self-contained
    # the steered candidate went through the judge, the gate and the filter again
    filters = _events(run_dir, "filter", task)
    assert [f["verdict"] for f in filters] == ["too_easy", "accepted"]
    assert [f["steer_step"] for f in filters] == [0, 1]
    assert [e["round"] for e in _events(run_dir, "sandbox", task)] == [0, 1]
    steering = run_dir / "filter" / "steering"
    assert sorted(p.name for p in steering.glob("local_steer-a*")) == [
        "local_steer-a.step_0.json", "local_steer-a.step_1.json"]
    rec = Library(run_dir.parent.parent / "lib").record("local_steer_a")
    assert rec.pass_rate == result["pass_rate_after"] and rec.mode == "full"
    code = (run_dir / "candidates" / "local_steer-a" / "round_1_0.py").read_text()
    assert "[easy]" not in code and rec.code_sha256 and "[easy]" in (
        run_dir / "candidates" / "local_steer-a" / "round_0_0.py").read_text()
    # accept-d needed no steering
    assert not _events(run_dir, "steer", "local/accept-d")


def test_a_steer_that_stays_out_of_band_is_rejected_after_the_rounds(steered: Path):
    for task, verdict in (("local/easy-b", "too_easy"), ("local/hard-c", "too_hard")):
        actions = [(e["action"], e.get("verdict_after")) for e in _events(steered, "steer", task)]
        assert actions == [("asked", None), ("result", verdict)]
        (reject,) = _events(steered, "reject", task)
        assert reject["reason_code"] == verdict and "after 1 steering round(s)" in reject["reason"]
    assert "Make the bootcamp EASIER" in _steer_prompts(steered, "local/hard-c")[0]


def test_the_report_shows_the_steering_rounds(steered: Path):
    report = analyse(load_run(steered))
    table = report.tables["steering"].set_index("task")
    assert set(table.index) == {"local/steer-a", "local/easy-b", "local/hard-c"}
    row = table.loc["local/steer-a"]
    assert (row["verdict_before"], row["verdict_after"], row["outcome"]) == ("too_easy", "accepted", "accepted")
    assert row["pass_rate_before"] == 1.0 and 0.03 <= row["pass_rate_after"] <= 0.85
    assert "hard 1.00" in row["levels_before"] and "hard 0.00" in row["levels_after"]
    assert table.loc["local/easy-b", "verdict_after"] == "too_easy"
    assert report.facts["steering_rounds"] == 3 and report.facts["steered_into_band"] == 1


def test_every_coder_call_after_the_first_reads_the_prefix_from_the_cache(steered: Path):
    calls = [e for e in _events(steered, "llm_call") if e["role"] == "coder"]
    assert len(calls) == 4 + 3  # a draft per task, three steering rounds
    cached = sorted(e["tokens_cached"] for e in calls)
    assert cached[0] == 0  # the first call of the run fills the cache (calls run concurrently,
    assert cached[-1] > 2000  # so a few may miss it); the rest read the prefix from it
    assert sum(1 for c in cached if c == cached[-1]) >= 4
    summary = json.loads((steered / "summary.json").read_text())
    assert summary["tokens_cached"] == sum(e["tokens_cached"] for e in _events(steered, "llm_call"))
    assert summary["llm_calls"] == len(_events(steered, "llm_call"))
    assert summary["llm_seconds"] > 0


def test_steer_rounds_zero_rejects_as_before(tmp_path: Path):
    run_dir = _run(tmp_path, ["steer-a"], "--steer-rounds", "0", cache="llamacpp")
    assert outcomes(run_dir) == {"local/steer-a": ("rejected", "too_easy")}
    assert not _events(run_dir, "steer")
    assert not [e for e in _events(run_dir, "llm_call") if "|steer" in e["tag"]]
    (reject,) = _events(run_dir, "reject")
    assert "steering" not in reject["reason"]


def test_more_steer_rounds_are_bounded(tmp_path: Path):
    run_dir = _run(tmp_path, ["easy-b"], "--steer-rounds", "2", cache="llamacpp")
    assert outcomes(run_dir) == {"local/easy-b": ("rejected", "too_easy")}
    asked = [e for e in _events(run_dir, "steer") if e["action"] == "asked"]
    assert [e["step"] for e in asked] == [1, 2] and [e["round"] for e in asked] == [1, 2]
    prompts = _steer_prompts(run_dir, "local/easy-b")
    assert "steering 1 of 2" in prompts[0] and "steering 2 of 2" in prompts[1]
    assert "round 1 (steer): candidate 0: passed the gate; filter: too_easy" in prompts[1]
    (reject,) = _events(run_dir, "reject")
    assert "after 2 steering round(s)" in reject["reason"]
    # llama.cpp-style cache reports: the server's prompt seconds are in the ledger too
    coder = [e for e in _events(run_dir, "llm_call") if e["role"] == "coder"]
    assert [e["tokens_cached"] > 0 for e in coder] == [False, True, True]
    assert all(e["prompt_s"] is not None for e in coder)
