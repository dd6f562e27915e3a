"""Check labelled solutions (correct and incorrect programs) against their task's reference.

Each task folder ``<root>/codecontests/<slug>/`` holds ``inputs.py`` (``generate(rng, size)``, and
optionally ``validate(text)`` that raises on an illegal input), ``correct/<style>.py`` and
``incorrect/<kind>__<short>.py``. The reference is the record's first Python 3 solution in the
CodeContests sample (``--records``); the folder's name is the record's task id. Checked:

- every generated input (``--small`` small, ``--medium`` medium, ``--limit`` limit) is run by the
  reference without error (and passes ``validate`` if the generator has one);
- every correct program prints the reference's tokens on the record's public and private tests
  and on every small and medium input, and on the limit inputs within 2x the reference's time
  + 0.2 s (a slow run is measured once more, both programs, and the faster runs compared);
- every incorrect program other than ``too_slow`` is caught (different tokens or a failed run,
  not a timeout) on some generated input; ``large_only`` ones agree on every small input;
  ``too_slow`` ones agree on every small input and take more than the suites' time factor (2.5x,
  ``synth.suites.build.TIME_FACTOR``) times the reference's time and
  more than 1 s on some limit input (killed at ``--slow-timeout`` s).

A table row per program, then a summary; the exit code is 1 when any condition fails.

    .venv/bin/python bench/labelled/check_labels.py bench/labelled [TASK ...] [--workers 2]

A TASK is a folder name, a task id (``codecontests/<slug>``) or a prefix of the folder name
(``03`` for ``03-b-quietest-...``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from synth.suites.build import TIME_FACTOR as SLOW_FACTOR  # noqa: E402
from synth.tasks import make_task_id  # noqa: E402

KINDS = ("off_by_one", "wrong_greedy", "edge_case", "format", "too_slow", "large_only")
SIZES = ("small", "medium", "limit")
SOURCE = "codecontests"
PYTHON3 = 3
MIN_CORRECT = 3
MIN_INCORRECT = 6


@dataclass
class Run:
    out: str
    code: int
    seconds: float
    timed_out: bool
    err: str

    @property
    def ok(self) -> bool:
        return self.code == 0 and not self.timed_out


def run_program(path: Path, stdin: str, timeout: float) -> Run:
    """One subprocess of this interpreter on ``path``; on a timeout its process group is killed."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        out, err = proc.communicate(stdin.encode(), timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        timed_out = True
    seconds = time.perf_counter() - start
    return Run(out.decode(errors="replace"), proc.returncode, seconds, timed_out,
               err.decode(errors="replace")[-300:])


def same(a: str, b: str) -> bool:
    return a.split() == b.split()


@dataclass
class Inputs:
    tests: list[str]               # the record's public then private test inputs
    public: int                    # how many of ``tests`` are public
    sized: dict[str, list[str]]    # size -> generated inputs


@dataclass
class Reference:
    path: Path
    tests: list[str]               # its outputs on Inputs.tests
    sized: dict[str, list[str]]    # its outputs on the generated inputs
    limit_s: list[float]           # its seconds on each limit input


@dataclass
class Row:
    task: str
    program: str
    kind: str
    ok: bool
    detail: str


@dataclass
class TaskResult:
    task: str
    rows: list[Row] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def fail(self, message: str) -> None:
        self.problems.append(message)


class Checker:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.pool = ThreadPoolExecutor(max_workers=max(1, args.workers))

    def many(self, path: Path, stdins: Iterable[str], timeout: float) -> list[Run]:
        return list(self.pool.map(lambda s: run_program(path, s, timeout), stdins))

    def first_catch(self, path: Path, stdins: list[str], expected: list[str],
                    timeout: float) -> tuple[int | None, str]:
        """Index of the first input where ``path`` is caught (tokens differ or the run fails,
        a timeout excepted) and a note; batches of ``workers`` runs, stopping after a catch."""
        step = max(1, self.args.workers) * 4
        timeouts = 0
        for lo in range(0, len(stdins), step):
            runs = self.many(path, stdins[lo:lo + step], timeout)
            for i, run in enumerate(runs, lo):
                if run.timed_out:
                    timeouts += 1
                elif not run.ok:
                    return i, f"exit {run.code}: {run.err.strip().splitlines()[-1:]}"
                elif not same(run.out, expected[i]):
                    return i, "wrong output"
        return None, f"{timeouts} timeouts" if timeouts else ""


def load_records(path: Path) -> dict[str, dict]:
    records = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                rec = json.loads(line)
                records[make_task_id(SOURCE, rec["name"], rec["description"])] = rec
    return records


def load_generator(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"labelled_inputs_{path.parent.name}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def header_ok(path: Path) -> bool:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            return line.lstrip().startswith("#")
    return False


def reference_source(rec: dict) -> str:
    sols = rec.get("solutions") or {}
    for lang, code in zip(sols.get("language", []), sols.get("solution", []), strict=False):
        if lang == PYTHON3 or lang == "PYTHON3":
            return code
    raise ValueError(f"record {rec['name']!r} has no Python 3 solution")


def generate(module: ModuleType, task_id: str, args: argparse.Namespace,
             result: TaskResult) -> dict[str, list[str]]:
    counts = {"small": args.small, "medium": args.medium, "limit": args.limit}
    gen: Callable[[random.Random, str], str] = module.generate
    validate = getattr(module, "validate", None)
    sized: dict[str, list[str]] = {}
    for size in SIZES:
        sized[size] = []
        for i in range(counts[size]):
            text = gen(random.Random(f"{args.seed}|{task_id}|{size}|{i}"), size)
            if not isinstance(text, str) or not text.strip():
                result.fail(f"inputs.py: {size} #{i} is not a non-empty string")
                continue
            if validate is not None:
                try:
                    validate(text)
                except Exception as exc:
                    result.fail(f"inputs.py: {size} #{i} fails validate: {exc!r}")
            sized[size].append(text)
    return sized


def check_reference(checker: Checker, path: Path, rec: dict, inputs: Inputs,
                    result: TaskResult) -> Reference:
    args = checker.args
    tests_out = []
    expected = rec["public_tests"]["output"] + rec["private_tests"]["output"]
    for i, (run, want) in enumerate(zip(checker.many(path, inputs.tests, args.timeout),
                                        expected, strict=True)):
        if not run.ok or not same(run.out, want):
            result.fail(f"reference: record test #{i} does not reproduce its output")
        tests_out.append(run.out)
    sized: dict[str, list[str]] = {}
    limit_s: list[float] = []
    for size in SIZES:
        stdins = inputs.sized[size]
        # limit inputs are timed: one at a time
        runs = ([run_program(path, s, args.timeout) for s in stdins] if size == "limit"
                else checker.many(path, stdins, args.timeout))
        bad = [i for i, r in enumerate(runs) if not r.ok or not r.out.strip()]
        if bad:
            r = runs[bad[0]]
            result.fail(f"reference rejects {len(bad)} {size} input(s), first #{bad[0]}: "
                        f"exit {r.code} timeout={r.timed_out} {r.err.strip()[-120:]!r}")
        sized[size] = [r.out for r in runs]
        if size == "limit":
            limit_s = [r.seconds for r in runs]
    secs = ", ".join(f"{s:.2f}" for s in limit_s)
    result.rows.append(Row(result.task, "reference", "-", not result.problems,
                           f"all {sum(len(v) for v in inputs.sized.values())} inputs run; "
                           f"limit s: {secs}"))
    return Reference(path, tests_out, sized, limit_s)


def check_correct(checker: Checker, path: Path, inputs: Inputs, ref: Reference,
                  result: TaskResult) -> None:
    args = checker.args
    name = f"correct/{path.name}"
    problems = []
    runs = checker.many(path, inputs.tests, args.timeout)
    bad = [i for i, (r, want) in enumerate(zip(runs, ref.tests, strict=True))
           if not r.ok or not same(r.out, want)]
    if bad:
        problems.append(f"record tests differ: #{bad}")
    for size in ("small", "medium"):
        at, note = checker.first_catch(path, inputs.sized[size], ref.sized[size], args.timeout)
        if at is not None or note:
            problems.append(f"{size} #{at}: {note}")
    worst = 0.0
    for i, stdin in enumerate(inputs.sized["limit"]):
        run = run_program(path, stdin, args.slow_timeout)
        ref_s = ref.limit_s[i]
        if run.ok and run.seconds > 2 * ref_s + 0.2:  # noise on a shared machine: once more
            again = run_program(path, stdin, args.slow_timeout)
            ref_s = min(ref_s, run_program(ref.path, stdin, args.slow_timeout).seconds)
            if again.ok and again.seconds < run.seconds:
                run = again
        if not run.ok or not same(run.out, ref.sized["limit"][i]):
            problems.append(f"limit #{i}: {'timeout' if run.timed_out else 'differs'}")
            continue
        worst = max(worst, run.seconds / max(ref_s, 1e-9))
        if run.seconds > 2 * ref_s + 0.2:
            problems.append(f"limit #{i}: {run.seconds:.2f} s > 2 x {ref_s:.2f} + 0.2")
    detail = "; ".join(problems) if problems else f"agrees on all; limit time <= {worst:.2f}x ref"
    result.rows.append(Row(result.task, name, "correct", not problems, detail))
    for p in problems:
        result.fail(f"{name}: {p}")


def passes_examples(checker: Checker, path: Path, inputs: Inputs, ref: Reference) -> bool:
    runs = checker.many(path, inputs.tests[:inputs.public], checker.args.timeout)
    return all(r.ok and same(r.out, want) for r, want in zip(runs, ref.tests, strict=False))


def check_incorrect(checker: Checker, path: Path, inputs: Inputs, ref: Reference,
                    result: TaskResult) -> None:
    args = checker.args
    name = f"incorrect/{path.name}"
    kind = path.stem.split("__", 1)[0]
    examples = "passes examples" if passes_examples(checker, path, inputs, ref) else \
        "fails examples"
    problems: list[str] = []
    detail = ""
    if kind in ("too_slow", "large_only"):
        at, note = checker.first_catch(path, inputs.sized["small"], ref.sized["small"],
                                       args.timeout)
        if at is not None or note:
            problems.append(f"not right on small inputs (#{at}: {note})")
    if kind == "too_slow":
        slow = None
        for i, stdin in enumerate(inputs.sized["limit"]):
            run = run_program(path, stdin, args.slow_timeout)
            bound = max(SLOW_FACTOR * ref.limit_s[i], 1.0)
            if run.timed_out or run.seconds > bound:
                slow = (i, run.seconds, run.timed_out)
                break
            if not run.ok or not same(run.out, ref.sized["limit"][i]):
                problems.append(f"limit #{i}: wrong output (not merely slow)")
        if slow is None:
            problems.append(f"never slower than max({SLOW_FACTOR:g}x ref, 1 s) on a limit input")
        else:
            i, secs, killed = slow
            detail = (f"slow on limit #{i}: {'killed at ' if killed else ''}{secs:.2f} s vs ref "
                      f"{ref.limit_s[i]:.2f} s")
    else:
        caught = None
        for size in SIZES:
            if kind == "large_only" and size == "small":
                continue
            timeout = args.slow_timeout if size == "limit" else args.timeout
            at, note = checker.first_catch(path, inputs.sized[size], ref.sized[size], timeout)
            if at is not None:
                caught = f"caught on {size} #{at} ({note})"
                break
        if caught is None:
            problems.append("never caught on a generated input")
        else:
            detail = caught
    text = "; ".join(problems + ([detail] if detail else []) + [examples])
    result.rows.append(Row(result.task, name, kind, not problems, text))
    for p in problems:
        result.fail(f"{name}: {p}")


def check_task(checker: Checker, folder: Path, rec: dict, task_id: str) -> TaskResult:
    result = TaskResult(folder.name)
    correct = sorted((folder / "correct").glob("*.py"))
    incorrect = sorted((folder / "incorrect").glob("*.py"))
    if len(correct) < MIN_CORRECT:
        result.fail(f"{len(correct)} correct programs (at least {MIN_CORRECT})")
    if len(incorrect) < MIN_INCORRECT:
        result.fail(f"{len(incorrect)} incorrect programs (at least {MIN_INCORRECT})")
    for path in incorrect:
        if path.stem.split("__", 1)[0] not in KINDS or "__" not in path.stem:
            result.fail(f"incorrect/{path.name}: name is not <kind>__<short>.py, kind in {KINDS}")
    for path in [*correct, *incorrect, folder / "inputs.py"]:
        if path.exists() and not header_ok(path):
            result.fail(f"{path.relative_to(folder)}: does not start with a comment")
    module = load_generator(folder / "inputs.py")
    tests = rec["public_tests"]["input"] + rec["private_tests"]["input"]
    inputs = Inputs(tests, len(rec["public_tests"]["input"]),
                    generate(module, task_id, checker.args, result))
    with tempfile.TemporaryDirectory() as tmp:
        ref_path = Path(tmp) / "reference.py"
        ref_path.write_text(reference_source(rec), encoding="utf-8")
        ref = check_reference(checker, ref_path, rec, inputs, result)
        for path in correct:
            check_correct(checker, path, inputs, ref, result)
        for path in incorrect:
            check_incorrect(checker, path, inputs, ref, result)
    return result


def select(root: Path, wanted: list[str]) -> list[Path]:
    folders = sorted(p for p in (root / SOURCE).iterdir() if p.is_dir())
    if not wanted:
        return folders
    chosen = []
    for w in wanted:
        w = w.removeprefix(f"{SOURCE}/")
        hits = [p for p in folders if p.name == w] or [p for p in folders
                                                       if p.name.startswith(w)]
        if len(hits) != 1:
            raise SystemExit(f"check_labels: {w!r} matches {len(hits)} task folders under "
                             f"{root / SOURCE}; give a folder name or a longer prefix")
        chosen.append(hits[0])
    return chosen


def summary_line(res: TaskResult, folder: Path) -> str:
    kinds = Counter(p.stem.split("__", 1)[0] for p in (folder / "incorrect").glob("*.py"))
    n_correct = len(list((folder / "correct").glob("*.py")))
    by_kind = " ".join(f"{k}={kinds[k]}" for k in KINDS if kinds[k])
    status = "OK" if not res.problems else f"FAIL ({len(res.problems)})"
    return (f"{res.task:<48} {status:<9} correct={n_correct} incorrect={sum(kinds.values())} "
            f"[{by_kind}]")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", type=Path, help="the labelled root (holds codecontests/<task>/)")
    ap.add_argument("tasks", nargs="*", help="task folder names, ids or prefixes (default: all)")
    ap.add_argument("--records", type=Path,
                    default=REPO / "task_descriptions" / "codecontests" / "sample.jsonl")
    ap.add_argument("--small", type=int, default=150)
    ap.add_argument("--medium", type=int, default=30)
    ap.add_argument("--limit", type=int, default=3)
    ap.add_argument("--seed", default="0", help="seed of the generated inputs")
    ap.add_argument("--workers", type=int, default=2, help="parallel untimed runs")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per untimed run")
    ap.add_argument("--slow-timeout", type=float, default=10.0,
                    help="seconds before a limit run is killed")
    args = ap.parse_args()

    records = load_records(args.records)
    checker = Checker(args)
    results = []
    start = time.perf_counter()
    for folder in select(args.root, args.tasks):
        task_id = f"{SOURCE}/{folder.name}"
        if task_id not in records:
            res = TaskResult(folder.name)
            res.fail(f"no record in {args.records} has the task id {task_id}")
        else:
            t0 = time.perf_counter()
            res = check_task(checker, folder, records[task_id], task_id)
            print(f"== {folder.name} ({time.perf_counter() - t0:.0f} s)", flush=True)
        for row in res.rows:
            print(f"  {'ok  ' if row.ok else 'FAIL'} {row.program:<44} {row.kind:<12} "
                  f"{row.detail}", flush=True)
        for p in res.problems:
            print(f"  problem: {p}", flush=True)
        results.append((res, folder))
    print("\nSummary")
    for res, folder in results:
        print("  " + summary_line(res, folder))
    failed = sum(1 for res, _ in results if res.problems)
    print(f"{len(results)} task(s), {failed} failing, {time.perf_counter() - start:.0f} s")
    checker.pool.shutdown()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
