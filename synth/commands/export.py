"""`synth export`: training data from a library."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from synth.commands.console import Console
from synth.commands.tables import add_columns

if TYPE_CHECKING:  # the CLI's start-up imports this module: pydantic only when exporting
    from synth.training.curriculum import LevelDifficulty

err = Console(stderr=True)


def export_command(
    out: Annotated[Path, typer.Option("--out", help="Output folder for train/test files.")],
    library: Annotated[Path | None, typer.Option(help="Library folder (default: shipped).")] = None,
    per_bootcamp: Annotated[int, typer.Option(help="Train rows per bootcamp.")] = 200,
    test_per_bootcamp: Annotated[int, typer.Option(help="Test rows per bootcamp.")] = 50,
    level: Annotated[str | None, typer.Option(help="Only this level (default: cycle levels).")] = None,
    seed: Annotated[int, typer.Option(help="Export seed; same seed, same bytes.")] = 0,
    fmt: Annotated[str, typer.Option(
        "--format", help="jsonl | parquet (verl) | hf (a Hugging Face dataset, save_to_disk) | "
        "code | code-parquet (one code row per compiled bootcamp: its prompt asks for a program, "
        "its ground truth is the bootcamp's test suite; jsonl or parquet)")] = "jsonl",
    curriculum: Annotated[bool, typer.Option(
        "--curriculum", help="Order train rows easy to hard by the library's per-level pass "
        "rates; writes curriculum.json with what each rate rests on.")] = False,
    workers: Annotated[
        int, typer.Option(help="Sandboxed method servers generating cases at once.")
    ] = min(4, os.cpu_count() or 1),
    bootcamp: Annotated[
        list[str] | None, typer.Option("--bootcamp", help="Only these bootcamps (repeatable).")
    ] = None,
    sandbox: Annotated[
        str, typer.Option("--sandbox", help="Backend that runs the bootcamps: auto | process | bwrap | docker.")
    ] = "auto",
    executor: Annotated[str, typer.Option(
        "--executor", help="local | ray: Ray tasks on a cluster, Ray Data writes parquet shards "
        "in train/ and test/ (with --format parquet; the ray extra).")] = "local",
    ray_address: Annotated[str | None, typer.Option(
        "--ray-address", help="The Ray cluster for --executor ray (default: RAY_ADDRESS, "
        "else a new local Ray).")] = None,
    tests_per_level: Annotated[int, typer.Option(
        "--tests-per-level", help="--format code: cases drawn per LEVELS level for each suite.")] = 10,
    stress_tests: Annotated[int, typer.Option(
        "--stress-tests", help="--format code: cases drawn from the class's STRESS preset "
        "(a class without STRESS: from a derived one, see --derive-stress).")] = 5,
    derive_stress: Annotated[bool, typer.Option(
        "--derive-stress/--no-derive-stress", help="--format code: a class without STRESS gets "
        "a stress preset grown from its hardest level within the statement's limits.")] = True,
    test_share: Annotated[float, typer.Option(
        "--test-share", help="--format code: share of the compiled bootcamps whose row goes to "
        "the test split (chosen by the seed).")] = 0.0,
) -> None:
    if fmt in ("code", "code-parquet"):
        unused = [flag for flag, used in (("--level", level is not None),
                                          ("--curriculum", curriculum),
                                          ("--executor ray", executor != "local"),
                                          ("--ray-address", ray_address is not None)) if used]
        if unused:
            err.print(f"[bold red]error:[/] {', '.join(unused)} does not apply to --format {fmt} "
                      "(one row per compiled bootcamp; --per-bootcamp and --test-per-bootcamp do "
                      "not apply either: see --tests-per-level, --stress-tests, --test-share)")
            raise typer.Exit(2)
        _export_code(out, library, seed, "parquet" if fmt == "code-parquet" else "jsonl",
                     bootcamp, sandbox, tests_per_level, stress_tests, test_share, derive_stress)
        return
    from pydantic import ValidationError
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from synth.library import LibraryError
    from synth.sandbox import SandboxUnavailableError
    from synth.training.export import ExportConfig, ExportError, export
    from synth.training.export_ray import RayExportSummary, RayUnavailableError

    try:
        cfg = ExportConfig(
            out=out,
            library=library,
            per_bootcamp=per_bootcamp,
            test_per_bootcamp=test_per_bootcamp,
            level=level,
            seed=seed,
            format=fmt,  # type: ignore[arg-type]
            workers=workers,
            bootcamps=bootcamp or None,
            sandbox=sandbox,  # type: ignore[arg-type]
            curriculum=curriculum,
            executor=executor,  # type: ignore[arg-type]
            ray_address=ray_address,
        )
    except ValidationError as exc:
        err.print(f"[bold red]error:[/] invalid option: {exc.errors()[0]['msg']} ({exc.errors()[0]['loc']})")
        raise typer.Exit(2) from exc

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=False,
    ) as bar:

        def progress(label: str, total: int) -> Callable[[int], None]:
            task = bar.add_task(f"{label:>5}", total=total)
            return lambda n: bar.advance(task, n)

        try:
            summary = export(cfg, progress)
        except ExportError as exc:
            err.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True, highlight=False)
            if exc.traceback:
                err.print(exc.traceback.rstrip()[-1500:], markup=False, highlight=False)
            err.print("nothing was written", highlight=False)
            raise typer.Exit(2) from exc
        except SandboxUnavailableError as exc:
            err.print(f"[bold red]error:[/] {exc}", soft_wrap=True)
            raise typer.Exit(2) from exc
        except (LibraryError, KeyError, ValueError, RayUnavailableError) as exc:
            err.print(f"[bold red]error:[/] {exc}", soft_wrap=True)
            raise typer.Exit(2) from exc

    table = Table(title=f"export to {out}")
    headers = ("bootcamp", "train", "test", "generated", "dup in split", "dup across", "short")
    rows = [[name, str(s.train), str(s.test), str(s.generated), str(s.dup_within_split),
             str(s.dup_across_splits), str(s.short_by)] for name, s in summary.per_bootcamp.items()]
    add_columns(table, headers, rows, **{h: {"justify": "right"} for h in headers[1:]})
    for row in rows:
        table.add_row(*row)
    err.print(table)
    err.print(
        f"wrote {summary.rows['train']} train and {summary.rows['test']} test rows "
        f"({summary.duplicates_dropped} duplicate prompts dropped) in {summary.elapsed_s:.2f}s "
        f"with {summary.workers} sandboxed method server(s) at a time ({summary.backend} backend, "
        f"{summary.servers_started} started): {', '.join(summary.files)}"
    )
    if isinstance(summary, RayExportSummary):
        err.print(f"on Ray at {summary.address}: {summary.tasks} generation tasks on "
                  f"{len(summary.task_nodes)} node(s); shards: " + ", ".join(
                      f"{split} {len(names)}" for split, names in summary.shards.items()),
                  highlight=False)
    if summary.curriculum is not None:
        _print_curriculum(summary.curriculum)
    if summary.spot_checked:
        err.print(f"spot-check: {summary.spot_checked} rows re-scored in fresh workers "
                  f"({summary.spot_check_s:.2f}s)", highlight=False)
    for name, why in summary.quarantined.items():
        err.print(f"[bold red]quarantined:[/] {escape(name)} -- its rows are left out and its "
                  f"library record is marked: {escape(why)}", soft_wrap=True, highlight=False)
    short = {n: s.short_by for n, s in summary.per_bootcamp.items() if s.short_by}
    if short:
        err.print(
            "[yellow]warning:[/] too few distinct prompts for: "
            + ", ".join(f"{n} (short by {k})" for n, k in short.items())
        )


def _print_curriculum(levels: list[LevelDifficulty]) -> None:
    table = Table(title="curriculum: train rows easy to hard")
    for col in ("bootcamp", "level", "hardness", "pass rate", "answers", "95% interval", "basis"):
        table.add_column(col, justify="left" if col in ("bootcamp", "level", "basis") else "right")
    for d in sorted(levels, key=lambda d: d.hardness):
        answers = "?" if d.samples is None else str(d.samples)
        if d.stopped_early:
            answers += " (early stop)"
        table.add_row(
            d.bootcamp, d.level, f"{d.hardness:.3f}",
            "-" if d.pass_rate is None else f"{d.pass_rate:.3f}",
            answers if d.pass_rate is not None else "-",
            "-" if d.interval is None else f"{d.interval[0]:.2f}-{d.interval[1]:.2f}",
            d.basis,
        )
    err.print(table)
    for d in levels:
        if note := d.note():
            err.print(f"[yellow]note:[/] {note}", soft_wrap=True, highlight=False)


def _export_code(out: Path, library: Path | None, seed: int, file_format: str,
                 bootcamps: list[str] | None, sandbox: str, tests_per_level: int,
                 stress_tests: int, test_share: float, derive_stress: bool = True) -> None:
    """``--format code``: :func:`synth.suites.export.export_code` and its table."""
    from pydantic import ValidationError
    from rich.markup import escape

    from synth.library import LibraryError
    from synth.sandbox import SandboxUnavailableError
    from synth.suites.build import BuildError
    from synth.suites.export import CodeExportConfig, export_code

    try:
        cfg = CodeExportConfig(out=out, library=library, bootcamps=bootcamps or None, seed=seed,
                               format=file_format,  # type: ignore[arg-type]
                               sandbox=sandbox,  # type: ignore[arg-type]
                               tests_per_level=tests_per_level, stress_tests=stress_tests,
                               test_share=test_share, derive_stress=derive_stress)
    except ValidationError as exc:
        err.print(f"[bold red]error:[/] invalid option: {exc.errors()[0]['msg']} "
                  f"({exc.errors()[0]['loc']})")
        raise typer.Exit(2) from exc
    try:
        summary = export_code(cfg, lambda line: err.print(escape(line), highlight=False))
    except BuildError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True, highlight=False)
        if exc.traceback:
            err.print(exc.traceback.rstrip()[-1500:], markup=False, highlight=False)
        err.print("nothing was written", highlight=False)
        raise typer.Exit(2) from exc
    except (SandboxUnavailableError, LibraryError, ValueError) as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from exc
    table = Table(title=f"code rows to {out}")
    headers = ("bootcamp", "tests", "per level", "left out", "limit s")
    rows = []
    for name, r in summary.built.items():
        dropped = r.dropped()
        rows.append([name, str(r.tests), " ".join(f"{lv} {s.kept}" for lv, s in r.levels.items()),
                     f"dup {dropped['duplicates']}, rejected {dropped['rejected']}, reference "
                     f"failed {dropped['reference_failed']}", f"{r.time_limit_s:g}"])
    add_columns(table, headers, rows, tests={"justify": "right"}, **{"limit s": {"justify": "right"}})
    for row in rows:
        table.add_row(*row)
    err.print(table)
    for name, r in summary.built.items():
        if r.stress_derived and r.derivation is not None:
            err.print(f"[yellow]note:[/] {escape(name)}: no STRESS preset; its stress tests come "
                      f"from a derived one: {escape(r.derivation.summary())}", highlight=False)
        elif r.stress is None:
            why = f" ({escape(r.derivation.summary())})" if r.derivation is not None else ""
            err.print(f"[yellow]note:[/] {escape(name)}: no STRESS preset, so no stress "
                      f"tests{why}", highlight=False)
        for line in r.rejected[:3]:
            err.print(f"  {escape(name)} left out an input: {escape(line)}", highlight=False)
        for line in r.example_disagreements[:3]:
            err.print(f"[yellow]warning:[/] {escape(name)}: an example: {escape(line)}",
                      highlight=False)
    for name, why in summary.skipped.items():
        err.print(f"skipped {escape(name)}: {escape(why)}", highlight=False)
    err.print(f"wrote {summary.rows['train']} train and {summary.rows['test']} test code rows in "
              f"{summary.elapsed_s:.2f}s ({summary.backend} backend): {', '.join(summary.files)}",
              highlight=False)
