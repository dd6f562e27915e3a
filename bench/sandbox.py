"""Benchmark the sandbox: verify_score throughput and the full check-suite time, side by side.

    .venv/bin/python bench/sandbox.py [--calls N] [--fresh M] [--pool-size K]
                                      [--backends process,bwrap,docker] [--suite-reps R]

One run, one machine, one moment. For every shipped library bootcamp it scores the same
responses (half reference answers, half wrong ones) four ways:

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
settled, timed on ``--steady`` calls (default 20000) against in-process on the same calls --
without the start-up transients (a fresh worker's first chunks, a container's first page
faults) that dominate a 2000-call pool. Then it runs the full check
suite (``synth.gate.run_checks``) on each library bootcamp ``--suite-reps`` times per backend
and reports the median per candidate. Targets (issue 3): pool >= 0.5x in-process and >= 10x a
fresh process per call; suite <= 1.5 s median on process, <= 3 s on docker.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import synth.bootcamp
from synth.bootcamp import BaseBootcamp
from synth.sandbox import get_backend
from synth.sandbox.base import Backend, Limits, Outcome, SandboxJob, SandboxUnavailableError
from synth.sandbox.pool import WorkerPool

REPO = Path(__file__).resolve().parents[1]
LIBRARY = REPO / "generated_bootcamps"

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


def workload(cls: type[BaseBootcamp], calls: int) -> list[tuple[str, dict[str, Any]]]:
    camp = cls(seed=7)
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
        "synth/__init__.py": "",
        "synth/bootcamp.py": Path(synth.bootcamp.__file__).read_text(),
    }
    limits = Limits(wall_s=20, cpu_s=20)
    t0 = time.perf_counter()
    for (response, identity), want in zip(items, expected, strict=True):
        stdin = json.dumps({"response": response, "identity": identity})
        res = backend.run(SandboxJob(files=files, argv=["one_call.py"], stdin=stdin), limits)
        if res.outcome is not Outcome.PASSED or json.loads(res.stdout) != want:
            raise SystemExit(f"fresh run on {backend.name} disagreed: {res.outcome} {res.stderr}")
    return time.perf_counter() - t0


def steady(paths: list[Path], backends: dict[str, Backend], args: argparse.Namespace) -> None:
    """Long-lived pools (the reward during training, a large filter): per backend one pool per
    bootcamp, warmed with ``--steady-warmup`` calls and settled, then timed on ``--steady``
    calls (no worker recycled meanwhile), against in-process on the same calls."""
    if args.steady <= 0:
        return
    inproc = 0.0
    pooled: dict[str, float] = dict.fromkeys(backends, 0.0)
    total = 0
    for path in paths:
        cls, code = load(path), path.read_text()
        items = workload(cls, args.steady + args.steady_warmup)
        warm, timed = items[: args.steady_warmup], items[args.steady_warmup :]
        t0 = time.perf_counter()
        expected = [cls.verify_score(r, i) for r, i in timed]
        inproc += time.perf_counter() - t0
        total += len(timed)
        for name, backend in backends.items():
            with WorkerPool(code, size=args.pool_size, backend=backend,
                            recycle_after=10 * len(items)) as pool:
                pool.verify_many(warm)
                settle(backends)
                t0 = time.perf_counter()
                got = pool.verify_many(timed)
                pooled[name] += time.perf_counter() - t0
            if [r.score for r in got] != expected:
                raise SystemExit(f"steady pool on {name} disagreed with in-process ({path.name})")
        settle(backends)
    rate_in = total / inproc
    print(f"\nsteady state: one pool per bootcamp, {args.steady_warmup} calls to warm it, then "
          f"{args.steady} timed ({total} calls)")
    print(f"{'mode':<28}{'calls/s':>12}{'x in-process':>14}")
    print(f"{'in-process (no isolation)':<28}{rate_in:>12.0f}{1.0:>13.2f}x")
    for name in backends:
        rate = total / pooled[name]
        print(f"{f'warm pool [{name}]':<28}{rate:>12.0f}{rate / rate_in:>13.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=2000, help="verify calls per bootcamp")
    ap.add_argument("--fresh", type=int, default=10, help="fresh-sandbox calls per bootcamp")
    ap.add_argument("--pool-size", type=int, default=2)
    ap.add_argument("--backends", default="process,bwrap,docker")
    ap.add_argument("--suite-reps", type=int, default=3)
    ap.add_argument("--steady", type=int, default=20000,
                    help="timed calls per bootcamp on a long-lived pool (0: skip)")
    ap.add_argument("--steady-warmup", type=int, default=1000)
    args = ap.parse_args()

    paths = sorted(p for p in LIBRARY.glob("*/*.py") if p.name != "__init__.py")
    if not paths:
        raise SystemExit(f"no library bootcamps under {LIBRARY}")
    backends = {n: b for n in args.backends.split(",") if (b := try_backend(n)) is not None}

    inproc_s = 0.0
    pool_s: dict[str, float] = dict.fromkeys(backends, 0.0)
    pool_start_s: dict[str, float] = dict.fromkeys(backends, 0.0)
    fresh_s: dict[str, float] = {}
    fresh_n = 0
    total = 0
    for path in paths:
        cls, code = load(path), path.read_text()
        items = workload(cls, args.calls)
        t0 = time.perf_counter()
        expected = [cls.verify_score(r, i) for r, i in items]
        inproc_s += time.perf_counter() - t0
        total += len(items)
        for name, backend in backends.items():
            settle(backends)  # no container start or removal of an earlier pool runs meanwhile
            t0 = time.perf_counter()
            with WorkerPool(code, size=args.pool_size, backend=backend) as pool:
                settle(backends)  # the spares this pool took are made again first
                t1 = time.perf_counter()
                got = pool.verify_many(items)
                pool_s[name] += time.perf_counter() - t1
                pool_start_s[name] += t1 - t0
            if [r.score for r in got] != expected:
                raise SystemExit(f"pool on {name} disagreed with in-process scores ({path.name})")
        sub = items[: args.fresh]
        for name in ("process", "docker"):
            if name in backends:
                fresh_s[name] = fresh_s.get(name, 0.0) + fresh_calls(
                    backends[name], code, sub, expected[: args.fresh]
                )
        fresh_n += len(sub)

    rate_in = total / inproc_s
    print(
        f"\nverify_score throughput ({len(paths)} library bootcamps, {total} calls; "
        f"pool size {args.pool_size}; fresh runs on {fresh_n} calls)"
    )
    print(f"{'mode':<28}{'calls/s':>12}{'x in-process':>14}{'x fresh proc':>14}")
    rows: list[tuple[str, float]] = [("in-process (no isolation)", rate_in)]
    for name in backends:
        rows.append((f"warm pool [{name}]", total / pool_s[name]))
    for name, secs in fresh_s.items():
        label = "fresh process per call" if name == "process" else f"fresh exec per call [{name}]"
        rows.append((label, fresh_n / secs))
    fresh_rate = fresh_n / fresh_s["process"] if "process" in fresh_s else None
    for label, rate in rows:
        vs_fresh = f"{rate / fresh_rate:>13.1f}x" if fresh_rate else f"{'-':>14}"
        print(f"{label:<28}{rate:>12.0f}{rate / rate_in:>13.2f}x{vs_fresh}")
    for name in backends:
        print(f"  pool start-up [{name}]: {pool_start_s[name] / len(paths):.2f} s per pool")

    steady(paths, backends, args)

    from synth.gate import run_checks

    print(f"\nfull check suite per candidate (median of {args.suite_reps} runs x {len(paths)})")
    print(f"{'backend':<12}{'median s':>10}{'max s':>10}{'passed':>10}")
    for name, backend in backends.items():
        times, passed = [], 0
        for _ in range(args.suite_reps):
            for path in paths:
                t0 = time.perf_counter()
                report = run_checks(path.read_text(), backend=backend, name=path.stem)
                times.append(time.perf_counter() - t0)
                passed += report.passed
        print(
            f"{name:<12}{statistics.median(times):>10.2f}{max(times):>10.2f}"
            f"{passed:>6}/{len(times)}"
        )


if __name__ == "__main__":
    main()
