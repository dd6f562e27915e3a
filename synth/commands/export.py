"""`synth export`: training data from a library."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

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
        "--format", help="jsonl | parquet (verl) | hf (a Hugging Face dataset, save_to_disk)")] = "jsonl",
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
) -> None:
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
