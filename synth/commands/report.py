"""`synth report RUN_ID`: yield, reasons, rounds, pass rates, cost and time of a run.

Prints rich tables, writes ``report.html`` into the run folder and, with ``--csv DIR``, every
underlying table as CSV.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from synth.commands.console import Console
from synth.commands.tables import NAME_HEADERS, name_column, other_column

if TYPE_CHECKING:  # pandas, jinja2 and openai (synth.models.llm) are imported when a report is made
    from synth.models.llm import Price
    from synth.reporting.report import Report

out = Console()
err = Console(stderr=True)

#: tables shown in the terminal, and the column drawn as a bar beside them
TERMINAL = {
    "yield": "tasks",
    "outcomes": "tasks",
    "reasons": "tasks",
    "rounds": "tasks",
    "pass_rates": "tasks",
    "calibration_levels": None,
    "steering": None,
    "repairs": None,
    "tokens_by_role": None,
    "tokens_by_stage": None,
    "cost_per_bootcamp": None,
    "time_by_node": None,
    "llm_latency": None,
    "sessions": None,
    "tasks": None,
}
#: columns left out in the terminal (the page and the CSV have them)
HIDDEN = {
    "yield": {"lost"},
    "pass_rates": {"low", "high", "in_band"},
    "reasons": {"example"},
    "steering": {"levels_before", "levels_after"},
    "repairs": {"example"},
    "tasks": {
        "reason",
        "bootcamp",
        "tokens_in",
        "tokens_out",
        "started",
        "drafted",
        "passed_gate",
        "passed_filter",
        "committed",
        "node_time_s",
        "llm_calls",
    },
}


def fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def recent_runs(runs_dir: Path, n: int = 5) -> list[str]:
    """The ids of the ``n`` most recently modified run folders."""
    if not runs_dir.is_dir():
        return []
    runs = [
        d
        for d in runs_dir.iterdir()
        if d.is_dir() and ((d / "config.json").exists() or (d / "events.jsonl").exists())
    ]
    runs.sort(key=lambda d: d.stat().st_mtime, reverse=True)
    return [d.name for d in runs[:n]]


def unknown_run_message(run_id: str, runs_dir: Path) -> str:
    if not runs_dir.is_dir():
        return f"no run {run_id!r}: the runs folder {runs_dir} does not exist; pass --runs-dir DIR"
    recent = recent_runs(runs_dir)
    if not recent:
        return f"no run {run_id!r} in {runs_dir}: it holds no runs; pass --runs-dir DIR"
    return f"no run {run_id!r} in {runs_dir}; most recent: {', '.join(recent)}"


def load_prices(path: Path) -> dict[str, Price]:
    from synth.models.llm import Price

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {str(k): Price.model_validate(v) for k, v in data.items()}
    except (OSError, ValueError, AttributeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc).splitlines()[0]
        raise fail(
            f"cannot read the price table {path}: {reason}; "
            'expected {"model": {"input_per_mtok": 3.0, "output_per_mtok": 15.0}}'
        ) from None


def _bar(value: float, top: float, width: int = 30) -> str:
    if top <= 0 or value <= 0:
        return ""
    cells = value / top * width
    return "█" * int(cells) + ("▌" if cells - int(cells) >= 0.5 else "") or "▏"


def rich_table(report: Report, name: str) -> Table:
    import pandas as pd

    from synth.reporting.report import TITLES, fmt, header

    df: pd.DataFrame = report.tables[name]
    bar_col = TERMINAL.get(name)
    columns = [c for c in df.columns if c not in HIDDEN.get(name, set())]
    title = TITLES[name]
    if name == "pass_rates":
        title += f" (◆ in band [{report.band[0]:.2f}, {report.band[1]:.2f}], ◇ partly)"
    table = Table(title=title, title_justify="left", title_style="bold")
    top = float(pd.to_numeric(df[bar_col]).max()) if bar_col and len(df) else 0.0
    rows = []
    for row in df.to_dict("records"):
        cells = [fmt(col, row[col]) for col in columns]
        if name == "pass_rates":
            cells[0] = {"yes": "◆ ", "partly": "◇ "}.get(row["in_band"], "  ") + cells[0]
        if bar_col:
            cells.append(f"[cyan]{_bar(float(row[bar_col]), top)}[/]")
        rows.append(cells)
    for i, col in enumerate(columns):
        numeric = pd.api.types.is_numeric_dtype(df[col]) and not pd.api.types.is_bool_dtype(df[col])
        justify = "right" if numeric else "left"
        if col in NAME_HEADERS:  # names whole at any width: the other columns wrap
            name_column(table, header(col), (r[i] for r in rows), justify=justify)
        else:
            other_column(table, header(col), justify=justify)
    if bar_col:
        table.add_column("")
    for cells in rows:
        table.add_row(*cells)
    return table


def print_report(report: Report, console: Console) -> None:
    from synth.reporting.report import fmt

    f = report.facts
    console.print(
        f"[bold]run {report.run_id}[/]: {f['accepted']} accepted of {f['tasks']} task(s) "
        f"({fmt('yield', f['yield'])} of started); {f['llm_calls']} model calls, "
        f"tokens {f['tokens_in']:,} in ({f['tokens_cached']:,} cached) / {f['tokens_out']:,} out, "
        f"{fmt('cost_usd', f['cost_usd'])}"
        f" ({fmt('cost_usd', f['cost_per_accepted_usd'])} per accepted bootcamp); "
        f"wall {f['wall_s']:,.1f}s in {f['sessions']} session(s)",
        highlight=False,
        soft_wrap=True,
    )
    for name in TERMINAL:
        if len(report.tables[name]):
            console.print(rich_table(report, name))


def report_command(
    run_id: Annotated[
        str, typer.Argument(help="The run: its id in --runs-dir, or the path of its folder.")
    ],
    runs_dir: Annotated[Path, typer.Option(help="Folder of run folders.")] = Path("runs"),
    csv: Annotated[
        Path | None, typer.Option("--csv", help="Also write every table as CSV into this folder.")
    ] = None,
    html: Annotated[bool, typer.Option(help="Write report.html into the run folder.")] = True,
    prices: Annotated[
        Path | None,
        typer.Option(
            help="Price the calls from this JSON table {model: {input_per_mtok, output_per_mtok}}."
        ),
    ] = None,
) -> None:
    """Summarise a run: yield per stage, rejection reasons, rounds, pass rates, cost and time."""
    from synth.reporting.report import ReportError, analyse, load_run, write_csv, write_html

    given = Path(run_id)
    if "/" in run_id and ((given / "events.jsonl").exists() or (given / "config.json").exists()):
        root = given  # a run folder's path works too
    elif (
        run_id and "/" not in run_id and run_id not in (".", "..") and (runs_dir / run_id).is_dir()
    ):
        root = runs_dir / run_id
    else:
        raise fail(unknown_run_message(run_id, runs_dir))
    table = load_prices(prices) if prices is not None else None
    try:
        report = analyse(load_run(root), table)
    except ReportError as exc:
        raise fail(
            f"{exc}; pick a run from: {', '.join(recent_runs(runs_dir)) or 'none'}"
        ) from None
    print_report(report, out)
    if html:
        path = write_html(report, root / "report.html")
        err.print(f"wrote {path}", highlight=False, soft_wrap=True)
    if csv is not None:
        try:
            paths = write_csv(report, csv)
        except OSError as exc:
            raise fail(
                f"cannot write CSV files into {csv}: {exc.strerror}; pick another --csv DIR"
            ) from None
        err.print(f"wrote {len(paths)} CSV files into {csv}", highlight=False, soft_wrap=True)
