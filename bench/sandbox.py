"""Benchmark the sandbox: verify_score throughput and the full check-suite time, side by side.

    .venv/bin/python bench/sandbox.py [--bootcamps NAME,...] [--calls N] [--fresh M]
                                      [--pool-size K] [--backends process,bwrap,docker]
                                      [--steady S] [--suite-reps R] [--engines] [--full]

One run, one machine, one moment. For every bootcamp of the walk (default: the shipped
bootcamps that need no engine, ``bench._common.DEFAULT_BOOTCAMPS``) it scores the same responses
(half reference answers, half wrong ones) four ways, and prints a line per bootcamp as it goes:

* in-process: ``cls.verify_score`` called directly (no isolation: the baseline);
* warm pool: :class:`synth.sandbox.pool.WorkerPool` on each backend (docker: a session in a
  container of its own, requests and replies over two FIFOs), start-up excluded (reported
  separately; for docker it includes waiting until the engine has made the spare containers
  the pool took, and removed those of the pool before -- work that would otherwise land in the
  timed calls);
* fresh sandbox per call: one ``Backend.run`` per call (the process backend, and the docker
  backend, whose runs are execs in warm containers), on a subset of ``--fresh`` calls;

and checks that every sandboxed score equals the in-process one. Then the *steady state*:
per backend and bootcamp one long-lived pool (as the reward keeps during training), warmed and
settled, timed on ``--steady`` calls against in-process on the same calls -- without the
start-up transients (a fresh worker's first chunks, a container's first page faults) that
dominate a short pool. Then it runs the full check suite (``synth.gate.run_checks``) on each
bootcamp ``--suite-reps`` times per backend and reports the median per candidate. Targets
(issue 3): pool >= 0.5x in-process and >= 10x a fresh process per call; suite <= 1.5 s median
on process, <= 3 s on docker.

``--engines`` adds the engine-backed bootcamps (GNU Go) as rows of their own, at their
smallest level (go_move: a 9x9 opening) and ``--engine-calls`` calls: a case costs GNU Go
self-play (about 0.1 s) and every verify an analysis, so they would dominate the walk. Their
check suite is longer still (3-4 minutes per backend for go_move here: the gate asks GNU Go for
hundreds of cases): ``--engine-suite`` adds it. go_game is multi-turn: its episodes are
measured by bench/episodes.py --go.

Defaults take 2.5-3 minutes on 2 cores with a little other work (8 minutes with the load
average at 15-20); ``--full`` restores the issue-3 sizes (2000 calls, 10 fresh, 20000 steady
after 1000 warm-up, 3 suite runs: about an hour).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._common import DEFAULT_BOOTCAMPS, ENGINE_BOOTCAMPS, ENGINE_LEVEL, setup  # noqa: E402
from synth.bootcamp import BaseBootcamp  # noqa: E402
from synth.library import Library  # noqa: E402
from synth.sandbox import get_backend  # noqa: E402
from synth.sandbox.base import (  # noqa: E402
    Backend,
    Limits,
    Outcome,
    SandboxJob,
    SandboxUnavailableError,
)
from synth.sandbox.methods import contract_files  # noqa: E402
from synth.sandbox.pool import WorkerPool  # noqa: E402

LIBRARY = REPO / "generated_bootcamps"
FULL = {"calls": 2000, "fresh": 10, "steady": 20000, "steady_warmup": 1000, "suite_reps": 3}

ONE_CALL = """
import json, sys, importlib.util
from synth.bootcamp import BaseBootcamp
spec = importlib.util.spec_from_file_location("candidate", "candidate.py")
mod = importlib.util.module_from_spec(spec)
sys.modules["candidate"] = mod
spec.loader.exec_module(mod)
cls = [c for c in vars(mod).values() if isinstance(c, type) and issubclass(c, BaseBootcamp)
       and c is not BaseBootcamp and c.__module__ == "candidate"][0]
req = json.loads(sys.stdin.read())
print(json.dumps(cls.verify_score(req["response"], req["identity"])))
"""


@dataclass
class Totals:
    """Seconds and calls of one group of bootcamps (the walk, or the engine rows)."""

    calls: int = 0
    fresh_n: int = 0
    inproc_s: float = 0.0
    pool_s: dict[str, float] = field(default_factory=dict)
    pool_start_s: dict[str, float] = field(default_factory=dict)
    fresh_s: dict[str, float] = field(default_factory=dict)
    bootcamps: int = 0


def load(path: Path) -> type[BaseBootcamp]:
    """Import a shipped (reviewed) library bootcamp in this process, for the baseline."""
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    found = [
        c
        for c in vars(module).values()
        if isinstance(c, type)
        and issubclass(c, BaseBootcamp)
        and c is not BaseBootcamp
        and c.__module__ == module.__name__
    ]
    return found[0]


def workload(cls: type[BaseBootcamp], calls: int, level: str | None) -> list[tuple[str, dict[str, Any]]]:
    camp = cls.from_level(level, seed=7) if level else cls(seed=7)
    items = []
    for i in range(calls):
        case = camp.case_generator()
        answer = cls.reference_answer(case) if i % 2 == 0 else "definitely wrong"
        items.append((cls.wrap_answer(answer), case))
    return items


def try_backend(name: str) -> Backend | None:
    try:
        return get_backend(name)
    except SandboxUnavailableError as exc:
        print(f"NOTE: backend {name} unavailable, its rows are skipped: {exc}", file=sys.stderr)
        return None


def settle(backends: dict[str, Backend]) -> None:
    """Let every backend's background work finish (docker: making spare containers, removing
    used ones -- a few hundred ms of engine CPU each, which on a 2-core machine would land in
    whatever is being timed). Counted in the pool start-up, not in its throughput."""
    for backend in backends.values():
        wait = getattr(backend, "settle", None)
        if wait is not None:
            wait(30.0)


def fresh_calls(
    backend: Backend, code: str, items: list[tuple[str, dict[str, Any]]], expected: list[float]
) -> float:
    files = {
        "one_call.py": ONE_CALL,
        "candidate.py": code,
        **{path: text for path, text in contract_files().items() if path.startswith("synth/")},
    }
    limits = Limits(wall_s=20, cpu_s=20)
    t0 = time.perf_counter()
    for (response, identity), want in zip(items, expected, strict=True):
        stdin = json.dumps({"response": response, "identity": identity})
        res = backend.run(SandboxJob(files=files, argv=["one_call.py"], stdin=stdin), limits)
        if res.outcome is not Outcome.PASSED or json.loads(res.stdout) != want:
            raise SystemExit(f"fresh run on {backend.name} disagreed: {res.outcome} {res.stderr}")
    return time.perf_counter() - t0


def throughput(paths: list[Path], backends: dict[str, Backend], args: argparse.Namespace,
               calls: int, fresh: int, level: str | None) -> Totals:
    """In-process, warm pool and fresh sandbox per call on ``calls`` calls of each bootcamp; a
    line per bootcamp as it is measured."""
    tot = Totals(pool_s=dict.fromkeys(backends, 0.0), pool_start_s=dict.fromkeys(backends, 0.0))
    for path in paths:
        cls, code = load(path), path.read_text()
        t0 = time.perf_counter()
        items = workload(cls, calls, level)
        gen_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        expected = [cls.verify_score(r, i) for r, i in items]
        inproc = time.perf_counter() - t0
        tot.inproc_s += inproc
        tot.calls += len(items)
        cells = [f"in-process {len(items) / inproc:7.0f}/s"]
        for name, backend in backends.items():
            settle(backends)  # no container start or removal of an earlier pool runs meanwhile
            t0 = time.perf_counter()
            with WorkerPool(code, size=args.pool_size, backend=backend,
                            call_timeout_s=args.call_timeout) as pool:
                settle(backends)  # the spares this pool took are made again first
                t1 = time.perf_counter()
                got = pool.verify_many(items)
                pooled = time.perf_counter() - t1
            tot.pool_s[name] += pooled
            tot.pool_start_s[name] += t1 - t0
            if [r.score for r in got] != expected:
                raise SystemExit(f"pool on {name} disagreed with in-process scores ({path.name})")
            cells.append(f"pool[{name}] {len(items) / pooled:6.0f}/s (start {t1 - t0:.1f}s)")
        sub = items[:fresh]
        for name in ("process", "docker"):
            if name in backends and sub:
                secs = fresh_calls(backends[name], code, sub, expected[:fresh])
                tot.fresh_s[name] = tot.fresh_s.get(name, 0.0) + secs
                cells.append(f"fresh[{name}] {len(sub) / secs:4.1f}/s")
        tot.fresh_n += len(sub)
        tot.bootcamps += 1
        print(f"  {path.stem[:28]:<28} {len(items)} calls (made in {gen_s:.1f}s): "
              + ", ".join(cells))
    return tot


def throughput_table(title: str, tot: Totals, backends: dict[str, Backend], pool_size: int) -> None:
    rate_in = tot.calls / tot.inproc_s
    print(f"\n{title} ({tot.bootcamps} bootcamps, {tot.calls} calls; pool size {pool_size}; "
          f"fresh runs on {tot.fresh_n} calls)")
    print(f"{'mode':<28}{'calls/s':>12}{'x in-process':>14}{'x fresh proc':>14}")
    rows: list[tuple[str, float]] = [("in-process (no isolation)", rate_in)]
    for name in backends:
        rows.append((f"warm pool [{name}]", tot.calls / tot.pool_s[name]))
    for name, secs in tot.fresh_s.items():
        label = "fresh process per call" if name == "process" else f"fresh exec per call [{name}]"
        rows.append((label, tot.fresh_n / secs))
    fresh_rate = tot.fresh_n / tot.fresh_s["process"] if "process" in tot.fresh_s else None
    for label, rate in rows:
        vs_fresh = f"{rate / fresh_rate:>13.1f}x" if fresh_rate else f"{'-':>14}"
        print(f"{label:<28}{rate:>12.0f}{rate / rate_in:>13.2f}x{vs_fresh}")
    for name in backends:
        print(f"  pool start-up [{name}]: {tot.pool_start_s[name] / tot.bootcamps:.2f} s per pool")
    print()


def steady(paths: list[Path], backends: dict[str, Backend], args: argparse.Namespace) -> None:
    """Long-lived pools (the reward during training, a large filter): per backend one pool per
    bootcamp, warmed with ``--steady-warmup`` calls and settled, then timed on ``--steady``
    calls (no worker recycled meanwhile), against in-process on the same calls."""
    if args.steady <= 0:
        return
    print(f"steady state: one pool per bootcamp, {args.steady_warmup} calls to warm it, then "
          f"{args.steady} timed")
    inproc = 0.0
    pooled: dict[str, float] = dict.fromkeys(backends, 0.0)
    total = 0
    for path in paths:
        cls, code = load(path), path.read_text()
        items = workload(cls, args.steady + args.steady_warmup, None)
        warm, timed = items[: args.steady_warmup], items[args.steady_warmup :]
        t0 = time.perf_counter()
        expected = [cls.verify_score(r, i) for r, i in timed]
        own_in = time.perf_counter() - t0
        inproc += own_in
        total += len(timed)
        cells = [f"in-process {len(timed) / own_in:7.0f}/s"]
        for name, backend in backends.items():
            with WorkerPool(code, size=args.pool_size, backend=backend,
                            recycle_after=10 * len(items)) as pool:
                pool.verify_many(warm)
                settle(backends)
                t0 = time.perf_counter()
                got = pool.verify_many(timed)
                own = time.perf_counter() - t0
                pooled[name] += own
            if [r.score for r in got] != expected:
                raise SystemExit(f"steady pool on {name} disagreed with in-process ({path.name})")
            cells.append(f"pool[{name}] {len(timed) / own:6.0f}/s ({own_in / own:.2f}x)")
        settle(backends)
        print(f"  {path.stem[:28]:<28} " + ", ".join(cells))
    rate_in = total / inproc
    print(f"\nsteady state ({total} timed calls)")
    print(f"{'mode':<28}{'calls/s':>12}{'x in-process':>14}")
    print(f"{'in-process (no isolation)':<28}{rate_in:>12.0f}{1.0:>13.2f}x")
    for name in backends:
        rate = total / pooled[name]
        print(f"{f'warm pool [{name}]':<28}{rate:>12.0f}{rate / rate_in:>13.2f}x")
    print()


def suite(title: str, paths: list[Path], backends: dict[str, Backend], reps: int) -> None:
    from synth.gate import run_checks

    if reps <= 0:
        return
    print(f"{title}: full check suite per candidate, {reps} run(s) x {len(paths)} bootcamps")
    summary = []
    for name, backend in backends.items():
        times, passed = [], 0
        for _ in range(reps):
            for path in paths:
                t0 = time.perf_counter()
                report = run_checks(path.read_text(), backend=backend, name=path.stem)
                times.append(time.perf_counter() - t0)
                passed += report.passed
                print(f"  {name:<8} {path.stem[:40]:<40} {times[-1]:6.2f}s "
                      f"{'passed' if report.passed else 'REJECTED'}")
        summary.append(f"{name:<12}{statistics.median(times):>10.2f}{max(times):>10.2f}"
                       f"{passed:>6}/{len(times)}")
    print(f"{'backend':<12}{'median s':>10}{'max s':>10}{'passed':>10}")
    print("\n".join(summary) + "\n")


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bootcamps", default=",".join(DEFAULT_BOOTCAMPS),
                    help="comma-separated library names (default: those that need no engine)")
    ap.add_argument("--calls", type=int, default=300, help="verify calls per bootcamp")
    ap.add_argument("--fresh", type=int, default=4, help="fresh-sandbox calls per bootcamp")
    ap.add_argument("--pool-size", type=int, default=2)
    ap.add_argument("--backends", default="process,bwrap,docker")
    ap.add_argument("--suite-reps", type=int, default=1)
    ap.add_argument("--steady", type=int, default=3000,
                    help="timed calls per bootcamp on a long-lived pool (0: skip)")
    ap.add_argument("--steady-warmup", type=int, default=300)
    ap.add_argument("--engines", action="store_true",
                    help=f"also measure {', '.join(ENGINE_BOOTCAMPS[:1])} (GNU Go) in rows of "
                    f"its own, level {ENGINE_LEVEL}")
    ap.add_argument("--engine-calls", type=int, default=20)
    ap.add_argument("--engine-suite", action="store_true",
                    help="with --engines: the check suite on go_move too (minutes per backend)")
    ap.add_argument("--call-timeout", type=float, default=5.0, help="pool seconds per call")
    ap.add_argument("--full", action="store_true",
                    help="issue-3 sizes: " + ", ".join(f"{k} {v}" for k, v in FULL.items()))
    args = ap.parse_args()
    if args.full:
        for key, value in FULL.items():
            setattr(args, key, value)

    files = {p.stem: p for p in LIBRARY.glob("*/*.py") if p.name != "__init__.py"}
    names = [n.strip() for n in args.bootcamps.split(",") if n.strip()]
    known = set(Library(LIBRARY).list_bootcamps()) & set(files)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"not in {LIBRARY}: {', '.join(unknown)} (see `synth library list`)")
    slow = [n for n in names if n in ENGINE_BOOTCAMPS]
    if slow:
        raise SystemExit(f"{', '.join(slow)} need GNU Go: measure them with --engines, "
                         "in rows of their own")
    paths = [files[n] for n in names]
    backends = {n: b for n in args.backends.split(",") if (b := try_backend(n)) is not None}
    print(f"sandbox bench: {len(paths)} bootcamps, {args.calls} calls each, backends "
          f"{', '.join(backends)}")

    tot = throughput(paths, backends, args, args.calls, args.fresh, None)
    throughput_table("verify_score throughput", tot, backends, args.pool_size)
    steady(paths, backends, args)
    suite("library bootcamps", paths, backends, args.suite_reps)

    if args.engines:
        engine_paths = [files[ENGINE_BOOTCAMPS[0]]]
        print(f"engine-backed: {engine_paths[0].stem} at level {ENGINE_LEVEL}, "
              f"{args.engine_calls} calls")
        etot = throughput(engine_paths, backends, args, args.engine_calls,
                          min(args.fresh, args.engine_calls), ENGINE_LEVEL)
        throughput_table(f"engine-backed verify_score throughput (level {ENGINE_LEVEL})", etot,
                         backends, args.pool_size)
        if args.engine_suite:
            suite("engine-backed", engine_paths, backends, 1)


if __name__ == "__main__":
    main()
