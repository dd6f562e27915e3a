"""Benchmark `synth export`: cases per second with 1 and with 2 sandboxed method servers.

    .venv/bin/python bench/export.py [--per-bootcamp N] [--test-per-bootcamp M] [--library DIR]
                                     [--bootcamps NAME,...] [--engines] [--full]
                                     [--sandbox auto|process|bwrap|docker] [--repeat R]
                                     [--executor ray [--ray-address ADDR]]

The bootcamps exported are a named set (default: the shipped ones that need no engine,
``bench._common.DEFAULT_BOOTCAMPS``), 200 + 50 rows each; a line per export is printed as it
ends. ``--engines`` adds the GNU Go bootcamps in a row of their own, at their easiest level and
``--engine-rows`` rows each (a case there costs GNU Go self-play, 0.1 s and more, where the
others take milliseconds). ``--full`` is the earlier default: 400 + 100 rows. Defaults take
under a minute on 2 cores (40 s; 105 s with the load average at 12-15).

Both settings export the same library with the same seed from this one process, so the ratio is
measured on the same machine at the same moment; the train and test files of every run are
checked to be byte-identical. The cases are generated in sandboxed method servers (the CLI
process imports no bootcamp); ``--workers`` is the number of servers running at once.

``--executor ray`` instead sets the local parquet export (2 servers) beside ``--executor ray``
on a cluster: the one at ``--ray-address``, else a two-node loopback cluster of one CPU per node
started here (tests/ray/cluster.py), the same two CPUs as the local run. The Ray shards, sorted
by ``row_id``, are checked to be the local file's rows; the first (cold) Ray run is shown apart.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import DEFAULT_BOOTCAMPS, ENGINE_BOOTCAMPS, ENGINE_LEVEL, setup
from synth.training.export import ExportConfig, export


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-bootcamp", type=int, default=200)
    ap.add_argument("--test-per-bootcamp", type=int, default=50)
    ap.add_argument("--library", type=Path, default=None)
    ap.add_argument("--bootcamps", default=",".join(DEFAULT_BOOTCAMPS),
                    help="comma-separated names (default: the shipped ones that need no engine)")
    ap.add_argument("--engines", action="store_true",
                    help=f"also {', '.join(ENGINE_BOOTCAMPS)} (GNU Go), level {ENGINE_LEVEL}, "
                    "in a row of their own")
    ap.add_argument("--engine-rows", type=int, default=8, help="train rows per engine bootcamp "
                    "(and a quarter of that as test rows)")
    ap.add_argument("--full", action="store_true", help="400 + 100 rows per bootcamp")
    ap.add_argument("--sandbox", default="auto", choices=["auto", "process", "bwrap", "docker"])
    ap.add_argument("--repeat", type=int, default=2, help="runs per setting; best is reported")
    ap.add_argument("--executor", default="local", choices=["local", "ray"])
    ap.add_argument("--ray-address", default=None)
    args = ap.parse_args()
    if args.full:
        args.per_bootcamp, args.test_per_bootcamp = 400, 100
    args.names = [n.strip() for n in args.bootcamps.split(",") if n.strip()]
    slow = [n for n in args.names if n in ENGINE_BOOTCAMPS]
    if slow:
        raise SystemExit(f"{', '.join(slow)} need GNU Go: measure them with --engines, in a row "
                         "of their own")
    if args.executor == "ray":
        ray_main(args)
        return
    print(f"export of {len(args.names)} bootcamps, {args.per_bootcamp}+{args.test_per_bootcamp} "
          f"rows each, with 1 and 2 method servers, best of {args.repeat}")
    workers_rows(args, args.names, args.per_bootcamp, args.test_per_bootcamp, None, args.repeat)
    if args.engines:
        test_rows = max(1, args.engine_rows // 4)
        print(f"\nengine-backed: {', '.join(ENGINE_BOOTCAMPS)} at level {ENGINE_LEVEL}, "
              f"{args.engine_rows}+{test_rows} rows each, one run per setting")
        workers_rows(args, list(ENGINE_BOOTCAMPS), args.engine_rows, test_rows, ENGINE_LEVEL, 1)


def workers_rows(args: Any, names: list[str], per: int, test: int, level: str | None,
                 repeat: int) -> None:
    """Export ``names`` with 1 and 2 servers, ``repeat`` times each; print the rates."""
    results: dict[int, float] = {}
    servers: dict[int, int] = {}
    digests: set[str] = set()
    rows = 0
    backend = ""
    with tempfile.TemporaryDirectory() as tmp:
        for workers in (1, 2):
            best = float("inf")
            for r in range(repeat):
                out = Path(tmp) / f"w{workers}_{r}"
                summary = export(
                    ExportConfig(
                        out=out,
                        library=args.library,
                        bootcamps=names,
                        level=level,
                        per_bootcamp=per,
                        test_per_bootcamp=test,
                        workers=workers,
                        seed=1,
                        sandbox=args.sandbox,
                    )
                )
                best = min(best, summary.elapsed_s)
                rows = summary.rows["train"] + summary.rows["test"]
                backend, servers[workers] = summary.backend, summary.servers_started
                digest = hashlib.sha256()
                for split in ("train.jsonl", "test.jsonl"):
                    digest.update((out / split).read_bytes())
                digests.add(digest.hexdigest())
                print(f"  {workers} server(s), run {r + 1}: {rows} rows in "
                      f"{summary.elapsed_s:.2f}s ({rows / summary.elapsed_s:.0f} rows/s)")
            results[workers] = rows / best
    print(f"rows per run: {rows} ({len(summary.per_bootcamp)} bootcamps), backend: {backend}")
    print(f"{'workers':>8} {'cases/s':>10} {'servers started':>16}")
    for workers, rate in results.items():
        print(f"{workers:>8} {rate:>10.1f} {servers[workers]:>16}")
    print(f"speed-up 2 vs 1 server: {results[2] / results[1]:.2f}x")
    print(f"identical output in all {2 * repeat} runs: {len(digests) == 1} "
          f"(sha256 of train+test: {sorted(digests)[0][:16]})")


def ray_main(args: argparse.Namespace) -> None:
    import pyarrow.parquet as pq

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "ray"))
    from cluster import LocalRayCluster

    from synth.training.export_ray import ROW_ID, RayExportSummary

    cluster = None
    if args.ray_address is None:
        cluster = LocalRayCluster(num_cpus=1).start()
        cluster.connect()
    times: dict[str, list[float]] = {"local": [], "ray": []}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for r in range(args.repeat):
                for executor in ("local", "ray"):
                    out = Path(tmp) / f"{executor}_{r}"
                    summary = export(ExportConfig(
                        out=out, library=args.library, bootcamps=args.names,
                        per_bootcamp=args.per_bootcamp,
                        test_per_bootcamp=args.test_per_bootcamp, workers=2, seed=1,
                        format="parquet", sandbox=args.sandbox, executor=executor,
                        ray_address=args.ray_address))
                    times[executor].append(summary.elapsed_s)
                    rows = summary.rows["train"] + summary.rows["test"]
                    print(f"  {executor} run {r + 1}: {rows} rows in {summary.elapsed_s:.2f}s")
                    if isinstance(summary, RayExportSummary):
                        nodes, tasks, shards = len(summary.task_nodes), summary.tasks, summary.shards
                        for split in ("train", "test"):
                            got = sorted(pq.read_table(out / split).to_pylist(), key=lambda x: x[ROW_ID])
                            for row in got:
                                del row[ROW_ID]
                            want = pq.read_table(Path(tmp) / f"local_{r}" / f"{split}.parquet")
                            assert got == want.to_pylist(), f"run {r}: {split} rows differ"
    finally:
        if cluster is not None:
            cluster.stop()
    print(f"rows per run: {rows} ({len(summary.per_bootcamp)} bootcamps), generated "
          f"{sum(s.generated for s in summary.per_bootcamp.values())}, backend: {summary.backend}")
    print(f"ray: {tasks} generation tasks on {nodes} node(s), shards "
          f"{ {k: len(v) for k, v in shards.items()} }")
    print(f"{'executor':>9} {'best s':>8} {'rows/s':>8}  all runs (s)")
    for executor, ts in times.items():
        print(f"{executor:>9} {min(ts):>8.2f} {rows / min(ts):>8.0f}  "
              + " ".join(f"{t:.2f}" for t in ts))
    print(f"ray / local (best): {min(times['ray']) / min(times['local']):.2f}x; "
          f"first ray run (cold workers) {times['ray'][0]:.2f}s")
    print(f"ray rows == local rows (sorted by {ROW_ID}) in all {args.repeat} runs: True")


if __name__ == "__main__":
    main()
