"""Re-measure MANIFEST.json's "today" fields: run the gate on every module of the corpus.

    python tests/defects/subtle/_measure_today.py [--gate-src DIR] [--commit SHA]

Runs ``synth check MODULE --sandbox process --json`` (plus ``--reference`` where the module has
one) and records, per module, whether the gate rejected it and which hard checks failed.
``--gate-src`` puts an exported copy of the ``synth`` package first on PYTHONPATH, to measure an
older gate (the recorded numbers are for commit b0da33e, before issue 10):

    git archive b0da33e synth | tar -x -C /tmp/gate_b0da33e
    python tests/defects/subtle/_measure_today.py --gate-src /tmp/gate_b0da33e --commit b0da33e
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLI = "import sys; from synth.cli import main; sys.argv[0] = 'synth'; main()"


def measure(entry: dict, gate_src: str | None) -> dict:
    cmd = [sys.executable, "-c", CLI, "check", str(HERE / entry["files"]["module"]),
           "--sandbox", "process", "--json"]
    if "reference" in entry["files"]:
        cmd += ["--reference", str(HERE / entry["files"]["reference"])]
    env = dict(os.environ)
    if gate_src:
        env["PYTHONPATH"] = gate_src
    run = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd="/tmp", timeout=300)
    report = json.loads(run.stdout)
    failed = sorted(c["name"] for c in report["checks"]
                    if c["hard"] and c["status"] not in ("passed", "skipped"))
    return {"caught": not report["passed"], "failed_checks": failed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gate-src", default=None)
    parser.add_argument("--commit", default=None)
    args = parser.parse_args()
    path = HERE / "MANIFEST.json"
    doc = json.loads(path.read_text())
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda e: measure(e, args.gate_src), doc["modules"]))
    for entry, today in zip(doc["modules"], results, strict=True):
        entry["today"] = today
        print(f"{entry['module']:32} caught={today['caught']!s:5} {today['failed_checks']}")
    if args.commit:
        doc["today_gate"]["commit"] = args.commit
    path.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
