"""Differential verification on the issue-10 corpus, with and without independent checkers.

Runs the whole gate on every module of tests/defects/subtle (43 subtle defects, 14 clean
controls) twice in one run -- with each module's own checker, and without -- and prints, side
by side: defects rejected, clean bootcamps rejected, the median and maximum suite time per
candidate, and per defect kind how many were caught. Target (issue 10): with checkers, >= 95 %
of the defects rejected, no clean one, and <= 3 s median per candidate.

    .venv/bin/python bench/differential.py [--backend process] [--workers 1] [--per-kind N | --full]

By default it takes the first ``--per-kind`` modules (4) of each kind in the manifest's order,
27 of the 61, and finishes in under 2 minutes on 2 cores (80 s; 200 s with the load average
at 12); ``--full`` gates all of them (over 5 minutes). A line per gated module is printed as it finishes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._common import setup  # noqa: E402
from synth.gate.corpus import CorpusResult, GateJob, GateOutcome, run_parallel  # noqa: E402

CORPUS = REPO / "tests" / "defects" / "subtle"


def chosen(per_kind: int | None) -> list[tuple[str, str]]:
    """(module, kind) of the manifest, the first ``per_kind`` of each kind (None: all)."""
    entries = [(m["module"], m["kind"]) for m in
               json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))["modules"]]
    taken: dict[str, int] = defaultdict(int)
    out = []
    for name, kind in entries:
        if per_kind is None or taken[kind] < per_kind:
            taken[kind] += 1
            out.append((name, kind))
    return out


def gate_all(entries: list[tuple[str, str]], backend: str, checkers: bool, workers: int,
             label: str) -> list[CorpusResult]:
    """synth.gate.corpus.run_corpus on ``entries``, a line per module as it is gated."""
    kinds = dict(entries)
    jobs = []
    for name, _ in entries:
        checker = CORPUS / f"{name}.checker.py"
        reference = CORPUS / f"{name}.reference.py"
        jobs.append(GateJob(
            name, (CORPUS / f"{name}.py").read_text(encoding="utf-8"),
            checker=checker.read_text(encoding="utf-8") if checkers and checker.exists() else None,
            reference=reference.read_text(encoding="utf-8") if reference.exists() else None))
    count = iter(range(1, len(jobs) + 1))

    def said(done: GateOutcome) -> None:
        verdict = "crashed" if done.report is None else (
            "passed" if done.report.passed else "rejected")
        print(f"  {label:<16} {next(count):>2}/{len(jobs)} {done.job.name[:44]:<44} "
              f"{kinds[done.job.name]:<15} {verdict:<8} {done.seconds:5.2f}s")

    results = []
    for (name, kind), done in zip(entries, run_parallel(jobs, backend, workers=workers,
                                                        on_done=said), strict=True):
        if done.report is None:
            raise RuntimeError(f"the gate crashed on {name}:\n{done.error}")
        results.append(CorpusResult(name, kind, done.job.checker is not None, done.report,
                                    done.seconds))
    return results


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="process")
    ap.add_argument("--workers", type=int, default=1, help="candidates checked at once")
    ap.add_argument("--per-kind", type=int, default=4, help="modules of each kind (default 4)")
    ap.add_argument("--full", action="store_true", help="every module of the corpus")
    args = ap.parse_args()
    entries = chosen(None if args.full else args.per_kind)
    print(f"gating {len(entries)} modules of {CORPUS.relative_to(REPO)} twice "
          f"({args.backend} backend, {args.workers} at a time)")
    runs = {}
    for label, checkers in (("with checkers", True), ("without checkers", False)):
        runs[label] = gate_all(entries, args.backend, checkers, args.workers, label)
    print(f"\ngate on {len(entries)} modules of {CORPUS.relative_to(REPO)} ({args.backend} "
          f"backend, {args.workers} at a time)")
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
