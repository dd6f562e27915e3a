"""Run every bench script with its default arguments, one after the other, and print each one's
wall time (and its exit status) as it ends, then a Markdown table of them all.

    .venv/bin/python bench/walltimes.py [--only NAME ...] [--skip NAME ...] [--timeout 900]
                                        [--out docs/bench-times.md-table.txt]

A script's own output goes to ``<tmp>/NAME.log`` (the path is printed); a script that runs past
``--timeout`` seconds is stopped (SIGTERM, then SIGKILL after 15 s: each script cleans up on
SIGTERM) and its row says so. The load average at the start and the end of each script is in
its row: a figure taken on a busy machine says it was.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._common import setup, stop_child

HERE = Path(__file__).resolve().parent
#: how each script is started (``sleepers`` and ``canaries`` import bench as a package)
MODULE_STYLE = {"sleepers", "canaries"}
#: scripts that only measure something else when asked (a real model, an hour)
NOT_BY_DEFAULT = {"walltimes"}


def scripts() -> list[str]:
    return sorted(p.stem for p in HERE.glob("*.py")
                  if not p.stem.startswith("_") and p.stem not in NOT_BY_DEFAULT)


def command(name: str) -> list[str]:
    if name in MODULE_STYLE:
        return [sys.executable, "-m", f"bench.{name}"]
    return [sys.executable, str(HERE / f"{name}.py")]


def main(argv: list[str] | None = None) -> int:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--skip", nargs="*", default=[])
    ap.add_argument("--timeout", type=float, default=900.0)
    ap.add_argument("--out", type=Path, default=None, help="also write the table here")
    args = ap.parse_args(argv)
    names = [n for n in scripts() if (args.only is None or n in args.only) and n not in args.skip]
    logs = Path(tempfile.mkdtemp(prefix="bench-walltimes-"))
    print(f"{len(names)} scripts, one at a time; their output in {logs}/NAME.log", flush=True)
    rows = []
    for name in names:
        load0 = os.getloadavg()[0]
        log = logs / f"{name}.log"
        t0 = time.monotonic()
        rc: int | None
        with log.open("w") as fh:
            proc = subprocess.Popen(command(name), stdout=fh, stderr=subprocess.STDOUT,
                                    cwd=str(HERE.parent), start_new_session=True)
            try:
                rc = proc.wait(args.timeout)
            except subprocess.TimeoutExpired:
                stop_child(proc)
                rc = None
            except BaseException:
                stop_child(proc)
                raise
        wall = time.monotonic() - t0
        load1 = os.getloadavg()[0]
        status = "ok" if rc == 0 else ("stopped at the timeout" if rc is None else f"exit {rc}")
        rows.append((name, wall, status, load0, load1))
        print(f"{name:14s} {wall:7.1f} s  {status}  (load {load0:.1f} -> {load1:.1f})", flush=True)
    table = ["| script | wall time (s) | status | load average at start -> end |",
             "| --- | ---: | --- | --- |"]
    table += [f"| `{n}.py` | {w:.0f} | {s} | {a:.1f} -> {b:.1f} |" for n, w, s, a, b in rows]
    text = "\n".join(table) + f"\n\nin all {sum(r[1] for r in rows):.0f} s\n"
    print("\n" + text, flush=True)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0 if all(r[2] == "ok" for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
