"""`synth suite-eval`: measure compiled bootcamps' code test suites on labelled solutions.

Reads labelled programs (``--labelled DIR``: one folder per task, ``correct/`` and
``incorrect/<kind>__<short>.py``; or ``--codecontests FILE``: a data file's Python 3 solutions
and incorrect solutions), builds the suite of each task's compiled bootcamp, runs every program
on every test in the sandbox and prints TPR and TNR for the examples alone, the suite without
its stress level and the full suite, which tests catch which faults, the correct programs a test
rejects, and the size of a minimised suite (:mod:`synth.suites.evaluate`). A class without STRESS
gets a derived stress preset (:mod:`synth.suites.stress`; ``--no-derive-stress``: none), and the
report says so. ``--json FILE`` writes every number.

Exit status: 0 measured; 2 a usage or infrastructure error (no such folder, no sandbox, a
bootcamp that cannot give its suite).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from synth.commands.console import Console
from synth.commands.library import LibraryOpt, SandboxOpt, fail, open_library
from synth.commands.tables import add_columns

if TYPE_CHECKING:
    from synth.suites.evaluate import EvalReport, SuiteNumbers

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)


def suite_eval_command(
    labelled: Annotated[Path | None, typer.Option(
        "--labelled", help="Folder of labelled tasks (e.g. bench/labelled/codecontests): "
        "<task>/correct/*.py and <task>/incorrect/<kind>__<short>.py.")] = None,
    codecontests: Annotated[Path | None, typer.Option(
        "--codecontests", help="A CodeContests data file (jsonl/parquet): its Python 3 "
        "solutions (correct) and incorrect_solutions (incorrect).")] = None,
    task: Annotated[list[str] | None, typer.Option(
        "--task", help="Only these tasks (folder names or task ids; repeatable).")] = None,
    source: Annotated[str, typer.Option(
        help="The source of --labelled's tasks: a folder NAME is the task <source>/NAME.")
    ] = "codecontests",
    library: LibraryOpt = None,
    sandbox: SandboxOpt = "auto",
    seed: Annotated[int, typer.Option(help="Seed of the suites' cases.")] = 0,
    tests_per_level: Annotated[int, typer.Option(
        "--tests-per-level", help="Cases drawn per LEVELS level.")] = 10,
    stress_tests: Annotated[int, typer.Option(
        "--stress-tests", help="Cases drawn from the class's STRESS preset.")] = 5,
    derive_stress: Annotated[bool, typer.Option(
        "--derive-stress/--no-derive-stress", help="A class without STRESS: derive a stress "
        "preset from its hardest level (grown within the statement's limits).")] = True,
    verify: Annotated[bool, typer.Option(
        "--verify/--no-verify", help="--codecontests: keep only solutions that reproduce the "
        "public tests in the sandbox.")] = True,
    json_out: Annotated[Path | None, typer.Option(
        "--json", help="Write every number (per task, per program, overall) to this file.")] = None,
) -> None:
    """Measure code test suites on labelled solutions: TPR, TNR, catches, minimisation."""
    from pydantic import ValidationError

    from synth.library import LibraryError
    from synth.sandbox import BACKEND_NAMES, SandboxUnavailableError, get_backend
    from synth.suites.build import BuildError, BuildOptions
    from synth.suites.evaluate import suite_eval
    from synth.suites.labelled import read_codecontests, read_labelled

    if sandbox not in BACKEND_NAMES:
        raise fail(f"--sandbox must be one of {', '.join(BACKEND_NAMES)}, not {sandbox!r}")
    if (labelled is None) == (codecontests is None):
        raise fail("give one of --labelled DIR or --codecontests FILE")
    try:
        options = BuildOptions(seed=seed, per_level=tests_per_level, stress=stress_tests,
                               derive_stress=derive_stress)
    except ValidationError as exc:
        raise fail(f"invalid option: {exc.errors()[0]['msg']} ({exc.errors()[0]['loc']})") from exc
    try:
        backend = get_backend(sandbox)
        if labelled is not None:
            tasks = read_labelled(labelled, source, task or None)
            skipped: list[str] = []
        else:
            assert codecontests is not None
            tasks, skipped = read_codecontests(codecontests, verify=verify, backend=sandbox)
            if task:
                tasks = [t for t in tasks if t.task_id in task or t.task_id.split("/", 1)[-1]
                         in task]
        report = suite_eval(tasks, library=open_library(library), backend=backend,
                            options=options, progress=lambda line: err.print(escape(line)))
    except FileNotFoundError as exc:
        raise fail(str(exc)) from exc
    except BuildError as exc:
        raise fail(str(exc), traceback=exc.traceback) from exc
    except (SandboxUnavailableError, LibraryError, ValueError) as exc:
        raise fail(str(exc)) from exc
    for line in skipped[:20]:
        err.print(f"skipped a record: {escape(line)}")
    print_report(report)
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(report.plain(), indent=2) + "\n", encoding="utf-8")
        err.print(f"wrote {json_out}")


def _rate(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def _pair(n: SuiteNumbers) -> str:
    return f"{_rate(n.tpr)} / {_rate(n.tnr)}"


def _print_times(report: EvalReport, con: Console) -> None:
    """Per task, the time limit beside the most CPU time one test took: the reference's, the
    slowest correct program's, each too-slow program's (or the tests it was killed on)."""
    if report.tasks:
        con.print("CPU time, the most one test took (s): limit / reference / slowest correct "
                  "program; too slow: each too_slow program")
    for t in report.tasks:
        right = [p.slowest_cpu_s for p in t.programs if p.correct]
        slow = [f"killed on {p.killed}" if p.killed else f"{p.slowest_cpu_s:.2f}"
                for p in t.programs if p.kind == "too_slow"]
        correct = f"{max(right):.2f}" if right else "-"
        line = (f"  {t.task_id.split('/', 1)[-1]}: {t.time_limit_s:g} / {t.build.slowest_s:.2f}"
                f" / {correct}" + (f"; too slow: {', '.join(slow)}" if slow else ""))
        con.print(escape(line))


def print_report(report: EvalReport, console: Console | None = None) -> None:
    """The tables of a suite-eval report (stdout by default)."""
    con = console or out
    headers = ("task", "bootcamp", "programs", "examples", "no stress", "full", "tests")
    rows = []
    for t in report.tasks:
        s = t.suites
        rows.append([t.task_id.split("/", 1)[-1], t.bootcamp,
                     f"{s['full'].correct} + {s['full'].incorrect}",
                     _pair(s["examples"]), _pair(s["no_stress"]) if t.has_stress else "(no STRESS)",
                     _pair(s["full"]), f"{t.minimised.size} of {t.minimised.full_size}"])
    overall = report.overall()
    if report.tasks:
        rows.append(["overall", f"{len(report.tasks)} suite(s)",
                     f"{overall['full'].correct} + {overall['full'].incorrect}",
                     _pair(overall["examples"]), _pair(overall["no_stress"]),
                     _pair(overall["full"]),
                     f"{sum(t.minimised.size for t in report.tasks)} of "
                     f"{sum(t.minimised.full_size for t in report.tasks)}"])
    table = Table(title="suite-eval: TPR / TNR in % (correct programs passing / incorrect "
                  "failing); programs: correct + incorrect; tests: minimised of full; task: the "
                  "task id after its source")
    add_columns(table, headers, rows)
    for row in rows:
        table.add_row(*row)
    con.print(table)
    catches = report.catches()
    if catches:
        kinds = Table(title="which tests catch which faults (incorrect programs, by kind)")
        heads = ("kind", "programs", "examples", "a level", "stress only", "missed")
        kind_rows = [[k, str(c["programs"]), str(c["examples"]), str(c["levels"]),
                      str(c["stress"]), str(c["missed"])] for k, c in catches.items()]
        add_columns(kinds, heads, kind_rows)
        for row in kind_rows:
            kinds.add_row(*row)
        con.print(kinds)
    _print_times(report, con)
    for t in report.tasks:
        for line in t.false_rejections:
            con.print(f"[yellow]a correct program fails[/] {escape(t.task_id)}: {escape(line)}")
        for p in t.programs:
            if not p.correct and p.caught_by == "missed":
                con.print(f"[yellow]not caught[/] {escape(t.task_id)}: {escape(p.name)}")
        derivation = t.build.derivation
        if t.stress_derived and derivation is not None:
            con.print(f"note: {escape(t.bootcamp)} declares no STRESS: its stress tests come "
                      f"from a derived preset: {escape(derivation.summary())}")
        elif not t.has_stress:
            why = f" ({escape(derivation.summary())})" if derivation is not None else ""
            con.print(f"note: {escape(t.bootcamp)} declares no STRESS: no stress tests{why}")
    for u in report.unmatched:
        con.print(f"no suite for {escape(u.task_id)}: {escape(u.why)}")
    for line in report.problems:
        con.print(f"[yellow]labelled folder:[/] {escape(line)}")
    con.print(f"measured {len(report.tasks)} suite(s) in {report.elapsed_s:.1f} s; minimised "
              "suites by greedy set cover (the examples plus the fewest tests, greedily, that "
              "still reject every incorrect program the full suite rejects)")
