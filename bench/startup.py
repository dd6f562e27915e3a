"""Benchmark the start-up of `synth`: wall time of light commands against a bare interpreter.

    .venv/bin/python bench/startup.py [-n 10] [--goal 0.3]

Every command runs N times in a fresh process, interleaved with a bare ``python -c pass`` in
the same loop, so the commands and the baseline are measured on the same machine at the same
moment; the CPU time (user + system) of each run is shown beside its wall time, since on a busy
machine the wall time grows with the load and the CPU time hardly does. One more run per command, through a wrapper that imports ``synth.cli`` and runs the app
with the same arguments, lists the heavy modules that command imported. The goal (issue 9):
``synth --help`` and ``synth library list`` start in 0.3 s or less. This reports; it is not a
test, so it always exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._common import setup  # noqa: E402

COMMANDS: list[list[str]] = [
    ["--help"],
    ["library", "list"],
    ["library", "list", "--json"],
    ["check", "--help"],
    ["export", "--help"],
]
#: the commands the goal is about; the others are reported beside them
GOAL_COMMANDS = (("--help",), ("library", "list"))
HEAVY = ("openai", "langgraph", "pandas", "pyarrow", "docker", "jinja2", "starlette", "uvicorn")
#: not heavy by the issue's list, shown so a regression is easy to spot
ALSO = ("numpy", "httpx", "pydantic", "rich", "pygments", "yaml", "filelock")

WRAPPER = r"""
import json, sys
args = json.loads(sys.argv[1])
from synth.cli import app
try:
    app(args, prog_name="synth")
except SystemExit:
    pass
names = json.loads(sys.argv[2])
print("\nMODULES " + json.dumps([n for n in names if n in sys.modules]), file=sys.stderr)
"""


def synth_argv() -> list[str]:
    """The installed console script next to this interpreter, else ``python -m synth.cli``."""
    script = Path(sys.executable).parent / "synth"
    if script.exists():
        return [str(script)]
    found = shutil.which("synth")
    return [found] if found else [sys.executable, "-m", "synth.cli"]


#: commands that exited non-zero or did not report their modules (printed, never raised)
PROBLEMS: list[str] = []


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``argv`` (runs are sequential, so the delta is its own)."""
    cpu = children_cpu()
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        tail = proc.stderr.decode(errors="replace").strip().splitlines()[-1:]
        PROBLEMS.append(f"{' '.join(argv)} exited {proc.returncode}: {' '.join(tail)}")
    return elapsed, children_cpu() - cpu


def loaded_modules(args: list[str]) -> list[str] | None:
    proc = subprocess.run(
        [sys.executable, "-c", WRAPPER, json.dumps(args), json.dumps(HEAVY + ALSO)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    for line in reversed(proc.stderr.splitlines()):
        if line.startswith("MODULES "):
            return list(json.loads(line[len("MODULES ") :]))
    PROBLEMS.append(f"synth {' '.join(args)} did not report its modules: {proc.stderr[-300:]}")
    return None


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", "--runs", type=int, default=10, help="runs per command (default 10)")
    ap.add_argument("--goal", type=float, default=0.3, help="seconds (default 0.3)")
    args = ap.parse_args()
    synth = synth_argv()
    baseline_argv = [sys.executable, "-c", "pass"]
    times: dict[tuple[str, ...], list[tuple[float, float]]] = {tuple(c): [] for c in COMMANDS}
    base: list[tuple[float, float]] = []
    load_before = os.getloadavg()[0]
    for cmd in COMMANDS:  # warm the page cache once; not counted
        timed(synth + cmd)
    print(f"{len(COMMANDS)} commands and `python -c pass`, {args.runs} rounds (wall s per run)")
    for i in range(args.runs):
        base.append(timed(baseline_argv))
        for cmd in COMMANDS:
            times[tuple(cmd)].append(timed(synth + cmd))
        print(f"  round {i + 1:>2}: base {base[-1][0]:.3f}  "
              + "  ".join(f"{' '.join(c)} {times[tuple(c)][-1][0]:.3f}" for c in COMMANDS))
    print()
    load = max(load_before, os.getloadavg()[0])
    base_median = statistics.median(w for w, _ in base)

    cpus = os.cpu_count() or 1
    bytecode = "off (PYTHONDONTWRITEBYTECODE set)" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "on"
    print(f"synth start-up, {args.runs} runs each, {cpus} CPU(s), load average up to {load:.1f}, "
          f"bytecode cache {bytecode}")
    print(f"runner: {' '.join(synth)}")
    print(f"baseline `python -c pass`: median {base_median:.3f} s, min {min(w for w, _ in base):.3f} s, "
          f"cpu {statistics.median(c for _, c in base):.3f} s\n")
    width = max(len(" ".join(c)) for c in COMMANDS) + 6
    print(f"{'command':<{width}} {'median':>7} {'min':>7} {'cpu':>7} {'x base':>7}  goal  "
          "heavy modules (also loaded)")
    verdicts = []
    cpu_verdicts = []
    for cmd in COMMANDS:
        t = [w for w, _ in times[tuple(cmd)]]
        median = statistics.median(t)
        cpu = statistics.median(c for _, c in times[tuple(cmd)])
        ok = median <= args.goal
        if tuple(cmd) in GOAL_COMMANDS:
            verdicts.append(ok)
            cpu_verdicts.append(cpu <= args.goal)
        mods = loaded_modules(cmd)
        if mods is None:
            found = "?"
        else:
            heavy = ", ".join(m for m in mods if m in HEAVY) or "none"
            found = f"{heavy} ({', '.join(m for m in mods if m in ALSO) or '-'})"
        label = "synth " + " ".join(cmd)
        print(
            f"{label:<{width}} {median:>6.3f}s {min(t):>6.3f}s {cpu:>6.3f}s {median / base_median:>6.1f}x"
            f"  {'ok  ' if ok else 'OVER'}  {found}"
        )
    goal = " and ".join("`synth " + " ".join(c) + "`" for c in GOAL_COMMANDS)
    for problem in PROBLEMS:
        print(f"problem: {problem}")
    verdict = "PASS" if all(verdicts) and not PROBLEMS else "FAIL"
    print(f"\n{verdict}: {goal} median start-up {'<=' if all(verdicts) else 'not all <='} "
          f"{args.goal:.3f} s on this machine")
    if load >= cpus:  # the benchmark itself keeps about one CPU busy
        print(f"note: the machine was busy (load {load:.1f} on {cpus} CPUs), so wall times are inflated; "
              f"by median CPU time the goal is {'met' if all(cpu_verdicts) else 'NOT met'}. "
              "Run again when it is idle.")


if __name__ == "__main__":
    main()
