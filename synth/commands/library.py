"""`synth library ...`: list, show and add bootcamps of a library folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from synth.commands.console import Console
from synth.commands.tables import add_columns

if TYPE_CHECKING:  # synth.library (pydantic, filelock) is imported by the commands that use it
    from filters.dedup_index import Fingerprint
    from synth.library import BootcampRecord, Library

app = typer.Typer(no_args_is_help=True)
out = Console()
err = Console(stderr=True)

LibraryOpt = Annotated[
    Path | None,
    typer.Option("--library", help="Library folder (default: the shipped generated_bootcamps/)."),
]


def open_library(path: Path | None) -> Library:
    from synth.library import Library

    return Library(path) if path is not None else Library()


def fail(message: str, code: int = 2, traceback: str = "") -> typer.Exit:
    from synth.text.utf8 import escape_surrogates

    err.print(f"[bold red]error:[/] {escape(escape_surrogates(message))}", highlight=False,
              soft_wrap=True)
    if traceback:
        err.print(escape_surrogates(traceback.rstrip()[-1500:]), markup=False, highlight=False)
    return typer.Exit(code)


@app.command("list")
def list_command(
    library: LibraryOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON record per line.")] = False,
    status: Annotated[
        str, typer.Option(help="accepted | pending-review | rejected-in-review | all")
    ] = "accepted",
) -> None:
    """List the bootcamps of a library."""
    from synth.library import LibraryError

    lib = open_library(library)
    statuses = None if status == "all" else {status}
    try:
        records = lib.records(statuses)
    except LibraryError as exc:
        raise fail(str(exc)) from exc
    if as_json:
        for rec in records:
            typer.echo(json.dumps(rec.model_dump(mode="json"), ensure_ascii=False))
        return
    table = Table(title=f"{len(records)} bootcamp(s) in {lib.root}")
    rows = [[rec.name, rec.source, rec.task_id, rec.origin, rec.status, ",".join(rec.levels),
             "-" if rec.pass_rate is None else f"{rec.pass_rate:.2f}",
             "-" if rec.samples is None else str(rec.samples)] for rec in records]
    add_columns(table, ("name", "source", "task", "origin", "status", "levels", "pass rate", "K"),
                rows)
    for row in rows:
        table.add_row(*row)
    out.print(table)


SandboxOpt = Annotated[
    str, typer.Option("--sandbox", help="Backend that runs the bootcamp: auto | process | bwrap | docker.")
]


@app.command("show")
def show_command(
    name: str,
    library: LibraryOpt = None,
    level: Annotated[str | None, typer.Option(help="Level of the sample case.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the sample case.")] = 0,
    sandbox: SandboxOpt = "auto",
) -> None:
    """Show a bootcamp: its record, code, a sample case, its prompt and reference answer.

    The case is drawn by the bootcamp in a sandboxed method server; this process never
    imports it."""
    from rich.panel import Panel
    from rich.syntax import Syntax
    from rich.text import Text

    from synth.library import LibraryError
    from synth.sandbox import SandboxUnavailableError
    from synth.serving.sampling import DEFAULT_LEVEL, CaseSampler, SampleError

    lib = open_library(library)
    try:
        rec, code = lib.checked_code(name, include_unlisted=True)
    except LibraryError as exc:
        raise fail(str(exc)) from exc
    from synth.text.utf8 import escape_surrogates as shown  # printed text is UTF-8: never fails

    meta = Table.grid(padding=(0, 2))
    for key, value in rec.model_dump().items():
        if value not in (None, {}, []):
            meta.add_row(Text(key, style="bold"), Text(shown(_shown(key, value, rec))))
    out.print(Panel(meta, title=Text(shown(f"{rec.name} ({rec.class_name})"))))
    out.print(Syntax(shown(code), "python", line_numbers=True, word_wrap=True))
    try:
        with CaseSampler(code, backend=sandbox, class_name=rec.class_name, name=name) as sampler:
            levels = sampler.levels
            lvl = level or (levels[0] if levels else None)
            if lvl is not None and lvl not in levels:
                raise fail(f"{name} has no level {lvl!r}; levels: {', '.join(levels) or '(none)'}")
            (sample,) = sampler.sample([(lvl or DEFAULT_LEVEL, seed)], answers=True)
    except SampleError as exc:
        raise fail(f"{name}: {exc.message}", traceback=exc.traceback) from exc
    except (SandboxUnavailableError, ValueError) as exc:
        raise fail(str(exc)) from exc
    case = json.dumps(sample.case, indent=1, ensure_ascii=False)[:4000]
    out.print(Panel(Text(shown(case)), title=shown(f"case (level={lvl}, seed={seed})")))
    out.print(Panel(Text(shown(sample.prompt)), title="prompt"))
    out.print(Panel(Text(shown(sample.answer or "")), title="reference answer"))


@app.command("reindex")
def reindex_command(library: LibraryOpt = None, sandbox: SandboxOpt = "auto") -> None:
    """Rebuild the library's dedup index: draw every bootcamp's probe cases again, in the
    sandbox (the index is otherwise kept up to date at each commit; see docs/library.md)."""
    from filters.dedup import DedupUnavailableError, reindex
    from synth.library import LibraryError
    from synth.sandbox import SandboxUnavailableError

    lib = open_library(library)
    failed = 0

    def progress(name: str, entry: Fingerprint) -> None:
        nonlocal failed
        if entry.error:
            failed += 1
            err.print(f"{escape(name)}: not drawn: {escape(entry.error[:300])}", highlight=False)
        else:
            out.print(f"{escape(name)}: {len(entry)} probes", highlight=False)

    try:
        index = reindex(lib, backend=sandbox, progress=progress)
    except (LibraryError, DedupUnavailableError, SandboxUnavailableError) as exc:
        raise fail(str(exc)) from exc
    out.print(f"indexed {len(index.entries) - failed} bootcamp(s) of {lib.root}"
              + (f"; {failed} could not be drawn (compared by statement only)" if failed else ""),
              highlight=False)


def _shown(key: str, value: object, rec: BootcampRecord) -> str:
    """A record field as `library show` prints it: each level's rate with the answers it rests
    on and its 95% Wilson interval; the calibration as key=value."""
    from synth.training.curriculum import wilson_interval

    if key == "level_pass_rates" and isinstance(value, dict):
        parts = []
        for lvl, rate in value.items():
            n = rec.level_samples.get(lvl)
            if n is None:
                parts.append(f"{lvl} {rate:.3f} (answers unknown)")
                continue
            lo, hi = wilson_interval(rate * n, n)
            parts.append(f"{lvl} {rate:.3f} ({n} answer{'s' if n != 1 else ''}, 95% [{lo:.2f}, {hi:.2f}])")
        return "; ".join(parts)
    if key == "calibration" and isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items() if v is not None)
    return str(value)


@app.command("add")
def add_command(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, readable=True)],
    library: LibraryOpt = None,
    name: Annotated[str | None, typer.Option(help="Bootcamp name (default: file stem).")] = None,
    source: Annotated[str, typer.Option(help="Source folder in the library.")] = "handwritten",
    task_id: Annotated[str | None, typer.Option(help="Task id (default: <source>/<name>).")] = None,
    title: Annotated[str, typer.Option(help="Human title.")] = "",
    reference: Annotated[
        Path | None, typer.Option(help="Reference program (oracle) for the task.")
    ] = None,
    replace: Annotated[bool, typer.Option(help="Replace an existing bootcamp of that name.")] = False,
    dedup: Annotated[bool, typer.Option(
        "--dedup/--no-dedup", help="Refuse a bootcamp that behaves like a hand-written one of "
        "the library (see docs/library.md).")] = True,
    sandbox: SandboxOpt = "auto",
) -> None:
    """Add a hand-written bootcamp module to a library (origin: handwritten).

    The module is loaded in a sandboxed method server, never in this process: it must define
    exactly one bootcamp class, leave the contract alone, and have plain-JSON LEVELS; the class
    name and level names recorded in the manifest are the ones the sandbox reported. A module
    that behaves like a live hand-written bootcamp of the library is refused (exit 1)."""
    from filters.dedup import commit_unless_duplicate
    from filters.dedup_index import family_of
    from synth.library import LibraryError
    from synth.sandbox import SandboxUnavailableError
    from synth.serving.sampling import CaseSampler, SampleError

    lib = open_library(library)
    code = file.read_text(encoding="utf-8")
    bname = name or file.stem
    try:
        with CaseSampler(code, backend=sandbox, name=bname) as sampler:
            cls_name, levels = sampler.class_found, sampler.levels
    except SampleError as exc:
        raise fail(f"{file}: {exc.message}", traceback=exc.traceback) from exc
    except SandboxUnavailableError as exc:
        raise fail(str(exc)) from exc
    def write() -> BootcampRecord:
        return lib.commit(
            name=bname,
            code=code,
            class_name=cls_name,
            source=source,
            task_id=task_id or f"{source}/{bname}",
            title=title,
            origin="handwritten",
            reference_code=reference.read_text(encoding="utf-8") if reference else None,
            replace=replace,
            levels=levels,
        )

    try:  # a taken name is refused by the commit itself, before anything is drawn
        taken = not replace and lib.root.is_dir() and bname in lib.read_manifest().by_name()
        if not dedup or taken:
            rec = write()
        else:
            verdict, added = commit_unless_duplicate(
                lib, code, write, family=family_of(source, "handwritten"), class_name=cls_name,
                exclude=[bname] if replace else [], backend=sandbox)
            if added is None:
                raise fail(f"{file}: {verdict.reason()} (--no-dedup adds it anyway)", code=1)
            rec = added
    except (LibraryError, ValueError) as exc:
        raise fail(str(exc)) from exc
    out.print(f"added [bold]{escape(rec.name)}[/] ({rec.class_name}) to {lib.root} as {rec.module_path}",
              highlight=False)
