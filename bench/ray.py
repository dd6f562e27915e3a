"""Benchmark `synth run --executor ray` against the local executor: the same scripted run of T
tasks on this one machine, side by side, and the Ray overhead per task.

    .venv/bin/python bench/ray.py [--tasks 32] [--concurrency 8] [--latency 0.5] [--samples 16]
                                  [--gate-cpu 0.0] [--node-cpus N] [--library-sizes 0,200]
                                  [--full]

The scripted run is bench/pipeline.py's: a fake OpenAI-compatible endpoint in its own process
answers every call after a fixed latency L; every task drafts one candidate (rounds=0) and the
filter asks the solver K times; the real LangGraph graph, checkpoints, event log, transcripts and
library commits run, and the gate and the filter's sandbox are stand-ins (``--gate-cpu S``: the
gate burns S seconds of CPU in a child process, like a sandboxed check suite; 0: instant). C is
both the task concurrency and the per-endpoint model-call limit (cluster-wide under Ray).

Ray runs on a local cluster started as the tests start it (tests/ray/cluster.py: a head and a
worker node, loopback only), this process its driver. The Ray executor runs
twice: *cold* (the job's worker processes start and import the pipeline) and *warm* (a second
run in the same job: the worker processes are reused). Printed: wall time and wall / ideal for
each, the ratio to the local executor, and the overhead per task: (Ray wall - local wall) x C / T,
i.e. what each task's own duration grew by, in seconds and as a share of the local task time.
Then the commit rate into libraries of ``--library-sizes`` bootcamps, directly and through the
writer actor. Defaults take about 4 minutes on 2 cores (the three runs, the cluster's start and
the libraries); ``--full`` measures the commit rate at 1000 bootcamps as before (5 minutes more:
the library is built one commit at a time).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# this file is named ray.py: its folder must not shadow the ray package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests" / "ray"))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

_spec = importlib.util.spec_from_file_location("bench_pipeline", HERE / "pipeline.py")
assert _spec is not None and _spec.loader is not None
pipeline = importlib.util.module_from_spec(_spec)
sys.modules["bench_pipeline"] = pipeline
_spec.loader.exec_module(pipeline)

import ray  # noqa: E402
from cluster import LocalRayCluster  # noqa: E402
from fakes.scenarios import TOY_SUM  # noqa: E402
from pydantic import SecretStr  # noqa: E402

from bench._common import setup  # noqa: E402
from synth.library import Library  # noqa: E402
from synth.models.llm import LLMClient, ModelSpec  # noqa: E402
from synth.runs import Run, RunConfig, read_events  # noqa: E402
from synth.tasks import Provenance, TaskDescription, TaskKind  # noqa: E402
from synth.workflow.orchestrator import execute, ledger_sink  # noqa: E402
from synth.workflow.ray_actors import EndpointLimiter, LibraryWriter  # noqa: E402
from synth.workflow.ray_executor import (  # noqa: E402
    ClusterLimits,
    LibraryProxy,
    RayOptions,
    execute_ray,
)

NODES = 2  # tests/ray/cluster.py's: a head and a worker node
BURN = "import time\nend = time.process_time() + float(__import__('sys').argv[1])\n" \
       "while time.process_time() < end: pass\n"


def burning_gate(seconds: float) -> Any:
    """The stand-in gate, spending ``seconds`` of CPU in a child process first."""

    def gate(code: str, **kw: Any) -> Any:
        subprocess.run([sys.executable, "-c", BURN, str(seconds)], check=True)
        return pipeline.instant_gate(code, **kw)

    return gate


def tasks_of(n: int, tag: str) -> list[TaskDescription]:
    return [TaskDescription(id=f"bench/{tag}-{i}", source="bench", kind=TaskKind.DESCRIPTION,
                            title=f"Task {i}", statement="Add numbers.",
                            provenance=Provenance(dataset="bench", location=str(i)))
            for i in range(n)]


def durations(run_dir: Path) -> list[float]:
    """Each task's duration, task_start to task_end (its last attempt's start under Ray)."""
    start: dict[str, float] = {}
    out = []
    for e in read_events(run_dir / "events.jsonl"):
        if e["kind"] == "task_start":
            start.setdefault(e["task"], e["ts"])
        elif e["kind"] == "task_end" and e["task"] in start:
            out.append(e["ts"] - start[e["task"]])
    return out


def cpu_of(sessions: set[int]) -> float:
    """CPU seconds (user + system) used so far by the live processes of ``sessions``."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[3]) in sessions:
            total += int(fields[11]) + int(fields[12])
    return total / tick


def one_run(tmp: Path, spec: ModelSpec, args: argparse.Namespace, tag: str,
            ray_opts: RayOptions | None, cluster: LocalRayCluster | None = None) -> dict[str, Any]:
    T, C = args.tasks, args.concurrency
    cfg = RunConfig(source="bench", coder=spec, solver=spec, library=str(tmp / f"lib-{tag}"),
                    candidates=1, rounds=0, samples=args.samples, concurrency=C,
                    llm_concurrency=C, sandbox="process", sandbox_slots=C,
                    dedup=False)  # the fake coder writes one bootcamp for every task
    run = Run.create(tmp / "runs", cfg, run_id=f"bench-{tag}")
    llm = LLMClient({"coder": spec, "solver": spec}, max_concurrency=C,
                    on_record=ledger_sink(run), transcript_dir=run.root / "transcripts")
    gate = burning_gate(args.gate_cpu) if args.gate_cpu > 0 else pipeline.instant_gate
    overrides = {"gate": gate, "acceptance_filter": pipeline.instant_filter}
    tasks = tasks_of(T, tag)
    sessions = cluster.sessions() if cluster is not None else set()
    cpu0, wall0, cl0 = time.process_time(), time.perf_counter(), cpu_of(sessions)
    if ray_opts is None:
        summary = asyncio.run(execute(run, tasks, llm=llm, library=Library(cfg.library),
                                      overrides=overrides))
    else:
        summary = asyncio.run(execute_ray(run, tasks, llm=llm, library=Library(cfg.library),
                                          overrides=overrides, options=ray_opts))
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    cluster_cpu = cpu_of(sessions) - cl0  # the worker and actor processes (those still alive)
    accepted = summary.counts().get("accepted", 0)
    events = read_events(run.root / "events.jsonl")
    if accepted != T:
        first = next((e.get("error") for e in events if e["kind"] == "task_error"), None)
        raise SystemExit(f"{tag}: only {accepted}/{T} accepted: {summary.counts()} "
                         f"{summary.reasons()}" + (f"; first task error: {first}" if first else ""))
    stats = next((e["tasks"] for e in events if e["kind"] == "ray_stats"), None)
    return {"wall": wall, "cpu": cpu, "cluster_cpu": cluster_cpu, "calls": summary.llm_calls,
            "task_s": statistics.mean(durations(run.root)), "ray": stats}


def lease_round_trip(n: int) -> float:
    """Mean seconds an uncontended model call spends on its cluster-wide lease (acquire and
    release of an endpoint limiter actor on this node), from this process."""
    limiter = ray.remote(EndpointLimiter).options(max_concurrency=1000).remote(4, 60.0)
    limits = ClusterLimits({"e": limiter}, ray.get_runtime_context().get_node_id())

    async def cycles() -> float:
        async with limits("e"):  # the actor's start is not counted
            pass
        t0 = time.perf_counter()
        for _ in range(n):
            async with limits("e"):
                pass
        return (time.perf_counter() - t0) / n

    try:
        return asyncio.run(cycles())
    finally:
        ray.kill(limiter)


def commit_rates(tmp: Path, sizes: list[int]) -> list[tuple[int, float, float]]:
    """(library size, seconds per commit directly, seconds per commit through the writer
    actor with the commit node's calls: has_task, unique_name, commit, write_file)."""
    out = []
    for size in sizes:
        root = tmp / f"commit-lib-{size}"
        root.mkdir()
        direct = Library(root)
        for i in range(size):
            _commit(direct, direct, i)
        t0 = time.perf_counter()
        for i in range(size, size + 10):
            _commit(direct, direct, i)
        per_direct = (time.perf_counter() - t0) / 10
        writer = ray.remote(LibraryWriter).options(num_cpus=0).remote(str(root))
        proxy = LibraryProxy(writer, str(root), holder="bench")
        ray.get(writer.ping.remote())
        t0 = time.perf_counter()
        for i in range(size + 10, size + 20):
            _commit(proxy, proxy, i)
        per_actor = (time.perf_counter() - t0) / 10
        ray.kill(writer)
        out.append((size, per_direct, per_actor))
        print(f"  commit at library size {size}: {1000 * per_direct:.1f} ms direct, "
              f"{1000 * per_actor:.1f} ms via the writer actor", flush=True)
    return out


def _commit(lib: Any, names: Any, i: int) -> None:
    """What the commit node does with the library for one accepted bootcamp."""
    code = TOY_SUM.replace("Toy bootcamp", f"Toy bootcamp {i}")
    lib.has_task("bench", f"bench/c-{i}")
    name = names.unique_name(f"bench_c_{i}")
    lib.commit(name=name, code=code, class_name="ToySumBootcamp", source="bench",
               task_id=f"bench/c-{i}", origin="generated", pass_rate=0.5, samples=16)
    lib.write_file(f"bench/checkers/{name}.py", "def check(identity, answer):\n    return True\n")


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", type=int, default=32)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--latency", type=float, default=0.5)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--gate-cpu", type=float, default=0.0)
    ap.add_argument("--library-sizes", type=lambda v: [int(x) for x in v.split(",")],
                    default=[0, 200], help="library sizes at which the commit rate is measured "
                    "(default 0,200; building a library costs more per commit as it grows: the "
                    "1000 of --full take 5 minutes)")
    ap.add_argument("--full", action="store_true", help="library sizes 0,1000")
    ap.add_argument("--node-cpus", type=int, default=0,
                    help="logical CPUs per node (default: enough for C task graphs); Ray starts "
                    "at most that many worker processes at once on a node")
    args = ap.parse_args()
    if args.full:
        args.library_sizes = [0, 1000]
    T, C, L, K = args.tasks, args.concurrency, args.latency, args.samples
    ray.cloudpickle.register_pickle_by_value(pipeline)  # the stand-ins go to the workers
    opts = RayOptions()
    # logical CPUs per node so that C task graphs fit on the cluster at once
    per_node = args.node_cpus or max(1, math.ceil(C * opts.task_cpus / NODES))
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        url_file = tmp / "url"
        server = subprocess.Popen([sys.executable, "-c", pipeline.SERVER, str(L), str(url_file),
                                   str(REPO / "tests")], start_new_session=True)
        cluster = LocalRayCluster(num_cpus=per_node)
        try:
            while not url_file.exists() or not url_file.read_text():
                time.sleep(0.05)
            spec = ModelSpec(model="fake", base_url=url_file.read_text(), api_key=SecretStr("k"),
                             timeout_s=60)
            print(f"T={T} tasks, C={C}, L={L}s, K={K}, gate CPU {args.gate_cpu}s; runs: local, "
                  "ray cold, ray warm", flush=True)
            results["local"] = one_run(tmp, spec, args, "local", None)
            print(f"  local    {results['local']['wall']:7.2f}s", flush=True)
            t0 = time.perf_counter()
            cluster.start()
            cluster.connect()
            start_s = time.perf_counter() - t0
            print(f"  cluster of {NODES} nodes x {per_node} CPU up in {start_s:.1f}s", flush=True)
            for tag in ("cold", "warm"):
                results[f"ray {tag}"] = one_run(tmp, spec, args, tag, opts, cluster)
                print(f"  ray {tag} {results[f'ray {tag}']['wall']:7.2f}s", flush=True)
            leases = lease_round_trip(200)
            print(f"  lease round trip {1000 * leases:.2f} ms", flush=True)
            commits = commit_rates(tmp, args.library_sizes)
        finally:
            cluster.stop()
            server.kill()
            server.wait()
    calls = results["local"]["calls"]
    ideal = calls * L / C
    local = results["local"]
    print(f"tasks T={T}  concurrency C={C}  latency L={L}s  K={K}  gate CPU {args.gate_cpu}s  "
          f"calls={calls}  ideal wall (calls x L / C) {ideal:.2f}s")
    print(f"Ray cluster: {NODES} nodes x {per_node} CPU on this machine "
          f"(started and joined in {start_s:.1f}s, not counted below)")
    print(f"{'':10} {'wall s':>8} {'/ideal':>7} {'/local':>7} {'task s':>7} "
          f"{'overhead/task':>14} {'CPU/task: driver':>16} {'cluster':>8}")
    for name, r in results.items():
        over = (r["wall"] - local["wall"]) * C / T
        share = r["wall"] / local["wall"] - 1
        print(f"{name:10} {r['wall']:8.2f} {r['wall'] / ideal:7.3f} {r['wall'] / local['wall']:7.3f} "
              f"{r['task_s']:7.2f} {over:+8.3f}s {share:+6.1%} {1000 * r['cpu'] / T:13.1f}ms {1000 * r['cluster_cpu'] / T:6.0f}ms")
    print(f"cluster-wide lease per model call (uncontended, acquire + release): "
          f"{1000 * leases:.2f} ms")
    for size, per_direct, per_actor in commits:
        print(f"commit into a library of {size} bootcamps: {1000 * per_direct:.1f} ms directly, "
              f"{1000 * per_actor:.1f} ms through the writer actor "
              f"({1 / per_actor:.1f} commits/s)")
    print("Ray task timings, mean / max s: waited (submitted -> started), setup (client, "
          "context, checkpointer, graph), graph, drain (its events written), returned (-> driver)")
    for name, r in results.items():
        if r["ray"]:
            parts = "  ".join(f"{k.removesuffix('_s')} {v['mean']:.3f}/{v['max']:.3f}"
                              for k, v in r["ray"].items() if k != "count")
            print(f"{name:10} {parts}")


if __name__ == "__main__":
    main()
