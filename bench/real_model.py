"""Benchmark the pipeline with the embedded real code model, full mode against compiled mode.

    .venv/bin/python bench/real_model.py [--quick | --real] [--model local|local-smoke] [--tasks N]
                                         [--modes full,compiled] [--rounds R] [--samples K]
                                         [--out DIR]
    .venv/bin/python bench/real_model.py --from-runs runs/campaign-*   # yields of kept long runs

For each mode it runs ``synth run --source codecontests --model MODEL --mode MODE`` over the same
first N bundled CodeContests tasks (a fresh library per mode, an embedded model served by
llama.cpp on 127.0.0.1), then reads the run folder and prints, side by side:

- yield per stage: candidates with code, past the static gate and load, through the whole gate,
  filtered into the band, committed; and the rejection reasons;
- the repairs the pipeline applied before the gate;
- every model call: role, tokens in / out / cached, seconds;
- minutes per accepted bootcamp (the run's wall time over its accepted bootcamps).

A JSON summary of both modes goes to ``OUT/real_model.json`` (the README's figures come from
it).

Without ``--quick`` or ``--real`` it only checks that the model server and the model files are
here (scripts/setup.sh installs them), prints the two commands and exits: a model run does not
fit a few minutes on 2 cores. ``--quick``: the smoke model (``local-smoke``, SmolLM2-135M: it
never writes a working bootcamp, so it measures the path and its costs, not the yield), 1 task,
no revision round, 4 samples -- a few minutes per mode on an idle machine, much longer on a busy
one (its 5,000-token prompt prefix alone took 220 s with the load average at 15).
``--real`` is the measurement the README quotes: the embedded Qwen2.5-Coder-1.5B (``local``),
2 tasks, 1 round, 12 samples -- minutes per model call, an hour or more in all.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._common import Ticker, count_lines, run_child, setup  # noqa: E402
from synth.gate.report import CHECK_NAMES  # noqa: E402
from synth.runs import read_events  # noqa: E402

QUICK = {"model": "local-smoke", "tasks": 1, "rounds": 0, "samples": 4}
REAL = {"model": "local", "tasks": 2, "rounds": 1, "samples": 12}

STAGES = ("with code", "past load", "past gate", "in band", "committed")


def run_mode(mode: str, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    runs, library = out / f"runs-{mode}", out / f"library-{mode}"
    cmd = [sys.executable, "-m", "synth.cli", "run", "--source", "codecontests", "--model", args.model,
           "--mode", mode, "--limit", str(args.tasks), "--rounds", str(args.rounds),
           "--samples", str(args.samples), "--candidates", str(args.candidates),
           "--library", str(library), "--runs-dir", str(runs), "--sandbox", args.sandbox]
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    print(f"== {mode}: {' '.join(cmd[2:])}", flush=True)
    start = time.monotonic()

    def status() -> str:
        logs = list(runs.glob("*/events.jsonl"))
        calls = count_lines(logs[0], '"llm_call"') if logs else 0
        return f"{mode}: {calls} model calls so far"

    with Ticker(status, every_s=30):
        proc = run_child(cmd, cwd=REPO, env=env)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        print(proc.stderr[-4000:], file=sys.stderr)
        raise SystemExit(f"synth run --mode {mode} exited with {proc.returncode}")
    (run_dir,) = list(runs.iterdir())
    events = read_events(run_dir / "events.jsonl")
    summary = summarise(events, wall)
    chosen = Counter(e.get("mode") for e in events if e.get("kind") == "node" and e.get("node") == "draft")
    label = mode if mode != "auto" else "auto: " + ",".join(f"{m} {n}" for m, n in sorted(chosen.items()))
    summary.update(mode=label, run_id=run_dir.name, run_dir=str(run_dir), library=str(library))
    return summary


def _stage_reached(failing: list[str]) -> int:
    """How many of the stages after 'with code' a checked candidate got through."""
    if not failing:
        return 2
    first = min((CHECK_NAMES.index(f) for f in failing if f in CHECK_NAMES), default=len(CHECK_NAMES))
    return 1 if first > CHECK_NAMES.index("load") else 0


def summarise(events: list[dict[str, Any]], wall_s: float) -> dict[str, Any]:
    stages: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    repairs: Counter[str] = Counter()
    failing: Counter[str] = Counter()
    calls: list[dict[str, Any]] = []
    accepted: list[dict[str, Any]] = []
    steering = 0
    for e in events:
        kind = e.get("kind")
        if kind == "node" and e.get("node") in ("draft", "revise", "steer"):
            stages["with code"] += int(e.get("with_code", 0))
            steering += e.get("node") == "steer"
        elif kind == "sandbox":
            reached = _stage_reached(list(e.get("failing") or []))
            stages["past load"] += reached >= 1
            stages["past gate"] += reached >= 2
            failing.update(e.get("failing") or [])
        elif kind == "filter":
            stages["in band"] += e.get("verdict") == "accepted"
        elif kind == "commit":
            stages["committed"] += 1
            accepted.append({"task": e.get("task"), "name": e.get("name"), "pass_rate": e.get("pass_rate")})
        elif kind == "reject":
            reasons[str(e.get("reason_code"))] += 1
        elif kind == "repair":
            repairs[str(e.get("repair") or "repair")] += 1
        elif kind == "llm_call":
            calls.append({"role": e.get("role"), "tag": e.get("tag"), "ok": e.get("ok"),
                          "in": e.get("tokens_in", 0), "out": e.get("tokens_out", 0),
                          "cached": e.get("tokens_cached", 0) or 0,
                          "s": round(float(e.get("latency_s", 0.0)), 1)})
    n_acc = len(accepted)
    return {
        "wall_s": round(wall_s, 1), "stages": {s: stages[s] for s in STAGES},
        "rejections": dict(reasons), "failing_checks": dict(failing.most_common()),
        "repairs": dict(repairs), "steering_rounds": steering, "calls": calls, "accepted": accepted,
        "tokens": {k: sum(int(c[k]) for c in calls) for k in ("in", "out", "cached")},
        "minutes_per_accepted": round(wall_s / 60 / n_acc, 1) if n_acc else None,
    }


def show(results: list[dict[str, Any]]) -> None:
    modes = [r["mode"] for r in results]
    width = max(14, *(len(m) + 2 for m in modes))
    print("\n" + "stage".ljust(22) + "".join(m.rjust(width) for m in modes))
    for stage in STAGES:
        print(stage.ljust(22) + "".join(str(r["stages"][stage]).rjust(width) for r in results))
    for label, key in (("wall minutes", None), ("min / accepted", "minutes_per_accepted"),
                       ("steering rounds", "steering_rounds")):
        vals = [f"{r['wall_s'] / 60:.1f}" if key is None else str(r[key]) for r in results]
        print(label.ljust(22) + "".join(v.rjust(width) for v in vals))
    for k in ("in", "out", "cached"):
        print(f"tokens {k}".ljust(22) + "".join(f"{r['tokens'][k]:,}".rjust(width) for r in results))
    for r in results:
        print(f"\n-- {r['mode']} (run {r['run_id']})")
        print(f"rejections: {r['rejections'] or '-'}")
        print(f"failing checks: {r['failing_checks'] or '-'}")
        print(f"repairs: {r['repairs'] or '-'}")
        print(f"accepted: {r['accepted'] or '-'}")
        print(f"{'role':8} {'tag':54} {'in':>6} {'out':>6} {'cached':>6} {'s':>7}")
        for c in r["calls"]:
            print(f"{c['role']:8} {str(c['tag'])[:54]:54} {c['in']:>6} {c['out']:>6} {c['cached']:>6} "
                  f"{c['s']:>7}{'' if c['ok'] else '  FAILED'}")


def missing(model: str) -> str | None:
    """What this machine lacks to serve ``model``, with the fix; None when it can."""
    from synth.models.local import MODELS, LocalModelError, find_server, model_file

    if find_server() is None:
        return "no model server: run scripts/setup.sh (it installs the [local] extra, xllamacpp)"
    try:
        model_file(MODELS[model])
    except LocalModelError as exc:
        return str(exc)
    return None


def _sessions_s(events: list[dict[str, Any]]) -> float:
    """A run's wall seconds over its sessions: each ``run_start`` (a resume starts a session)
    to the last event before the next one."""
    total, start, last = 0.0, None, None
    for e in events:
        ts = float(e.get("ts") or 0.0)
        if e.get("kind") == "run_start":
            if start is not None and last is not None:
                total += last - start
            start = ts
        last = ts
    if start is not None and last is not None:
        total += last - start
    return total


def from_runs(run_dirs: list[Path], library: Path) -> list[dict[str, Any]]:
    """Yields per source and mode from run folders kept in the repository (``runs/campaign-*``:
    the long runs with the embedded model), with what review did to their bootcamps."""
    manifest = json.loads((library / "manifest.json").read_text(encoding="utf-8"))["bootcamps"]
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for run_dir in run_dirs:
        config = json.loads((run_dir / "config.json").read_text(encoding="utf-8"))["config"]
        events = read_events(run_dir / "events.jsonl")
        modes = Counter(e.get("mode") for e in events if e.get("kind") == "node"
                        and e.get("node") == "draft" and e.get("mode"))
        for mode in modes or {"(none drafted)": 0}:
            groups.setdefault((str(config["source"]), str(mode)), []).append(
                {"run": run_dir, "events": events})
    out = []
    for (source, mode), runs in sorted(groups.items()):
        events = [e for r in runs for e in r["events"]]
        summary = summarise(events, sum(_sessions_s(r["events"]) for r in runs))
        ids = {r["run"].name for r in runs}
        reviewed = [m for m in manifest if m.get("run_id") in ids and m.get("source") == source]
        # a resumed run says again how its finished tasks ended: each task counts once per run
        ended = {(r["run"].name, e.get("task")) for r in runs for e in r["events"]
                 if e.get("kind") == "task_end"}
        summary.update(
            mode=f"{source} {mode}", run_id=",".join(sorted(ids)),
            tasks_tried=len(ended), tasks_started=len({e.get("task") for e in events
                                                       if e.get("kind") == "task_start"}),
            duplicates=sum(1 for e in events if e.get("kind") == "dedup" and e.get("duplicate_of")),
            review={st: sum(1 for m in reviewed if m.get("status") == st)
                    for st in ("accepted", "pending-review", "rejected-in-review")},
            review_reasons=[f"{m['name']}: {m.get('review_reason', '')}" for m in reviewed
                            if m.get("status") == "rejected-in-review"],
            tokens_per_accepted=(round(sum(c["in"] + c["out"] for c in summary["calls"])
                                       / len(summary["accepted"]))
                                 if summary["accepted"] else None))
        out.append(summary)
    return out


def show_yields(results: list[dict[str, Any]]) -> None:
    """The README's yield table: one row per source and mode."""
    print("\n| source, mode | tasks ended | with code | past gate | in band | committed | "
          "review: kept / pending / rejected | duplicates | min / accepted | tokens / accepted |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        st, rv = r["stages"], r["review"]
        print(f"| {r['mode']} | {r['tasks_tried']} | {st['with code']} | {st['past gate']} | "
              f"{st['in band']} | {st['committed']} | {rv['accepted']} / {rv['pending-review']} / "
              f"{rv['rejected-in-review']} | {r['duplicates']} | {r['minutes_per_accepted'] or '-'} | "
              f"{r['tokens_per_accepted'] or '-'} |")
    for r in results:
        print(f"\n-- {r['mode']} (runs {r['run_id']}, {r['wall_s'] / 60:.0f} min)")
        print(f"rejections: {r['rejections'] or '-'}")
        print(f"failing checks: {r['failing_checks'] or '-'}")
        for line in r["review_reasons"]:
            print(f"rejected in review: {line}")


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="the smoke model: " + ", ".join(f"{k} {v}" for k, v in QUICK.items()))
    ap.add_argument("--real", action="store_true",
                    help="the README's measurement: " + ", ".join(f"{k} {v}" for k, v in REAL.items()))
    ap.add_argument("--model", choices=["local", "local-smoke"], default=None)
    ap.add_argument("--tasks", type=int, default=None)
    ap.add_argument("--modes", default="full,compiled",
                    help="comma-separated: full, compiled, auto (auto is the README's first command)")
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--candidates", type=int, default=1)
    ap.add_argument("--sandbox", default="auto")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--from-runs", type=Path, nargs="+", default=None, metavar="RUN_DIR",
                    help="run nothing: the yields per source and mode of these run folders "
                    "(e.g. runs/campaign-*), with what review did to their bootcamps")
    ap.add_argument("--library", type=Path, default=REPO / "generated_bootcamps")
    args = ap.parse_args()
    if args.from_runs:
        results = from_runs(args.from_runs, args.library)
        show_yields(results)
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / "yields.json").write_text(json.dumps(results, indent=1, default=str))
        return
    for key, value in (REAL if args.real else QUICK).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if not (args.quick or args.real):
        for label, model in (("--quick", "local-smoke"), ("--real", "local")):
            problem = missing(model)
            state = "ready" if problem is None else f"NOT ready: {problem}"
            print(f"{label:8} model {model}: {state}")
        print("a model run takes from several minutes (--quick) to an hour or more (--real) on 2 "
              "cores; choose one:\n  .venv/bin/python bench/real_model.py --quick\n"
              "  .venv/bin/python bench/real_model.py --real")
        return
    problem = missing(args.model)
    if problem is not None:
        raise SystemExit(f"bench/real_model.py needs the embedded model {args.model!r}: {problem}")
    print(f"{'real' if args.real else 'quick'} mode: model {args.model}, {args.tasks} task(s), "
          f"{args.rounds} round(s), {args.samples} samples, modes {args.modes}", flush=True)
    out = args.out or Path(tempfile.mkdtemp(prefix="synth-real-model-"))
    out.mkdir(parents=True, exist_ok=True)
    results = [run_mode(m.strip(), args, out) for m in args.modes.split(",") if m.strip()]
    show(results)
    (out / "real_model.json").write_text(json.dumps(results, indent=1))
    print(f"\nsummary: {out / 'real_model.json'}")


if __name__ == "__main__":
    main()
