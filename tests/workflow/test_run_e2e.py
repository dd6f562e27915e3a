"""`synth run` end to end: the real CLI, the real openai client over HTTP, a scripted fake endpoint
in its own process, the process sandbox, LangGraph with SQLite checkpoints. One draft per round
(``candidates=1``): the choice between drafts is covered by the tests that run with two
(test_judge_e2e, test_steer_e2e, test_dedup)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from e2e import (
    FakeEndpoint,
    library_state,
    only_run,
    outcomes,
    run_args,
    synth,
    synth_env,
    write_tasks,
)

from synth.library import Library
from synth.runs import read_events, task_slug

SCRIPTED = ["accept-a", "revise-b", "broken-c", "easy-d", "hard-e"]
EXPECTED = {
    "local/accept-a": ("accepted", "accepted"),
    "local/revise-b": ("accepted", "accepted"),
    "local/broken-c": ("rejected", "gate_failed"),
    "local/easy-d": ("rejected", "too_easy"),
    "local/hard-e": ("rejected", "too_hard"),
}


@pytest.fixture
def fake(tmp_path: Path):
    endpoint = FakeEndpoint(tmp_path, "toy")
    yield endpoint
    endpoint.close()


@dataclass
class ScriptedRun:
    tasks: Path
    lib: Path
    run_dir: Path


@pytest.fixture(scope="module")
def scripted_run(tmp_path_factory: pytest.TempPathFactory) -> ScriptedRun:
    """One uninterrupted run of SCRIPTED, made once: what the scripted test checks, and what
    the killed and resumed run of the same tasks and options must equal (read only)."""
    tmp = tmp_path_factory.mktemp("scripted")
    tasks = write_tasks(tmp / "tasks", SCRIPTED)
    endpoint = FakeEndpoint(tmp, "toy")
    try:
        res = synth(run_args(tasks, tmp / "lib", tmp / "runs", candidates=1),
                    synth_env(endpoint.base_url))
    finally:
        endpoint.close()
    assert res.returncode == 0, res.stderr[-3000:]
    return ScriptedRun(tasks, tmp / "lib", only_run(tmp / "runs"))


def test_scripted_run_accepts_and_rejects_as_scripted(tmp_path: Path, fake: FakeEndpoint,
                                                      scripted_run: ScriptedRun):
    tasks, run_dir = scripted_run.tasks, scripted_run.run_dir
    lib, runs = tmp_path / "lib", tmp_path / "runs"
    shutil.copytree(scripted_run.lib, lib)  # the second run below commits into a copy
    assert outcomes(run_dir) == EXPECTED
    library = Library(lib)
    assert sorted(library.list_bootcamps()) == ["local_accept_a", "local_revise_b"]
    for name in library.list_bootcamps():
        cls = library.load_bootcamp(name)
        case = cls.from_level("hard", seed=3).case_generator()
        assert cls.verify_score(cls.wrap_answer(cls.reference_answer(case)), case) == 1.0
        rec = library.record(name)
        assert rec.origin == "generated" and rec.run_id == run_dir.name
        assert rec.coder_model == "fake-coder" and rec.solver_model == "fake-solver"
        assert rec.pass_rate is not None and 0.03 <= rec.pass_rate <= 0.85
        assert set(rec.level_pass_rates) == {"easy", "medium", "hard"}
        assert rec.level_pass_rates["easy"] == 1.0 and rec.level_pass_rates["hard"] == 0.0
        assert rec.prompt_version and rec.content_hash
        # what the rates rest on: the filter's answers per level, and whether it stopped early
        filt = json.loads((run_dir / "filter" / f"{task_slug(rec.task_id)}.json").read_text())
        assert rec.level_samples == filt["level_counts"] and list(rec.level_samples) == list(rec.level_pass_rates)
        assert sum(rec.level_samples.values()) == rec.samples == filt["answered"]
        assert rec.stopped_early is filt["stopped_early"] and rec.calibration is None
    # the revised task needed a second round: its first candidates failed the static check
    cands = sorted(p.name for p in (run_dir / "candidates" / "local_revise-b").iterdir())
    assert "round_0_0.py" in cands and "round_1_0.py" in cands and "round_0_0.check.json" in cands
    first = json.loads((run_dir / "candidates" / "local_revise-b" / "round_0_0.check.json").read_text())
    assert first["passed"] is False
    assert any(c["name"] == "static" and c["status"] == "failed" for c in first["checks"])
    events = read_events(run_dir / "events.jsonl")
    kinds = {e["kind"] for e in events}
    assert {"run_start", "llm_call", "sandbox", "filter", "commit", "reject", "run_end"} <= kinds
    calls = [e for e in events if e["kind"] == "llm_call"]
    assert all(e["tokens_in"] > 0 and e["latency_s"] >= 0 for e in calls if e["ok"])
    assert (run_dir / "checkpoints.sqlite").stat().st_size > 0
    transcripts = [line for f in (run_dir / "transcripts").glob("*.jsonl")
                   for line in f.read_text().splitlines()]
    assert len(transcripts) == len(calls)
    assert {f.stem for f in (run_dir / "transcripts").glob("*.jsonl")} == {
        t.replace("/", "_") for t in EXPECTED}
    # a second run drops the tasks already in the library before it starts (--limit counts
    # only the others)
    accepted = {r.task_id for r in library.read_manifest().bootcamps}
    res = synth(run_args(tasks, lib, runs, candidates=1), synth_env(fake.base_url))
    assert res.returncode == 0
    assert f"{len(accepted)} task(s) already in the library" in res.stderr
    second = only_run(runs)
    assert "local/accept-a" in accepted and not accepted & set(outcomes(second))


def test_fault_injection_every_task_ends_with_a_reason(tmp_path: Path):
    endpoint = FakeEndpoint(tmp_path, "toy", "--fault-rate", "0.3", "--seed", "7")
    try:
        tasks = write_tasks(tmp_path / "tasks", [f"accept-{i}" for i in range(3)] + ["broken-x", "hard-y"])
        res = synth(run_args(tasks, tmp_path / "lib", tmp_path / "runs", candidates=1),
                    synth_env(endpoint.base_url))
    finally:
        endpoint.close()
    assert res.returncode == 0, res.stderr[-3000:]
    result = outcomes(only_run(tmp_path / "runs"))
    assert len(result) == 5
    for task, (status, reason) in result.items():
        assert status in ("accepted", "rejected"), (task, status, reason)
        assert reason
    events = read_events(only_run(tmp_path / "runs") / "events.jsonl")
    retried = [e for e in events if e["kind"] == "llm_call" and e["attempts"] > 1]
    assert retried, "the fault injection should have caused retries"


def _kill_when(proc: subprocess.Popen, runs: Path, predicate, timeout: float = 300) -> Path:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        dirs = [d for d in runs.iterdir() if d.is_dir()] if runs.exists() else []
        if dirs and predicate(read_events(dirs[0] / "events.jsonl")):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
            return dirs[0]
        if proc.poll() is not None:
            raise AssertionError(f"run ended before it could be killed: {proc.stderr.read()[-2000:]}")
        time.sleep(0.05)
    raise AssertionError("the run never reached the kill point")


def test_kill_and_resume_equals_uninterrupted_run(tmp_path: Path, scripted_run: ScriptedRun):
    """Killed after its first commit (two tasks at a time: others in flight and not started),
    resumed: the outcomes and the library of the uninterrupted run of the same tasks and
    options (``scripted_run``; concurrency is no part of a run's configuration)."""
    tasks = write_tasks(tmp_path / "tasks", SCRIPTED)
    slow = FakeEndpoint(tmp_path, "toy", "--delay", "0.05")
    try:
        env = synth_env(slow.base_url)
        args = run_args(tasks, tmp_path / "lib", tmp_path / "runs", "--concurrency", "2",
                        candidates=1)
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)
        run_dir = _kill_when(proc, tmp_path / "runs",
                             lambda ev: sum(e["kind"] == "commit" for e in ev) >= 1)
        changed = synth([*args, "--resume", run_dir.name, "--rounds", "5"], env)
        assert changed.returncode == 2 and "rounds" in changed.stderr
        res = synth([*args, "--resume", run_dir.name], env)
        assert res.returncode == 0, res.stderr[-3000:]
    finally:
        slow.close()
    assert outcomes(run_dir) == outcomes(scripted_run.run_dir) == EXPECTED
    assert library_state(tmp_path / "lib") == library_state(scripted_run.lib)
    names_in_lib = [n for n, *_ in library_state(tmp_path / "lib")]
    assert len(names_in_lib) == len(set(names_in_lib))
    assert not list((tmp_path / "lib").rglob("*.tmp"))
    lib = Library(tmp_path / "lib")
    for name in lib.list_bootcamps():
        lib.load_bootcamp(name)  # hash matches: no partial file


def test_two_runs_commit_into_one_library(tmp_path: Path, fake: FakeEndpoint):
    lib = tmp_path / "lib"
    env = synth_env(fake.base_url)
    a = write_tasks(tmp_path / "a", [f"accept-a{i}" for i in range(4)])
    b = write_tasks(tmp_path / "b", [f"accept-b{i}" for i in range(4)])
    procs = [
        subprocess.Popen(run_args(folder, lib, tmp_path / f"runs-{folder.name}", candidates=1), env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for folder in (a, b)
    ]
    for p in procs:
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err[-2000:]
    state = library_state(lib)
    assert {t for _, t, _, _ in state} == {f"local/accept-{x}{i}" for x in "ab" for i in range(4)}
    lib_obj = Library(lib)
    assert len(lib_obj.list_bootcamps()) == 8
    for name in lib_obj.list_bootcamps():
        lib_obj.load_bootcamp(name)


def test_budget_stops_new_work_and_says_so(tmp_path: Path, fake: FakeEndpoint):
    prices = tmp_path / "prices.json"
    # ~1000 tokens per draft call at $10/token: the first task's drafts exhaust a $1 budget
    prices.write_text(json.dumps({"fake-coder": {"input_per_mtok": 1e7, "output_per_mtok": 1e7}}))
    tasks = write_tasks(tmp_path / "tasks", [f"accept-{i}" for i in range(4)])
    args = run_args(tasks, tmp_path / "lib", tmp_path / "runs", "--concurrency", "1",
                    "--budget", "1", "--prices", str(prices))
    res = synth(args, synth_env(fake.base_url))
    assert res.returncode == 0, res.stderr[-2000:]
    assert "budget was spent" in res.stderr
    result = outcomes(only_run(tmp_path / "runs"))
    statuses = [s for s, _ in result.values()]
    assert statuses[0] == "accepted"  # in flight when the budget ran out: finished
    assert statuses[1:] == ["not_started"] * 3
    assert all(r == "budget" for s, r in result.values() if s == "not_started")
    summary = json.loads((only_run(tmp_path / "runs") / "summary.json").read_text())
    assert summary["cost_usd"] >= 1 and summary["budget_stopped"] is True
