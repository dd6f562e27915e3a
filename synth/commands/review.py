"""`synth review ...`: list, show, accept and reject bootcamps awaiting review; `--serve` the page.

    synth review [--library DIR] [--runs-dir DIR] [--status pending-review|accepted|rejected-in-review|all]
    synth review show NAME [--per-level N] [--json]
    synth review accept NAME
    synth review reject NAME --reason TEXT
    synth review --serve [--port P]          # http://127.0.0.1:P/ (loopback only)

Mount with ``app.add_typer(review_cmd.app, name="review")``.
"""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from synth.commands.console import Console
from synth.commands.tables import name_column, other_column

if TYPE_CHECKING:  # synth.reporting.review pulls in the gate, the filter and the sandbox: imported on use
    from synth.library import Library
    from synth.reporting.review import Review

app = typer.Typer(invoke_without_command=True, no_args_is_help=False)
out = Console()
err = Console(stderr=True)

LibraryOpt = Annotated[
    Path | None,
    typer.Option("--library", help="Library folder (default: the shipped generated_bootcamps/)."),
]
RunsOpt = Annotated[
    Path | None, typer.Option("--runs-dir", help="Folder of run folders (default: runs/).")
]
SandboxOpt = Annotated[
    str, typer.Option("--sandbox", help="Backend that draws sample cases: auto | process | bwrap | docker.")
]


@dataclass
class Options:
    library: Path | None
    runs_dir: Path | None
    sandbox: str


def fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def _opts(ctx: typer.Context, library: Path | None, runs_dir: Path | None, sandbox: str | None) -> Options:
    parent = ctx.obj if isinstance(ctx.obj, Options) else Options(None, None, "auto")
    return Options(library or parent.library, runs_dir or parent.runs_dir, sandbox or parent.sandbox)


def _library(path: Path | None) -> Library:
    from synth.library import Library

    return Library(path) if path is not None else Library()


def _runs(path: Path | None) -> Path:
    return (path or Path("runs")).resolve()


@app.callback()
def review_main(
    ctx: typer.Context,
    library: LibraryOpt = None,
    runs_dir: RunsOpt = None,
    status: Annotated[
        str, typer.Option(help="pending-review | accepted | rejected-in-review | all")
    ] = "pending-review",
    serve: Annotated[bool, typer.Option("--serve", help="Serve the review page on 127.0.0.1.")] = False,
    port: Annotated[int, typer.Option(help="Port of --serve (0: any free port).", min=0, max=65535)] = 8765,
    sandbox: SandboxOpt = "auto",
) -> None:
    """Review bootcamps before they go live: list (default: pending review), show, accept, reject."""
    ctx.obj = Options(library, runs_dir, sandbox)
    if ctx.invoked_subcommand is not None:
        if serve:
            raise fail("--serve runs the web page; it does not combine with a subcommand")
        return
    if serve:
        _serve(_library(library), _runs(runs_dir), port, sandbox)
        return
    _list(_library(library), status)


def _list(lib: Library, status: str) -> None:
    from synth.library import LibraryError
    from synth.reporting.review import ReviewError, list_records

    try:
        records = list_records(lib, status)
    except (ReviewError, LibraryError) as exc:
        raise fail(str(exc)) from exc
    label = "all statuses" if status == "all" else status
    table = Table(title=f"{len(records)} bootcamp(s), {label}, in {lib.root}", title_justify="left")
    wide = out.width >= 110  # the run id only when there is room for it
    # the name on one line at any width (its reason, under it, wraps)
    table.add_column("bootcamp", overflow="fold",
                     min_width=max([14, *(len(r.name) for r in records)]))
    table.add_column("status", no_wrap=True)
    table.add_column("source", overflow="fold")
    table.add_column("pass rate", justify="right")
    table.add_column("per level", overflow="fold")
    if wide:
        table.add_column("run", overflow="fold")
    for rec in records:
        cell = Text(rec.name, style="bold")
        if rec.review_reason:
            cell.append(f"\nreason: {rec.review_reason}", style="red")
        table.add_row(
            cell, Text(rec.status), Text(rec.source),
            "-" if rec.pass_rate is None else f"{rec.pass_rate:.2f}\nK={rec.samples}",
            Text("\n".join(f"{k} {v:.2f}" for k, v in rec.level_pass_rates.items()) or ",".join(rec.levels)),
            *([Text(rec.run_id or "-")] if wide else []),
        )
    out.print(table)
    if not records and status == "pending-review":
        out.print("nothing awaits review (see --status all)")


@app.command("show")
def show_command(
    ctx: typer.Context,
    name: str,
    library: LibraryOpt = None,
    runs_dir: RunsOpt = None,
    sandbox: Annotated[str | None, typer.Option("--sandbox", help="auto | process | bwrap | docker")] = None,
    per_level: Annotated[int, typer.Option(help="Sample cases per level.", min=0, max=20)] = 2,
    episodes: Annotated[int, typer.Option(
        help="Multi-turn bootcamps: reference episodes played per level (of the sample cases).",
        min=0, max=20)] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print everything as one JSON object.")] = False,
) -> None:
    """Show a bootcamp: record, code, sample cases per level, solver verdicts, gate report, diffs;
    a multi-turn bootcamp's reference and solver episodes turn by turn."""
    from synth.library import LibraryError
    from synth.reporting.review import ReviewError, as_dict, gather

    o = _opts(ctx, library, runs_dir, sandbox)
    try:
        review = gather(_library(o.library), name, _runs(o.runs_dir), backend=o.sandbox,
                        per_level=per_level, episodes_per_level=episodes)
    except (ReviewError, LibraryError) as exc:
        raise fail(str(exc)) from exc
    if as_json:
        typer.echo(json.dumps(as_dict(review), ensure_ascii=False, indent=1))
        return
    print_review(review)


def _kv(rows: list[tuple[str, object]]) -> Table:
    grid = Table.grid(padding=(0, 2))
    for key, value in rows:
        if value not in (None, "", {}, []):
            grid.add_row(Text(key, style="bold"), Text(str(value)))
    return grid


def print_review(review: Review) -> None:
    """Print a review to the terminal; untrusted text is printed as Text, never as markup."""
    from rich.syntax import Syntax

    rec = review.record
    out.print(Panel(_kv([
        ("status", rec.status), ("review reason", rec.review_reason), ("title", rec.title),
        ("source", rec.source), ("task", rec.task_id), ("origin", rec.origin), ("class", rec.class_name),
        ("module", rec.module_path), ("pass rate", None if rec.pass_rate is None else
                                      f"{rec.pass_rate:.3f} over {rec.samples} answers"),
        ("calibration", ", ".join(f"{lvl}={r:.2f} (n={n})" for lvl, r, n in review.calibration())),
        ("band", f"[{review.band[0]}, {review.band[1]}]" if review.run_dir else None),
        ("coder", rec.coder_model),
        ("solver", rec.solver_model), ("prompt", rec.prompt_version), ("run", rec.run_id),
        ("sha256", rec.code_sha256), ("created", rec.created_at),
    ]), title=Text(f"{rec.name} ({rec.class_name})"), title_align="left"))
    for note in review.notes:
        out.print(Text(f"note: {note}", style="yellow"))
    out.print(Panel(Syntax(review.code, "python", line_numbers=True, word_wrap=True),
                    title=Text(f"code {'(sha256 ok)' if review.code_matches else '(sha256 MISMATCH)'}")))
    if review.samples_error:
        out.print(Text(f"sample cases: {review.samples_error}", style="red"))
    for level, cases in review.samples_by_level().items():
        for case in cases:
            out.print(Panel(Group(
                Text("prompt", style="bold"), Text(case.prompt),
                Text("reference answer", style="bold"), Text(case.answer, style="green"),
            ), title=Text(f"sample case: level {level}, seed {case.seed}"), title_align="left"))
    _print_episodes(review)
    if review.filter is not None:
        f = review.filter
        table = Table(title=Text(f"solver responses: {f.verdict}: {f.reason}"), title_justify="left")
        for col in ("#", "level", "prompt", "response", "score", "verdict"):
            table.add_column(col, overflow="fold")
        for s in f.samples:
            verdict = ("right" if s.score == 1.0 else "partial" if s.score else "wrong") \
                if s.score is not None else s.outcome
            table.add_row(str(s.index), Text(s.level), Text(s.prompt_head[:120]),
                          Text((s.response or s.error or "")[:160]),
                          "-" if s.score is None else f"{s.score:g}", Text(verdict))
        out.print(table)
    if review.gate is not None:
        g = review.gate
        table = Table(title=f"gate report of {review.winner.label if review.winner else '?'} "
                      f"({'passed' if g.passed else 'FAILED'}, backend {g.backend})", title_justify="left")
        for col in ("check", "status", "hard", "reason"):
            table.add_column(col, overflow="fold")
        for check in g.checks:
            table.add_row(check.name, check.status.value, "yes" if check.hard else "no", Text(check.reason))
        out.print(table)
    if review.candidates:
        table = Table(title="candidates by round", title_justify="left")
        name_column(table, "candidate", [c.label + " (committed)" for c in review.candidates])
        other_column(table, "gate")
        other_column(table, "failing")
        for c in review.candidates:
            gate = "passed" if c.passed else ("no code" if c.code is None else "failed")
            mark = " (committed)" if c is review.winner else ""
            table.add_row(c.label + mark, gate, Text(", ".join(c.failing) or (c.failure or "")))
        out.print(table)
    for d in review.diffs:
        title = Text(f"repair round {d.round}: {d.parent} -> {d.child} (+{d.added} -{d.removed})")
        body = Syntax(d.diff, "diff", word_wrap=True) if d.diff else Text(d.note)
        out.print(Panel(body, title=title, title_align="left"))


def _print_episodes(review: Review) -> None:
    """A multi-turn bootcamp's reference episodes turn by turn, and its solver episodes in
    brief (plain text: every observation and action is untrusted)."""
    from synth.reporting.review import episode_text

    if review.episodes_error:
        out.print(Text(f"reference episodes: {review.episodes_error}", style="red"))
    for ep in review.reference_episodes:
        style = "red" if ep.error else None
        out.print(Panel(Text(episode_text(ep, title=False)), title=Text(ep.title, style=style or ""),
                        title_align="left"))
    if review.solver_episodes:
        table = Table(title="solver episodes (actions turn by turn)", title_justify="left")
        for col in ("#", "level", "turns", "actions -> rewards", "score"):
            table.add_column(col, overflow="fold")
        for ep in review.solver_episodes:
            steps = " | ".join(f"{t.action[:40]!r}->{'broke' if t.reward is None else f'{t.reward:g}'}"
                               for t in ep.turns[:12])
            more = f" ... ({len(ep.turns) - 12} more)" if len(ep.turns) > 12 else ""
            score = "-" if ep.score is None else f"{ep.score:g}"
            finding = f"\nFINDING: {ep.error[:300]}" if ep.error else ""
            table.add_row(ep.key.split("-", 1)[1], Text(ep.level), str(len(ep.turns)),
                          Text(steps + more + finding), score)
        out.print(table)


@app.command("accept")
def accept_command(ctx: typer.Context, name: str, library: LibraryOpt = None) -> None:
    """Accept a bootcamp: it becomes live (listed, loadable, exported)."""
    from synth.library import LibraryError
    from synth.reporting.review import ReviewError, accept

    lib = _library(_opts(ctx, library, None, None).library)
    try:
        rec = accept(lib, name)
    except (ReviewError, LibraryError) as exc:
        raise fail(str(exc)) from exc
    out.print(Text(f"accepted {rec.name}: it is live in {lib.root}"))


@app.command("reject")
def reject_command(
    ctx: typer.Context,
    name: str,
    reason: Annotated[str, typer.Option("--reason", help="Why (kept in the manifest).")],
    library: LibraryOpt = None,
) -> None:
    """Reject a bootcamp: it leaves the registry; the module stays on disk with the reason."""
    from synth.library import LibraryError
    from synth.reporting.review import ReviewError, reject

    lib = _library(_opts(ctx, library, None, None).library)
    try:
        rec = reject(lib, name, reason)
    except (ReviewError, LibraryError) as exc:
        raise fail(str(exc)) from exc
    out.print(Text(f"rejected {rec.name} ({rec.review_reason}); {rec.module_path} stays on disk"))


def _serve(lib: Library, runs_dir: Path, port: int, sandbox: str) -> None:
    import uvicorn

    from synth.library import LibraryError
    from synth.web import create_app

    try:
        lib.read_manifest()
    except LibraryError as exc:
        raise fail(str(exc)) from exc
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))  # loopback only, always
    except OSError as exc:
        sock.close()
        raise fail(f"cannot listen on 127.0.0.1:{port}: {exc}; pick another --port") from exc
    bound = sock.getsockname()[1]
    web = create_app(lib, runs_dir, sandbox=sandbox)
    config = uvicorn.Config(web, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    out.print(f"review page: http://127.0.0.1:{bound}/  (library {lib.root}; Ctrl-C to stop)",
              highlight=False, soft_wrap=True, markup=False)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


__all__ = ["app"]


if __name__ == "__main__":  # `python -m synth.commands.review` (the same app `synth review` mounts)
    app(prog_name="synth review")
