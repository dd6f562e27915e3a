"""`synth sources ...`: list the task-description sources, show, export and validate tasks."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from synth.commands.console import Console

if TYPE_CHECKING:  # the sources (pydantic, yaml, their readers) are imported by the commands
    from synth.sources.base import Item, Source
    from synth.tasks import LoadSummary, SourceError, TaskDescription

app = typer.Typer(no_args_is_help=True, help="Task-description sources: list, show, export, "
                  "validate.")
out = Console()
err = Console(stderr=True)

#: skip lines printed on stderr before "... and N more" (all are in --skipped FILE)
MAX_SKIP_LINES = 20

PathOpt = Annotated[Path | None, typer.Option("--path", help="File or folder to read (default: "
                                              "the source's bundled data).")]
LimitOpt = Annotated[int | None, typer.Option("--limit", min=1, help="Stop after N tasks.")]
MinRatingOpt = Annotated[int | None, typer.Option("--min-rating", help="Lowest rating kept.")]
MaxRatingOpt = Annotated[int | None, typer.Option("--max-rating", help="Highest rating kept.")]
AnyRatingOpt = Annotated[bool, typer.Option("--any-rating", help="No rating band (keeps unrated "
                                            "tasks).")]
SplitOpt = Annotated[str | None, typer.Option("--split", help="train | valid | test.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Sample in a seeded random order.")]
VerifyOpt = Annotated[bool | None, typer.Option("--verify/--no-verify", help="Run reference "
                                                "solutions in the sandbox (source default).")]
HubOpt = Annotated[bool, typer.Option("--hub", help="codecontests: load through "
                                      "datasets.load_dataset from the Hugging Face hub.")]
MapOpt = Annotated[list[str] | None, typer.Option("--map", help="jsonl: TARGET=FIELD (repeat).")]
TimeoutOpt = Annotated[float | None, typer.Option("--timeout", help="Seconds per sandbox run.")]
BackendOpt = Annotated[str | None, typer.Option("--backend", help="Sandbox backend (auto, "
                                                "process, bwrap, docker).")]


def fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {message}", highlight=False, markup=True, soft_wrap=True)
    return typer.Exit(code)


def build_options(source: Source, **given: Any) -> dict[str, Any]:
    """The options the user gave, checked against the source's options model."""
    options = {k: v for k, v in given.items() if v is not None}
    if options.pop("any_rating", False):
        options["min_rating"] = None
        options["max_rating"] = None
    if not options.get("hub"):
        options.pop("hub", None)
    fields = source.Options.model_fields
    unknown = sorted(k for k in options if k not in fields)
    if unknown:
        flags = ", ".join("--" + k.replace("_", "-") for k in unknown)
        raise fail(f"{flags} does not apply to source {source.name!r}")
    return options


def open_stream(name: str, **given: Any) -> Iterator[Item]:
    from pydantic import ValidationError

    from synth.sources import SourceUnavailableError, UnknownSourceError, get_source
    from synth.sources.jsonl import parse_mapping

    try:
        source = get_source(name)
    except UnknownSourceError as exc:
        raise fail(str(exc)) from None
    mapping = given.pop("map", None)
    if mapping:
        try:
            given["map"] = parse_mapping(mapping)
        except ValueError as exc:
            raise fail(str(exc)) from None
    options = build_options(source, **given)
    try:
        return source.load(**options)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "options"
        raise fail(f"invalid option {loc}: {first['msg']}") from None
    except SourceUnavailableError as exc:
        raise fail(str(exc)) from None


def report_skips(errors: list[SourceError], summary: LoadSummary, label: str) -> None:
    for error in errors[:MAX_SKIP_LINES]:
        err.print(Text(f"skipped {error}"), style="yellow", soft_wrap=True)
    if len(errors) > MAX_SKIP_LINES:
        err.print(f"... and {len(errors) - MAX_SKIP_LINES} more skipped item(s)")
    err.print(Text(summary.line(label)), style="bold", soft_wrap=True)


def consume(stream: Iterator[Item]) -> Iterator[Item]:
    """Iterate a source stream, turning a late SourceUnavailableError into a clean exit."""
    from synth.sources import SourceUnavailableError

    try:
        yield from stream
    except SourceUnavailableError as exc:
        raise fail(str(exc)) from None


@app.command("list")
def list_command() -> None:
    """List the registered sources and their options."""
    from synth.sources import list_sources

    table = Table(title="task-description sources")
    table.add_column("name", style="bold")
    table.add_column("description")
    table.add_column("options")
    for source in list_sources():
        opts = ", ".join(source.Options.model_fields)
        table.add_row(source.name, source.summary, opts)
    out.print(table)


def _task_panel(task: TaskDescription, max_chars: int = 1500) -> Panel:
    meta = task.metadata
    facts = [f"kind {task.kind.value}"]
    if meta.rating is not None:
        facts.append(f"rating {meta.rating}")
    if meta.difficulty:
        facts.append(f"difficulty {meta.difficulty}")
    if meta.tags:
        facts.append("tags " + ", ".join(meta.tags))
    tests = task.tests
    facts.append(f"tests {len(tests.public)} public / {len(tests.private)} private / "
                 f"{len(tests.generated)} generated" + (" + check code" if tests.check_code
                                                         else ""))
    verified = sum(r.verified for r in task.references)
    facts.append(f"references {len(task.references)} ({verified} verified)")
    statement = task.statement
    if len(statement) > max_chars:
        statement = statement[:max_chars] + f"\n... ({len(task.statement):,} characters)"
    parts: list[Any] = [Text(" | ".join(facts), style="cyan"), Text(""), Text(statement)]
    if task.notes:
        parts += [Text(""), Text("notes: " + task.notes, style="italic")]
    for example in task.examples[:1]:
        parts += [Text(""), Text("example input:", style="bold"), Text(example.input),
                  Text("example output:", style="bold"), Text(example.output)]
    parts += [Text(""), Text(f"from {task.provenance.location}", style="dim")]
    return Panel(Group(*parts), title=Text(f"{task.id}  {task.title}"), title_align="left")


@app.command("show")
def show_command(
    source: Annotated[str, typer.Argument(help="Source name (see `synth sources list`).")],
    path: PathOpt = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="Tasks to show.")] = 3,
    min_rating: MinRatingOpt = None,
    max_rating: MaxRatingOpt = None,
    any_rating: AnyRatingOpt = False,
    split: SplitOpt = None,
    seed: SeedOpt = None,
    verify: VerifyOpt = None,
    hub: HubOpt = False,
    mapping: MapOpt = None,
) -> None:
    """Show the first tasks a source yields (skips are summarised on stderr)."""
    from synth.tasks import LoadSummary, TaskDescription

    stream = open_stream(source, path=path, limit=limit, min_rating=min_rating,
                         max_rating=max_rating, any_rating=any_rating, split=split, seed=seed,
                         verify=verify, hub=hub, map=mapping)
    summary = LoadSummary()
    errors: list[SourceError] = []
    for item in consume(stream):
        summary.add(item)
        if isinstance(item, TaskDescription):
            out.print(_task_panel(item))
        else:
            errors.append(item)
    report_skips(errors, summary, source)


@app.command("export")
def export_command(
    source: Annotated[str, typer.Argument(help="Source name (see `synth sources list`).")],
    out_file: Annotated[Path, typer.Option("--out", help="JSONL file to write (one "
                                           "TaskDescription per line).")],
    path: PathOpt = None,
    limit: LimitOpt = None,
    min_rating: MinRatingOpt = None,
    max_rating: MaxRatingOpt = None,
    any_rating: AnyRatingOpt = False,
    split: SplitOpt = None,
    seed: SeedOpt = None,
    verify: VerifyOpt = None,
    hub: HubOpt = False,
    mapping: MapOpt = None,
    timeout: TimeoutOpt = None,
    backend: BackendOpt = None,
    skipped: Annotated[Path | None, typer.Option("--skipped", help="Also write every skipped "
                                                 "item (SourceError JSON) to this file.")] = None,
) -> None:
    """Write a source's tasks as JSONL; a summary of loaded and skipped items goes to stderr."""
    from synth.tasks import LoadSummary, TaskDescription

    stream = open_stream(source, path=path, limit=limit, min_rating=min_rating,
                         max_rating=max_rating, any_rating=any_rating, split=split, seed=seed,
                         verify=verify, hub=hub, map=mapping, timeout_s=timeout,
                         backend=backend)
    summary = LoadSummary()
    errors: list[SourceError] = []
    out_file.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{out_file.name}.", dir=out_file.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            for item in consume(stream):
                summary.add(item)
                if isinstance(item, TaskDescription):
                    handle.write(item.model_dump_json() + "\n")
                else:
                    errors.append(item)
        os.replace(tmp_name, out_file)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    if skipped is not None:
        skipped.write_text("".join(e.model_dump_json() + "\n" for e in errors), encoding="utf-8")
    report_skips(errors, summary, source)
    err.print(f"wrote {summary.loaded} task(s) to {out_file}", highlight=False)


def detect_format(path: Path) -> str:
    """Which reader fits a user's file: local, codecontests, humaneval, tasks or jsonl."""
    from synth.sources.base import iter_json_lines
    from synth.tasks import SourceError

    if path.is_dir():
        if any(path.rglob("*.md")):
            return "local"
        return "codecontests"
    name = path.name.lower()
    if name.endswith(".md"):
        return "local"
    if name.endswith((".parquet", ".arrow")):
        return "codecontests"
    if name.endswith(".gz"):
        return "humaneval"
    for rec in iter_json_lines(path, "validate"):
        if isinstance(rec, SourceError):
            continue
        keys = set(rec[1])
        if {"id", "source", "kind", "statement", "provenance"} <= keys:
            return "tasks"
        if {"name", "description"} <= keys and keys & {"public_tests", "solutions"}:
            return "codecontests"
        if {"task_id", "prompt", "canonical_solution"} <= keys:
            return "humaneval"
        return "jsonl"
    return "jsonl"


@app.command("validate")
def validate_command(
    path: Annotated[Path, typer.Argument(help="A file or folder of task descriptions.")],
    as_format: Annotated[str | None, typer.Option("--format", help="local | codecontests | "
                                                  "humaneval | tasks | jsonl (default: "
                                                  "detected).")] = None,
    min_rating: MinRatingOpt = None,
    max_rating: MaxRatingOpt = None,
    verify: VerifyOpt = None,
    mapping: MapOpt = None,
    timeout: TimeoutOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON line per problem.")] = False,
) -> None:
    """Check a user's own task files: every problem is listed; exit 1 if there is any."""
    from synth.tasks import LoadSummary, SourceError, read_task_file

    if not path.exists():
        raise fail(f"{path} does not exist")
    fmt = as_format or detect_format(path)
    if fmt == "tasks":
        stream: Iterator[Item] = read_task_file(path)
    elif fmt == "codecontests":
        # a user's file: every rating is fine unless a band is asked for
        stream = open_stream(fmt, path=path, min_rating=min_rating, max_rating=max_rating,
                             any_rating=min_rating is None and max_rating is None,
                             verify=verify, timeout_s=timeout)
    elif fmt in ("local", "humaneval", "jsonl"):
        stream = open_stream(fmt, path=path, map=mapping, verify=verify if fmt == "humaneval"
                             else None)
    else:
        raise fail(f"unknown format {fmt!r}; use local, codecontests, humaneval, tasks or jsonl")
    summary = LoadSummary()
    problems: list[SourceError] = []
    for item in consume(stream):
        summary.add(item)
        if isinstance(item, SourceError):
            problems.append(item)
            if as_json:
                typer.echo(item.model_dump_json())
    if not as_json and problems:
        table = Table(title=f"{len(problems)} problem(s) in {path}")
        for col in ("where", "reason", "message"):
            table.add_column(col, overflow="fold")
        for problem in problems:
            table.add_row(Text(problem.where()), problem.reason.value, Text(problem.message))
        out.print(table)
    err.print(Text(summary.line(f"{fmt} {path}")), style="bold", soft_wrap=True)
    if problems:
        raise typer.Exit(1)
    err.print(json.dumps({"valid": True, "tasks": summary.loaded}), highlight=False)
