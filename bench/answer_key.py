"""What the key check costs per compiled candidate, and what it catches.

Runs the whole gate on the compiled bootcamps of tests/answer_key/key_tasks.py: for each task,
an honest key with no voter, with one other solution and with two (the time the key check adds
per candidate: its own ``elapsed_s`` and the gate's total), and every trojan of the file with
one honest solution, and with a judge-style solver, as its voter (caught or not).

    .venv/bin/python bench/answer_key.py [--backend process|bwrap|docker] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "answer_key"))

import key_tasks as k  # noqa: E402

from bench._common import setup  # noqa: E402
from synth.gate import CheckReport, Voter, run_checks  # noqa: E402
from synth.sandbox import get_backend  # noqa: E402

HONEST = {"weights": k.WEIGHTS_HONEST, "stretch": k.STRETCH_HONEST, "tower": k.TOWER_HONEST}
TROJANS = [("weights", "memorised outputs", k.WEIGHTS_MEMO),
           ("weights", "32-bit accumulator", k.WEIGHTS_WRAP),
           ("weights", "rare branch (total % 13)", k.WEIGHTS_RARE),
           ("stretch", "forgets the final block", k.STRETCH_LAST_RUN)]


def gate(name: str, key: str, voters: list[Voter], backend: str) -> CheckReport:
    return run_checks(k.module(name, key), backend=backend, voters=voters,
                      example_inputs=k.examples(name))


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="process")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    backend = get_backend(args.backend)
    print(f"backend: {backend.name}")
    print("task     voters  key check s (median)  gate total s (median)  verified by")
    for name, honest in HONEST.items():
        for n in (0, 1, 2):
            voters = [Voter(c, f"solution {i}") for i, c in enumerate(honest[1:1 + n], 2)]
            key_s, total_s, said = [], [], ""
            for _ in range(args.repeat):
                report = gate(name, honest[0], voters, backend)
                check = report.get("key")
                key_s.append(check.elapsed_s if check else 0.0)
                total_s.append(report.timings.get("total_s", 0.0))
                said = report.key_verified_by or ""
            print(f"{name:8} {n:6}  {statistics.median(key_s):20.2f}  "
                  f"{statistics.median(total_s):21.2f}  {said}")
    caught = tried = 0
    for name, what, trojan in TROJANS:
        for kind in ("solution", "solver"):
            voter = Voter(HONEST[name][1], "the judge's solver" if kind == "solver"
                          else "solution 2", kind=kind)  # type: ignore[arg-type]
            report = gate(name, trojan, [voter], backend)
            check = report.get("key")
            hit = check is not None and check.finding == "key_disagrees"
            caught += hit
            tried += 1
            print(f"trojan {name}/{what} vs {kind}: {'caught' if hit else 'MISSED'} "
                  f"({check.reason[:90] if check else 'no key check'})")
    print(f"caught {caught} of {tried}")


if __name__ == "__main__":
    main()
