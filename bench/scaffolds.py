"""How far the drafts' starting generators get with no model at all.

    .venv/bin/python bench/scaffolds.py [--source humaneval|codecontests] [--limit N]
                                        [--sandbox process]

For each bundled task of the source, the draft's skeleton as trusted code fills it in
(:mod:`synth.workflow.scaffold` for HumanEval's functions, :mod:`synth.workflow.stdin_scaffold`
for CodeContests' stdin programs) is sent back unchanged as the coder's reply, assembled with the
task's reference and gated. It prints how many tasks get a complete scaffold, how many of those
pass every hard check as they stand, the failed checks counted, and the seconds per gate run.
The coder starts from there. (A compiled bootcamp's ``key`` check, which wants a second
solution to vote on the answer key, is reported but not counted: the run's judge writes one.)
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from synth.gate import run_checks
from synth.sandbox import get_backend
from synth.sources import HumanEvalSource, get_source
from synth.tasks import TaskDescription
from synth.workflow import coder


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", choices=("humaneval", "codecontests"), default="humaneval")
    ap.add_argument("--limit", type=int, default=10_000)
    ap.add_argument("--sandbox", default="process")
    args = ap.parse_args()
    backend = get_backend(args.sandbox)
    source = HumanEvalSource() if args.source == "humaneval" else get_source("codecontests")
    tasks = [t for t in source.load() if isinstance(t, TaskDescription)][:args.limit]
    mode = "function" if args.source == "humaneval" else "compiled"
    failed: collections.Counter[str] = collections.Counter()
    passed, seconds, without = 0, [], 0
    for task in tasks:
        module = coder.unchanged_draft(task, mode)
        if module is None:
            without += 1
            continue
        t0 = time.perf_counter()
        report = run_checks(module, backend=backend)
        seconds.append(time.perf_counter() - t0)
        names = [c.name for c in report.checks if c.status.value == "failed"]
        # the gate's hard checks but the key vote, and the library's instances rule
        hard = [c.name for c in report.checks if c.status.value == "failed"
                and (c.hard or c.name == "instances") and c.name != "key"]
        passed += not hard
        failed.update(names)
        print(f"{task.provenance.original_id or task.id:<14} "
              f"{'passed' if not hard else ', '.join(names)}",
              flush=True)
    gated = len(seconds)
    print(f"\n{len(tasks)} tasks: {gated} with a complete scaffold, {without} without")
    print(f"passed every hard check unchanged: {passed} of {gated}"
          + (f" ({100 * passed / gated:.0f} %)" if gated else ""))
    print("failed checks: " + ", ".join(f"{k} {v}" for k, v in failed.most_common()))
    if seconds:
        print(f"gate seconds per task: median {sorted(seconds)[len(seconds) // 2]:.1f}, "
              f"total {sum(seconds):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
