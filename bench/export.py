"""Benchmark `synth export`: cases per second with 1 and with 2 sandboxed method servers.

    .venv/bin/python bench/export.py [--per-bootcamp N] [--test-per-bootcamp M] [--library DIR]
                                     [--sandbox auto|process|bwrap|docker] [--repeat R]

Both settings export the same library with the same seed from this one process, so the ratio is
measured on the same machine at the same moment; the train and test files of every run are
checked to be byte-identical. The cases are generated in sandboxed method servers (the CLI
process imports no bootcamp); ``--workers`` is the number of servers running at once.
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
from pathlib import Path

from synth.export import ExportConfig, export


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-bootcamp", type=int, default=400)
    ap.add_argument("--test-per-bootcamp", type=int, default=100)
    ap.add_argument("--library", type=Path, default=None)
    ap.add_argument("--sandbox", default="auto", choices=["auto", "process", "bwrap", "docker"])
    ap.add_argument("--repeat", type=int, default=2, help="runs per setting; best is reported")
    args = ap.parse_args()
    results: dict[int, float] = {}
    servers: dict[int, int] = {}
    digests: set[str] = set()
    rows = 0
    backend = ""
    with tempfile.TemporaryDirectory() as tmp:
        for workers in (1, 2):
            best = float("inf")
            for r in range(args.repeat):
                out = Path(tmp) / f"w{workers}_{r}"
                summary = export(
                    ExportConfig(
                        out=out,
                        library=args.library,
                        per_bootcamp=args.per_bootcamp,
                        test_per_bootcamp=args.test_per_bootcamp,
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
            results[workers] = rows / best
    print(f"rows per run: {rows} ({len(summary.per_bootcamp)} bootcamps), backend: {backend}")
    print(f"{'workers':>8} {'cases/s':>10} {'servers started':>16}")
    for workers, rate in results.items():
        print(f"{workers:>8} {rate:>10.0f} {servers[workers]:>16}")
    print(f"speed-up 2 vs 1 server: {results[2] / results[1]:.2f}x")
    print(f"identical output in all {2 * args.repeat} runs: {len(digests) == 1} "
          f"(sha256 of train+test: {sorted(digests)[0][:16]})")


if __name__ == "__main__":
    main()
