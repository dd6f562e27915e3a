"""Differential verification on the issue-10 corpus, with and without independent checkers.

Runs the whole gate on every module of tests/defects/subtle (43 subtle defects, 14 clean
controls) twice in one run -- with each module's own checker, and without -- and prints, side
by side: defects rejected, clean bootcamps rejected, the median and maximum suite time per
candidate, and per defect kind how many were caught. Target (issue 10): with checkers, >= 95 %
of the defects rejected, no clean one, and <= 3 s median per candidate.

    .venv/bin/python bench/differential.py [--backend process] [--workers 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from synth.gate.corpus import run_corpus  # noqa: E402

CORPUS = REPO / "tests" / "defects" / "subtle"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="process")
    ap.add_argument("--workers", type=int, default=1, help="candidates checked at once")
    args = ap.parse_args()
    runs = {}
    for label, checkers in (("with checkers", True), ("without checkers", False)):
        runs[label] = run_corpus(CORPUS, args.backend, checkers=checkers, workers=args.workers)
    print(f"gate on {CORPUS.relative_to(REPO)} ({args.backend} backend, {args.workers} at a time)")
    print(f"{'':<18}{'defects rejected':>18}{'clean rejected':>16}{'median s':>10}{'max s':>8}")
    for label, res in runs.items():
        bad = [r for r in res if r.kind != "clean"]
        clean = [r for r in res if r.kind == "clean"]
        times = [r.seconds for r in res]
        print(f"{label:<18}{sum(r.rejected for r in bad):>11}/{len(bad)} "
              f"({100 * sum(r.rejected for r in bad) / len(bad):3.0f}%)"
              f"{sum(r.rejected for r in clean):>11}/{len(clean)}"
              f"{statistics.median(times):>10.2f}{max(times):>8.2f}")
    print("\nper kind (defects caught):")
    kinds: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for label, res in runs.items():
        for r in res:
            kinds[r.kind][label].append(r.rejected)
    for kind, by in sorted(kinds.items()):
        cells = "  ".join(f"{label}: {sum(v)}/{len(v)}" for label, v in by.items())
        print(f"  {kind:<16}{cells}")
    print("\nmissed with checkers:", [r.module for r in runs["with checkers"]
                                     if r.kind != "clean" and not r.rejected] or "none")
    print("false rejects:", {label: [r.module for r in res if r.kind == "clean" and r.rejected]
                             for label, res in runs.items()})
    median = statistics.median(r.seconds for r in runs["with checkers"])
    print(f"\nsuite with a checker: {median:.2f} s median per candidate "
          f"({'PASS' if median <= 3.0 else 'FAIL'} against the 3 s goal)")


if __name__ == "__main__":
    main()
