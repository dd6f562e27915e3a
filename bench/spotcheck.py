"""Benchmark the export's spot-check (issue 22: production audits itself): `synth export` of
the same bootcamps with and without it, side by side in one process, alternating runs.

    .venv/bin/python bench/spotcheck.py [--per-bootcamp N] [--test-per-bootcamp M]
                                        [--sandbox auto|process|bwrap|docker] [--repeat R]

The library is a copy of the shipped one (a failed spot-check would mark a record
quarantined); engine-backed bootcamps (GNU Go) are left out, their case generation dominates
and is not what is measured here. Prints each run as it goes, then the median of each
setting, the ratio and the spot-check's own seconds; the rows written are checked to be the
same with and without it.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import setup  # noqa: E402
from synth.library import Library  # noqa: E402
from synth.training.export import ExportConfig, export  # noqa: E402


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-bootcamp", type=int, default=1000)
    ap.add_argument("--test-per-bootcamp", type=int, default=200)
    ap.add_argument("--sandbox", default="process", choices=["auto", "process", "bwrap", "docker"])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lib_dir = Path(tmp) / "library"
        shutil.copytree(ROOT / "generated_bootcamps", lib_dir,
                        ignore=shutil.ignore_patterns("__pycache__"))
        lib = Library(lib_dir)
        names = [n for n in lib.list_bootcamps() if "ENGINES" not in lib.code(n)]
        print(f"{len(names)} bootcamps, {args.per_bootcamp}+{args.test_per_bootcamp} rows each, "
              f"{args.sandbox} backend", flush=True)
        times: dict[bool, list[float]] = {False: [], True: []}
        spot_s: list[float] = []
        digests: dict[bool, str] = {}
        for r in range(args.repeat):
            for on in (False, True) if r % 2 == 0 else (True, False):
                out = Path(tmp) / f"out-{on}-{r}"
                cfg = ExportConfig(out=out, library=lib_dir, bootcamps=names, sandbox=args.sandbox,
                                   per_bootcamp=args.per_bootcamp,
                                   test_per_bootcamp=args.test_per_bootcamp, spot_check=on)
                t0 = time.perf_counter()
                summary = export(cfg)
                dt = time.perf_counter() - t0
                times[on].append(dt)
                if on:
                    spot_s.append(summary.spot_check_s)
                    assert not summary.quarantined, summary.quarantined
                digest = hashlib.sha256(b"".join(
                    (out / f"{s}.jsonl").read_bytes() for s in ("train", "test"))).hexdigest()
                assert digests.setdefault(on, digest) == digest
                print(f"  run {r + 1} spot-check {'on ' if on else 'off'}: {dt:6.2f}s"
                      + (f" (spot-check {summary.spot_check_s:.2f}s, {summary.spot_checked} "
                         "rows)" if on else ""), flush=True)
        assert digests[True] == digests[False], "the spot-check changed the rows"
        off, on_ = statistics.median(times[False]), statistics.median(times[True])
        print(f"median: off {off:.2f}s, on {on_:.2f}s; ratio on/off {on_ / off:.3f} "
              f"(+{100 * (on_ / off - 1):.1f} %); spot-check alone {statistics.median(spot_s):.2f}s "
              f"= {100 * statistics.median(spot_s) / off:.1f} % of the export")


if __name__ == "__main__":
    main()
