"""A standalone program on many inputs in one sandbox job: the kit's ``run-many`` (each run forked
from a warm interpreter, synth/sandbox/kit/forkrun.py) side by side with an interpreter started
per input (how ``run-many`` worked before: the baseline script below, in the same kind of job).

The gate's oracle runs a task's reference program this way on every compiled candidate, and the
key check runs the other voters. Both runners take the same inputs and must print the same
outputs (checked); the median seconds of ``--repeat`` jobs each, and their ratio, are printed.

    .venv/bin/python bench/programs.py [--backend process] [--inputs 120] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._common import setup  # noqa: E402
from synth.gate.programs import run_program  # noqa: E402
from synth.sandbox import get_backend  # noqa: E402
from synth.sandbox.base import Limits, SandboxJob  # noqa: E402

#: a contest-style program: read a count and numbers, print a sum and the largest
PROGRAM = "n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs), max(xs))\n"

#: the baseline: one ``python -s -S -B program.py`` per input, four at a time
SPAWN = '''import json, subprocess, sys
request = json.loads(sys.stdin.read())
out = []
inputs = request["inputs"]
for start in range(0, len(inputs), 4):
    procs = [(subprocess.Popen([sys.executable, "-s", "-S", "-B", "program.py"],
              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE), text)
             for text in inputs[start:start + 4]]
    for proc, text in procs:
        o, e = proc.communicate(text.encode(), timeout=request["timeout"])
        out.append({"stdout": o.decode(), "stderr": e.decode()[-2000:], "code": proc.returncode})
print(json.dumps(out))
'''


def spawned(backend, stdins: list[str]) -> list[dict]:
    job = SandboxJob(files={"program.py": PROGRAM, "spawn.py": SPAWN}, argv=["spawn.py"],
                     stdin=json.dumps({"inputs": stdins, "timeout": 10}))
    run = backend.run(job, Limits(wall_s=300, cpu_s=300, memory_mb=512, pids=32,
                                  max_output_bytes=8_000_000))
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="process")
    ap.add_argument("--inputs", type=int, default=120)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    backend = get_backend(args.backend)
    stdins = [f"{k % 50 + 1}\n" + " ".join(str((k * 7 + j) % 1000) for j in range(k % 50 + 1))
              + "\n" for k in range(args.inputs)]
    times: dict[str, list[float]] = {"forked (run-many)": [], "interpreter per input": []}
    outputs: dict[str, list[str]] = {}
    for round_ in range(1, args.repeat + 1):
        for label in times:  # side by side, alternating
            t0 = time.perf_counter()
            if label.startswith("forked"):
                runs = run_program(backend, PROGRAM, stdins, timeout_s=10, memory_mb=512,
                                   role="bench")
                assert runs.outputs is not None, runs.why()
                got = runs.outputs
            else:
                got = spawned(backend, stdins)
            times[label].append(time.perf_counter() - t0)
            outputs[label] = [o["stdout"] for o in got]
            print(f"  round {round_}: {label:<22} {times[label][-1]:6.2f}s")
    first, second = outputs.values()
    assert first == second, "the two runners printed different outputs"
    fork, spawn = (statistics.median(v) for v in times.values())
    print(f"{args.inputs} inputs, {args.backend} backend, median of {args.repeat}: forked "
          f"{fork:.2f}s, interpreter per input {spawn:.2f}s; ratio {spawn / fork:.1f}x "
          f"({1000 * fork / args.inputs:.1f} vs {1000 * spawn / args.inputs:.1f} ms per input)")


if __name__ == "__main__":
    main()
