"""The sleeper table: for each sleeper bootcamp and sandbox backend, the gate's verdict and each
production path's (issue 22, part 6).

    .venv/bin/python -m bench.sleepers [--backends process,bwrap,docker] [--programs NAME ...]
                                       [--json FILE] [--examples N]

A row per (program, backend), a column per production path (export, reward, pool, filter,
rollout); a cell says ``rejected by gate`` (the gate did not accept the program), ``agrees``
(no wrong answer scored 1.0 there), ``ESCAPES`` (a wrong answer scored 1.0 after the gate
accepted), ``quarantined`` (production refused or quarantined it), ``error`` or ``n/a``. The
escapes are listed under the table with the wrong answers and their scores. The programs are
``tests/adversarial/sleepers/corpus/*.py``; the measurement is
``tests/adversarial/sleepers/harness.py`` (the same one ``tests/adversarial/test_sleepers.py``
asserts). A backend that cannot run here is reported and left out. Exit status 1 when any
path ESCAPES or errs, else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "adversarial"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sleepers.harness import PATHS, Measurement, measure, programs

from bench._common import setup
from synth.sandbox import get_backend
from synth.sandbox.base import SandboxUnavailableError


def table(rows: list[tuple[str, Measurement]]) -> str:
    head = ["program", "class", "backend", "gate", *PATHS, "time"]
    body = [[m.program, klass, m.backend, "accepted" if m.gate_passed else "rejected",
             *(m.verdict(p) for p in PATHS), f"{m.elapsed_s:.1f}s"] for klass, m in rows]
    widths = [max(len(str(r[i])) for r in [head, *body]) for i in range(len(head))]
    line = "  ".join("-" * w for w in widths)
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)), line]
    out += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)) for r in body]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default="process,bwrap,docker")
    parser.add_argument("--programs", nargs="*", default=None, help="names (default: all)")
    parser.add_argument("--json", type=Path, default=None, help="also write every measurement")
    parser.add_argument("--examples", type=int, default=2, help="escapes shown per path")
    args = parser.parse_args(argv)
    chosen = [p for p in programs() if not args.programs or p.name in args.programs]
    rows: list[tuple[str, Measurement]] = []
    t0 = time.monotonic()
    for name in args.backends.split(","):
        try:
            backend = get_backend(name.strip())
        except SandboxUnavailableError as exc:
            print(f"backend {name}: cannot run here ({exc}); left out", file=sys.stderr)
            continue
        for program in chosen:
            m = measure(program, backend)
            rows.append((program.sleeper, m))
            print(f"measured {m.program} on {m.backend}: {m.elapsed_s:.1f}s", file=sys.stderr)
    print(table(rows))
    print(f"\n{len(rows)} measurements in {time.monotonic() - t0:.0f}s\n")
    for _, m in rows:
        if any(p.escapes or p.verdict == "error" for p in m.paths):
            print(m.summary(args.examples) + "\n")
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(m) for _, m in rows], indent=1, default=str))
    return 1 if any(not m.ok for _, m in rows) else 0


if __name__ == "__main__":
    setup()
    raise SystemExit(main())
