"""Benchmark the reward's canaries (issue 22): reward throughput with canaries on and off, side
by side in one process, alternating rounds, on honest shipped bootcamps.

    .venv/bin/python bench/canaries.py [--bootcamps a,b] [--calls N] [--rounds R]
                                       [--rate X] [--sandbox process|bwrap|docker]

Two ``RewardFunction`` s live side by side (one warm worker per bootcamp each), one with
canaries and one without, warmed first (workers and, with canaries, every bootcamp's oracle
process started). Each round scores the same N calls (the bootcamps' rows in turn, right and
wrong answers alternating; the caller's one thread, as verl's reward manager calls
``compute_score``) through both, in alternating order; a block with canaries is timed until
its canaries are judged. Prints each round as it goes, then the median calls/s and the median
of the rounds' on/off ratios (paired rounds: a load peak of the machine hits both sides), and
the CPU seconds per call of this process and its workers (what a busy machine pays); the
scores are checked to be the same with and without canaries, and nothing may be quarantined. The library is a copy of
the shipped one (a quarantine would mark its record).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from synth.library import Library  # noqa: E402
from synth.serving.sampling import CaseSampler  # noqa: E402
from synth.training.canary import CANARY_RATE  # noqa: E402
from synth.training.reward import RewardFunction  # noqa: E402

WARMUP = 300
WARMUP_MAX = 50_000


def _calls(lib: Library, names: list[str], n: int, sandbox: str) -> list[tuple[str, str, str]]:
    """(data_source, response, ground truth) * n: right and wrong answers alternating."""
    rng = random.Random(7)
    per = n // len(names) // 2 + 1
    rows: list[list[tuple[str, str, str]]] = []
    for name in names:
        rec, code = lib.checked_code(name)
        with CaseSampler(code, backend=sandbox, class_name=rec.class_name, name=name) as s:
            levels = s.levels or ["default"]
            drawn = s.sample([(levels[i % len(levels)], rng.getrandbits(63)) for i in range(per)],
                             answers=True)
        own = []
        for sm in drawn:
            ref = sm.answer or ""
            own.append((f"bootcamp/{name}", f"<answer>{ref}</answer>", sm.case_text))
            own.append((f"bootcamp/{name}", f"<answer>{ref}0</answer>", sm.case_text))
        rows.append(own)
    mixed = [row for group in zip(*rows, strict=False) for row in group]
    return (mixed * (n // len(mixed) + 1))[:n]


def _warm(fn: RewardFunction, calls: list[tuple[str, str, str]], canaries: bool) -> None:
    """Start the workers and, with canaries, every bootcamp's oracle (a one-off cost per
    bootcamp and process, not what is measured here)."""
    for k in range(WARMUP_MAX):
        ds, response, truth = calls[k % len(calls)]
        fn(ds, response, truth)
        if k >= WARMUP and (not canaries or all(w.tally.sent for w in fn._auditor._watches.values())):
            break
    fn.settle(60)


def _cpu() -> float:
    """CPU seconds of this process and its sandboxed workers so far (live and ended ones)."""
    t = os.times()
    live = 0.0
    for child in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            c = child.cpu_times()
            live += c.user + c.system
    return t.user + t.system + t.children_user + t.children_system + live


def _block(fn: RewardFunction, calls: list[tuple[str, str, str]]
           ) -> tuple[float, float, list[float]]:
    """(wall seconds, CPU seconds, scores) of one block, its canaries judged within it."""
    t0, c0 = time.perf_counter(), _cpu()
    scores = [fn(ds, response, truth) for ds, response, truth in calls]
    fn.settle(60)
    return time.perf_counter() - t0, _cpu() - c0, scores


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bootcamps", default="game24,knights_knaves,sudoku,code_output")
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--rate", type=float, default=CANARY_RATE)
    ap.add_argument("--sandbox", default="process", choices=["process", "bwrap", "docker"])
    args = ap.parse_args()
    names = args.bootcamps.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        lib_dir = Path(tmp) / "library"
        shutil.copytree(ROOT / "generated_bootcamps", lib_dir,
                        ignore=shutil.ignore_patterns("__pycache__"))
        lib = Library(lib_dir)
        calls = _calls(lib, names, args.calls, args.sandbox)
        print(f"{len(calls)} calls per round over {', '.join(names)}; canary rate {args.rate:g}; "
              f"{args.sandbox} backend; {args.rounds} rounds", flush=True)
        fns = {on: RewardFunction(lib_dir, backend=args.sandbox,
                                  canary_rate=args.rate if on else 0.0) for on in (False, True)}
        try:
            for on, fn in fns.items():
                _warm(fn, calls, on)
            sent0 = fns[True]._auditor.sent
            ratios: list[float] = []
            cpu_ratios: list[float] = []
            per_canary: list[float] = []  # CPU of one canary, in real calls' CPU
            speed: dict[bool, list[float]] = {False: [], True: []}
            for r in range(args.rounds):
                took: dict[bool, float] = {}
                cpu: dict[bool, float] = {}
                scores: dict[bool, list[float]] = {}
                judged = fns[True]._auditor.sent
                for on in (False, True) if r % 2 == 0 else (True, False):
                    took[on], cpu[on], scores[on] = _block(fns[on], calls)
                    speed[on].append(len(calls) / took[on])
                judged = fns[True]._auditor.sent - judged
                if scores[True] != scores[False]:
                    raise SystemExit("canaries changed the scores of real calls")
                ratios.append(took[False] / took[True])
                cpu_ratios.append(cpu[True] / cpu[False])
                if judged:
                    per_canary.append((cpu[True] - cpu[False]) / judged / (cpu[False] / len(calls)))
                print(f"round {r + 1}: off {speed[False][-1]:6.0f} calls/s, on "
                      f"{speed[True][-1]:6.0f} calls/s, on/off {ratios[-1]:.3f}; CPU per call "
                      f"off {1e3 * cpu[False] / len(calls):.3f} ms, on "
                      f"{1e3 * cpu[True] / len(calls):.3f} ms; {judged} canaries", flush=True)
            auditor = fns[True]._auditor
            if any(fn.quarantined for fn in fns.values()):
                raise SystemExit("an honest bootcamp was quarantined")
        finally:
            for fn in fns.values():
                fn.close()
        ratio, cpu_ratio = statistics.median(ratios), statistics.median(cpu_ratios)
        print(f"median: off {statistics.median(speed[False]):.0f} calls/s, on "
              f"{statistics.median(speed[True]):.0f} calls/s; median on/off of the paired rounds "
              f"{ratio:.3f} (throughput cost {100 * (1 - ratio):.1f} %); CPU on/off "
              f"{cpu_ratio:.3f} (CPU cost {100 * (cpu_ratio - 1):.1f} %); {auditor.sent - sent0} canaries "
              f"judged in {args.rounds * len(calls)} calls, {auditor.dropped} dropped; same "
              "scores with and without canaries, none quarantined")
        if per_canary:
            k = statistics.median(per_canary)
            print(f"one canary costs the CPU of {k:.1f} real calls (median of the rounds): at "
                  f"canary rate {args.rate:g}, {100 * k * args.rate:.1f} % more CPU per call")


if __name__ == "__main__":
    main()
