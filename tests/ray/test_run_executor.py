"""`synth run --executor ray` on the real two-node local cluster, against the scripted endpoint
(tests/fakes, in its own process) with the process sandbox: the same outcomes and library as the
local executor; a worker node killed mid-run costs nothing but time; a driver killed mid-run is
resumed with `--resume RUN_ID --executor ray`; `--llm-concurrency` holds across the cluster.

Each run is the real CLI in a subprocess (its own Ray driver, joining the cluster's address),
with one draft per round (``candidates=1``), one revision round and no steering round
(:func:`lean_args`): what these tests check is where and how the task graphs run, not the
choice between drafts, revision or steering (tests/workflow covers those). Every scripted kind
of task still ends as scripted: a draft that passes, one that passes after its revision, one
that never passes the gate, one too easy, one too hard."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from cluster import RAY_ENV, LocalRayCluster, alive, all_processes
from workflow.e2e import (
    REPO,
    FakeEndpoint,
    library_state,
    only_run,
    outcomes,
    run_args,
    synth,
    synth_env,
    synth_many,
    write_tasks,
)

from synth.library import Library
from synth.runs import read_events
from synth.workflow.ray_executor import _snapshot, checkpoint_file

#: task name -> (status, reason code) as the toy scenario scripts them
SCRIPTED = {
    "accept-a": ("accepted", "accepted"),
    "revise-b": ("accepted", "accepted"),
    "broken-c": ("rejected", "gate_failed"),
    "easy-d": ("rejected", "too_easy"),
    "hard-e": ("rejected", "too_hard"),
    "accept-f": ("accepted", "accepted"),
    "accept-g": ("accepted", "accepted"),
}
#: one task of each scripted kind (accepted at once, after a revision, gate failed, too easy,
#: too hard): where the claim is the local run's outcomes, a second task of a kind adds nothing
KINDS = ["accept-a", "revise-b", "broken-c", "easy-d", "hard-e"]
KIT = "_synth_kit.py"  # on the command line of every sandbox job

#: the toy scenario with every answer held back ``delay`` seconds, counting the requests in
#: flight; the most ever at once goes to ``<port file>.inflight``
COUNTING_SERVER = r"""
import sys, threading, time
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from fakes.openai_server import FakeOpenAI
from fakes.scenarios import build
port_file, delay = Path(sys.argv[1]), float(sys.argv[2])
toy = build("toy")
lock = threading.Lock()
state = {"now": 0, "max": 0, "calls": 0}
def script(req):
    with lock:
        state["now"] += 1
        state["calls"] += 1
        if state["now"] > state["max"]:
            state["max"] = state["now"]
            tmp = port_file.with_suffix(".tmp2")
            tmp.write_text(str(state["max"]))
            tmp.replace(port_file.with_suffix(".inflight"))
    try:
        time.sleep(delay)
        return toy(req)
    finally:
        with lock:
            state["now"] -= 1
with FakeOpenAI(script) as server:
    tmp = port_file.with_suffix(".tmp")
    tmp.write_text(server.base_url)
    tmp.replace(port_file)
    threading.Event().wait()
"""


class CountingEndpoint:
    def __init__(self, tmp: Path, delay_s: float) -> None:
        self.port_file = tmp / f"counting-{time.monotonic_ns()}.url"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", COUNTING_SERVER, str(self.port_file), str(delay_s),
             str(REPO / "tests")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + 30
        while not self.port_file.exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"endpoint did not start: {self.proc.stderr.read()!r}")  # type: ignore[union-attr]
            time.sleep(0.05)
        self.base_url = self.port_file.read_text()

    @property
    def max_in_flight(self) -> int:
        path = self.port_file.with_suffix(".inflight")
        return int(path.read_text()) if path.exists() else 0

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)


def lean_args(tasks: Path, library: Path, runs: Path, *extra: str) -> list[str]:
    """``run_args`` with one draft per round, one revision round (``revise-*`` needs it) and no
    steering round (``easy-*`` and ``hard-*`` are rejected at their first filter verdict, as
    scripted): each gate run or steering round left out is a toy task's CPU time, and none of
    them is what a Ray test is about."""
    return run_args(tasks, library, runs, "--steer-rounds", "0", *extra, candidates=1, rounds=1)


def expected(names: list[str]) -> dict[str, tuple[str, str]]:
    return {f"local/{name}": SCRIPTED[name] for name in names}


def accepted(names: list[str]) -> list[str]:
    return sorted(f"local_{n.replace('-', '_')}" for n in names if SCRIPTED[n][0] == "accepted")


def ray_env(base_url: str) -> dict[str, str]:
    return synth_env(base_url) | RAY_ENV


def on_ray(cluster: LocalRayCluster, *extra: str) -> list[str]:
    return ["--executor", "ray", "--ray-address", cluster.address, *extra]


def ray_tasks(run_dir: Path) -> list[dict[str, Any]]:
    """The ``ray_task`` events: which node (and process) ran which task, each attempt."""
    return [e for e in read_events(run_dir / "events.jsonl") if e["kind"] == "ray_task"]


def orphan_sandboxes(since: set[int]) -> list[tuple[int, str]]:
    """Sandbox jobs (new since ``since``) whose parent is gone: what a lost worker leaks."""
    out = []
    for p in all_processes():
        if p.pid in since or p.ppid != 1 or p.state == "Z":
            continue
        try:
            cmd = Path(f"/proc/{p.pid}/cmdline").read_bytes()
        except OSError:
            continue
        if KIT.encode() in cmd:
            out.append((p.pid, cmd.replace(b"\0", b" ").decode(errors="replace")[:160]))
    return out


def pids() -> set[int]:
    return {p.pid for p in all_processes()}


def assert_library_complete(lib: Path, tasks: list[str]) -> None:
    """Every bootcamp ``tasks`` should give once (record and module), nothing partial, hashes
    right."""
    manifest = json.loads((lib / "manifest.json").read_text())
    names = [r["name"] for r in manifest["bootcamps"]]
    assert sorted(names) == accepted(tasks), names
    assert len({r["task_id"] for r in manifest["bootcamps"]}) == len(names)
    modules = sorted(p.stem for p in (lib / "local").glob("*.py"))
    assert modules == accepted(tasks), modules
    assert not [p for p in lib.rglob("*") if p.name.endswith(".tmp")]  # no partial write
    library = Library(lib)
    library.read_manifest()  # validates
    for name in library.list_bootcamps():
        library.checked_code(name)  # the module is the one the record names, whole
        rec = library.record(name)
        if rec.checker_path:
            assert (lib / rec.checker_path).is_file()


def assert_no_run_processes(tmp: Path, since: set[int], cluster: LocalRayCluster) -> None:
    """Nothing of the test's runs is left: no process naming its folder, no orphaned sandbox
    job, no task graph still running on the cluster."""
    deadline = time.monotonic() + 20
    while True:
        named = [p.pid for p in all_processes() if p.pid not in since and p.state != "Z"
                 and str(tmp).encode() in _cmdline(p.pid)]
        running = [p.pid for p in cluster.processes() if p.name.startswith("ray::run_task")]
        orphans = orphan_sandboxes(since)
        if not (named or running or orphans) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert not named and not running and not orphans, (named, running, orphans)


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _timed(args: list[str], env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], float]:
    t0 = time.monotonic()
    res = synth(args, env)
    return res, time.monotonic() - t0


def test_ray_run_equals_the_local_run(ray_cluster: LocalRayCluster, tmp_path: Path):
    before = pids()
    want = expected(KINDS)
    tasks = write_tasks(tmp_path / "tasks", KINDS)
    fake = FakeEndpoint(tmp_path, "toy")
    try:
        env = ray_env(fake.base_url)
        # the two runs side by side (their own library and runs folder each): the local run
        # fills the time the Ray run's workers spend starting and waiting
        with ThreadPoolExecutor(2) as pool:
            local_run = pool.submit(_timed, lean_args(tasks, tmp_path / "lib-local",
                                                      tmp_path / "runs-local"), env)
            ray_run = pool.submit(_timed, lean_args(tasks, tmp_path / "lib", tmp_path / "runs",
                                                    *on_ray(ray_cluster)), env)
            local, local_s = local_run.result()
            res, ray_s = ray_run.result()
        assert local.returncode == 0, local.stderr[-3000:]
        assert res.returncode == 0, res.stderr[-3000:]
    finally:
        fake.close()
    print(f"\n{len(KINDS)} tasks, side by side: local executor {local_s:.1f}s, "
          f"ray executor {ray_s:.1f}s")
    assert ray_s < 240
    run_dir = only_run(tmp_path / "runs")
    assert outcomes(run_dir) == want == outcomes(only_run(tmp_path / "runs-local"))
    assert library_state(tmp_path / "lib") == library_state(tmp_path / "lib-local")
    assert_library_complete(tmp_path / "lib", KINDS)
    # the task graphs ran on both nodes, one Ray task each, checkpointed one file per task
    placed = ray_tasks(run_dir)
    assert Counter(e["task"] for e in placed) == Counter(list(want))
    assert {e["node"] for e in placed} == {ray_cluster.head.node_id, ray_cluster.worker.node_id}
    assert len(list((run_dir / "checkpoints").glob("*.sqlite"))) == len(want)
    assert not (run_dir / "checkpoints.sqlite").exists()
    # the event log and the summary have the local run's shape: `synth report` reads both
    events = read_events(run_dir / "events.jsonl")
    local_events = read_events(only_run(tmp_path / "runs-local") / "events.jsonl")
    assert {e["kind"] for e in local_events} <= {e["kind"] for e in events}
    assert events[0]["kind"] == "run_start" and events[-1]["kind"] == "run_end"
    calls = [e for e in events if e["kind"] == "llm_call"]
    summary = json.loads((run_dir / "summary.json").read_text())
    local_summary = json.loads((only_run(tmp_path / "runs-local") / "summary.json").read_text())
    assert set(summary) == set(local_summary)
    assert summary["llm_calls"] == len(calls)
    # the same coder and judge calls (how many solver calls end before the filter's early stop
    # cancels the rest depends on timing)
    local_calls = [e for e in local_events if e["kind"] == "llm_call"]
    assert Counter(e["tag"] for e in calls if e["role"] != "solver") == \
        Counter(e["tag"] for e in local_calls if e["role"] != "solver")
    assert summary["tokens_in"] == sum(e["tokens_in"] for e in calls) > 0
    transcripts = sum(len(f.read_text().splitlines()) for f in (run_dir / "transcripts").glob("*.jsonl"))
    assert transcripts == len(calls)
    # `synth report` reads the Ray run; a run of one executor is not continued by the other
    # (neither refusal writes to a run folder: the three commands run at once)
    local_id = only_run(tmp_path / "runs-local").name
    report, to_local, to_ray = synth_many([
        [sys.executable, "-m", "synth.cli", "report", run_dir.name, "--runs-dir", str(tmp_path / "runs")],
        [*lean_args(tasks, tmp_path / "lib", tmp_path / "runs"), "--resume", run_dir.name],
        [*lean_args(tasks, tmp_path / "lib-local", tmp_path / "runs-local"),
         "--resume", local_id, *on_ray(ray_cluster)],
    ], env)
    assert report.returncode == 0, report.stderr[-2000:]
    assert (run_dir / "report.html").exists()
    assert to_local.returncode == 2 and "--executor ray" in to_local.stderr
    assert to_ray.returncode == 2 and "local executor" in to_ray.stderr
    assert_no_run_processes(tmp_path, before, ray_cluster)


def _wait_for(proc: subprocess.Popen[str], runs: Path, predicate: Any, timeout: float = 180) -> Path:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        dirs = [d for d in runs.iterdir() if d.is_dir()] if runs.exists() else []
        if dirs and predicate(read_events(dirs[0] / "events.jsonl")):
            return dirs[0]
        if proc.poll() is not None:
            raise AssertionError(f"the run ended first: {proc.stderr.read()[-3000:]}")  # type: ignore[union-attr]
        time.sleep(0.05)
    raise AssertionError("the run never got there")


def _wait_until_no_task_runs(cluster: LocalRayCluster, workers: set[int],
                             timeout: float = 60) -> None:
    """Until no task graph runs on the cluster and the killed job's worker processes (``workers``:
    the pids its ``ray_task`` events name, and whatever runs a task now) are gone: a worker that
    Ray ends with its job retitles itself ``ray::IDLE`` while it exits, and a graph cut off in
    its setup could still write its first checkpoint then."""
    workers = workers | {p.pid for p in cluster.processes() if p.name.startswith("ray::run_task")}
    deadline = time.monotonic() + timeout
    while alive(workers) or any(p.name.startswith("ray::run_task") for p in cluster.processes()):
        assert time.monotonic() < deadline, "the killed driver's task graphs still run"
        time.sleep(0.2)


def _in_flight_on(node: str, events: list[dict[str, Any]]) -> set[str]:
    """Tasks whose latest attempt runs on ``node`` and that have not ended."""
    ended = {e["task"] for e in events if e["kind"] == "task_end"}
    where: dict[str, str] = {}
    for e in events:
        if e["kind"] == "ray_task":
            where[e["task"]] = e["node"]
    return {t for t, n in where.items() if n == node and t not in ended}


def test_killing_the_worker_node_mid_run_loses_nothing(ray_cluster: LocalRayCluster, tmp_path: Path):
    before = pids()
    want = expected(KINDS)
    tasks = write_tasks(tmp_path / "tasks", KINDS)
    fake = FakeEndpoint(tmp_path, "toy", "--delay", "0.15")
    worker = ray_cluster.worker.node_id
    try:
        args = lean_args(tasks, tmp_path / "lib", tmp_path / "runs", *on_ray(ray_cluster))
        t0 = time.monotonic()
        proc = subprocess.Popen(args, env=ray_env(fake.base_url), stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=REPO)
        try:
            # some model calls made, and tasks in flight on the worker node: kill it
            run_dir = _wait_for(proc, tmp_path / "runs", lambda ev: len(_in_flight_on(worker, ev)) >= 1
                                and sum(e["kind"] == "llm_call" for e in ev) >= 6)
            lost = _in_flight_on(worker, read_events(run_dir / "events.jsonl"))
            ray_cluster.kill_worker()
            killed_s = time.monotonic() - t0
            ray_cluster.restart_worker()
            _, err = proc.communicate(timeout=300)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
        elapsed = time.monotonic() - t0
        assert proc.returncode == 0, err[-3000:]
    finally:
        fake.close()
    print(f"\nworker node killed {killed_s:.1f}s into the run with {sorted(lost)} in flight there; "
          f"run done after {elapsed:.1f}s")
    assert elapsed < 300
    assert outcomes(run_dir) == want
    assert_library_complete(tmp_path / "lib", KINDS)
    # the lost tasks ran again elsewhere (a later attempt on another node), once to their end
    placed = ray_tasks(run_dir)
    for task in lost:
        nodes = [e["node"] for e in placed if e["task"] == task]
        assert len(nodes) >= 2 and nodes[0] == worker and nodes[-1] != worker, (task, nodes)
    events = read_events(run_dir / "events.jsonl")
    assert Counter(e["task"] for e in events if e["kind"] == "task_end") == Counter(list(want))
    commits = Counter(e["name"] for e in events if e["kind"] == "commit")
    assert set(commits) == set(accepted(KINDS))
    assert_no_run_processes(tmp_path, before, ray_cluster)


def test_a_killed_driver_is_resumed(ray_cluster: LocalRayCluster, tmp_path: Path):
    before = pids()
    names = list(SCRIPTED)  # all seven: the kill finds tasks ended, in flight and not started
    want = expected(names)
    tasks = write_tasks(tmp_path / "tasks", names)
    fake = FakeEndpoint(tmp_path, "toy", "--delay", "0.1")
    try:
        env = ray_env(fake.base_url)
        args = lean_args(tasks, tmp_path / "lib", tmp_path / "runs", *on_ray(ray_cluster))
        # two task graphs at once, so that the kill finds tasks ended, in flight and not started
        first_session = [*args, "--concurrency", "2"]
        proc = subprocess.Popen(first_session, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=REPO)
        try:
            # some tasks ended, some in flight, some not started
            run_dir = _wait_for(proc, tmp_path / "runs",
                                lambda ev: sum(e["kind"] == "task_end" for e in ev) >= 2)
        finally:
            os.killpg(proc.pid, signal.SIGKILL)  # the driver, as a lost machine loses it
            proc.wait(10)
        first = read_events(run_dir / "events.jsonl")
        ended_first = {e["task"] for e in first if e["kind"] == "task_end"}
        assert len(ended_first) < len(want)
        # what the checkpoint files hold once the job's workers are gone (Ray ends them when
        # its driver dies): threads cut off mid-graph must continue (resumed); threads whose
        # graph had ended, and the ones that never checkpointed, must not be resumed. The
        # snapshot waits until no task graph runs on the cluster any more: a worker Ray has not
        # yet ended could still write a checkpoint after a fixed pause (CI saw one under load)
        _wait_until_no_task_runs(ray_cluster, {e["pid"] for e in first if e["kind"] == "ray_task"})
        snaps = {t: asyncio.run(_snapshot(checkpoint_file(run_dir, t), t)) for t in want}
        # a thread is finished when no step is left *and* no task is pending: a kill after a
        # node's writes were saved, before the checkpoint that applies them, leaves ``next``
        # empty with the node in ``tasks`` (orchestrator.settled); such a thread continues
        midway = {t for t, snap in snaps.items() if snap.values and (snap.next or snap.tasks)}
        done_graph = {t for t, snap in snaps.items()
                      if snap.values and not snap.next and not snap.tasks}
        t0 = time.monotonic()
        # resumed at the default concurrency (an operational option, outside the run's config
        # hash): the rest of the tasks need not queue two at a time
        res = synth([*args, "--resume", run_dir.name], env, timeout=300)
        elapsed = time.monotonic() - t0
        assert res.returncode == 0, res.stderr[-3000:]
    finally:
        fake.close()
    print(f"\ndriver killed after {len(ended_first)} task(s) ended; the resumed run took {elapsed:.1f}s")
    assert elapsed < 240
    assert outcomes(run_dir) == want
    assert_library_complete(tmp_path / "lib", names)
    events = read_events(run_dir / "events.jsonl")
    second = events[len(first):]
    # the resumed session: interrupted threads continued, finished ones were not run again
    starts = [e for e in second if e["kind"] == "task_start"]
    print(f"at the kill: {len(midway)} thread(s) mid-graph, {len(done_graph)} ended")
    assert {e["task"] for e in starts if e["resumed"]} == midway
    assert not {e["task"] for e in starts} & (ended_first | done_graph)
    assert not {e["task"] for e in second if e["kind"] == "ray_task"} & ended_first  # no Ray task
    commits = Counter(e["name"] for e in events if e["kind"] == "commit")
    assert set(commits) == set(accepted(names))
    assert_no_run_processes(tmp_path, before, ray_cluster)


def test_the_endpoint_limit_holds_across_the_cluster(ray_cluster: LocalRayCluster, tmp_path: Path):
    before = pids()
    names = [f"accept-{i}" for i in range(6)]
    tasks = write_tasks(tmp_path / "tasks", names)
    endpoint = CountingEndpoint(tmp_path, delay_s=0.2)
    limit = 3
    try:
        args = lean_args(tasks, tmp_path / "lib", tmp_path / "runs", "--concurrency", "6",
                         "--llm-concurrency", str(limit), "--request-timeout", "30",
                         *on_ray(ray_cluster))
        t0 = time.monotonic()
        res = synth(args, ray_env(endpoint.base_url), timeout=300)
        elapsed = time.monotonic() - t0
        assert res.returncode == 0, res.stderr[-3000:]
        seen = endpoint.max_in_flight
    finally:
        endpoint.close()
    run_dir = only_run(tmp_path / "runs")
    assert outcomes(run_dir) == {f"local/{n}": ("accepted", "accepted") for n in names}
    events = read_events(run_dir / "events.jsonl")
    calls = [e for e in events if e["kind"] == "llm_call"]
    # both nodes called the endpoint, with more requests ready than the limit (they queued: how
    # many depends on how the gate's work spreads the calls out; a busy machine spreads them more)
    assert {e["node"] for e in ray_tasks(run_dir)} == {ray_cluster.head.node_id,
                                                       ray_cluster.worker.node_id}
    assert sum(1 for e in calls if e["queued_s"] > 0.05) >= limit
    # ...and never more than the limit were out at once (each node alone could have sent 6):
    # the cluster's limiter never granted more leases at once
    stats = next(e for e in events if e["kind"] == "ray_stats")["endpoints"]
    assert [s["max_held"] for s in stats.values()] == [limit]
    # every attempt of a call held a lease; the rest were calls the filter's early stop cancelled:
    # each gave its lease back at once, while this endpoint (it sleeps without noticing that the
    # client left) still counts it, so only abandoned requests can take its count over the limit
    granted = sum(s["granted"] for s in stats.values())
    abandoned = granted - sum(e["attempts"] for e in calls)
    assert abandoned >= 0
    print(f"\n{len(calls)} calls in {elapsed:.1f}s; at most {seen} in flight at the endpoint, "
          f"{abandoned} requests abandoned by the early stop (limit {limit})")
    assert 2 <= seen <= limit + abandoned
    assert elapsed < 240
    assert_no_run_processes(tmp_path, before, ray_cluster)
