"""Benchmark `synth export`: cases per second with 1 and with 2 worker processes, side by side.

    .venv/bin/python bench/export.py [--per-bootcamp N] [--test-per-bootcamp M] [--library DIR]

Both runs export the same library with the same seed in this one process, so the ratio is
measured on the same machine at the same moment; the outputs are also checked to be identical.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from synth.export import ExportConfig, export


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-bootcamp", type=int, default=400)
    ap.add_argument("--test-per-bootcamp", type=int, default=100)
    ap.add_argument("--library", type=Path, default=None)
    ap.add_argument("--repeat", type=int, default=2, help="runs per setting; best is reported")
    args = ap.parse_args()
    results: dict[int, float] = {}
    digests: dict[int, bytes] = {}
    rows = 0
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
                    )
                )
                best = min(best, summary.elapsed_s)
                rows = summary.rows["train"] + summary.rows["test"]
                digests[workers] = (out / "train.jsonl").read_bytes()
            results[workers] = rows / best
    print(f"rows per run: {rows} ({len(summary.per_bootcamp)} bootcamps)")
    print(f"{'workers':>8} {'cases/s':>10}")
    for workers, rate in results.items():
        print(f"{workers:>8} {rate:>10.0f}")
    print(f"speed-up 2 vs 1 process: {results[2] / results[1]:.2f}x")
    print(f"identical output with 1 and 2 processes: {digests[1] == digests[2]}")


if __name__ == "__main__":
    main()
