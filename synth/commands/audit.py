"""`synth audit PATH`: judge every module of an existing bootcamp library (InternBootcamp style
or this project's), in the sandbox and in parallel; write audit.html, audit.csv, audit.json.

Exit status: 0 when every module is accepted, 1 when any is rejected, 3 when none is rejected
but some cannot be judged (e.g. a missing dependency: try --path / --python), 2 for a usage or
infrastructure error (bad PATH, no sandbox, the sandbox or the tool failed on a module).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from synth.commands.console import Console

if TYPE_CHECKING:  # the gate and the sandbox are imported when an audit runs, not for --help
    from synth.reporting.audit import Audit, Module, ModuleAudit, Target
    from synth.sandbox.base import Backend
    from synth.sandbox.interpreter import LibraryPython

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

_VERDICT_STYLE = {"accepted": "bold green", "rejected": "bold red", "cannot_judge": "bold cyan",
                  "infrastructure_error": "bold yellow"}


def audit_command(
    path: Annotated[str, typer.Argument(
        help="A folder of bootcamp modules (searched recursively), one .py file, or the name "
             "of an installed package (found without importing it).")],
    out_dir: Annotated[Path, typer.Option(
        "--out", help="Folder for audit.html, audit.csv and audit.json.")] = Path("audit"),
    jobs: Annotated[int, typer.Option(
        "--jobs", min=1, max=64, help="Modules audited at a time (each in its own sandbox "
        "sessions).")] = 2,
    sandbox: Annotated[str, typer.Option(
        "--sandbox", help="auto | process | bwrap | docker (auto: the strongest that works; "
        "with --python/--path, bwrap, else process).")] = "auto",
    python: Annotated[str | None, typer.Option(
        "--python", help="The audited library's own interpreter (e.g. its venv's bin/python): "
        "the modules run with it, and its site-packages are importable, read-only. It is read "
        "from the filesystem, and runs only in the sandbox.")] = None,
    paths: Annotated[list[Path] | None, typer.Option(
        "--path", help="An extra folder the modules may import from, read-only (repeatable).")
    ] = None,
    checkers: Annotated[Path | None, typer.Option(
        "--checkers", help="A folder of independent checkers, one per module name (NAME.py or "
        "NAME.checker.py): the differential checks apply to those modules.")] = None,
) -> None:
    """Audit a library: every module's verdict and every finding, by severity class."""
    from synth.reporting.audit import attach_checkers, find_modules, resolve_target
    from synth.sandbox import BACKEND_NAMES, SandboxUnavailableError
    from synth.sandbox.interpreter import LibraryBackend, confirm_in_sandbox, library_python

    if sandbox not in BACKEND_NAMES:
        raise _usage(f"--sandbox must be one of {', '.join(BACKEND_NAMES)}, not {sandbox!r}")
    if checkers is not None and not checkers.is_dir():
        raise _usage(f"--checkers {checkers} is not a folder")
    if sandbox == "docker" and (python or paths):  # before anything of --python is looked at
        raise _usage("--python / --path need host paths, which a docker container cannot see: "
                     "use --sandbox bwrap or --sandbox process")
    extra = [str(p) for p in paths or []]
    try:
        lib = library_python(python, extra)
        target = resolve_target(path, lib.path)
    except ValueError as exc:
        raise _usage(str(exc)) from exc
    if target.import_root and target.import_root not in lib.path:
        try:  # an installed package imports its own dependencies from where it is installed
            lib = library_python(python, [*extra, target.import_root])
        except ValueError as exc:
            err.print(Text(f"warning: the package's own folder is not importable in the "
                           f"sandbox ({exc})", style="yellow"))
    excluded = tuple(p for p in (checkers, out_dir) if p is not None)
    try:
        modules, others = find_modules(target.root, exclude=excluded)
    except OSError as exc:
        raise _usage(f"cannot read {target.root}: {exc}") from exc
    if not modules:
        raise _usage(f"no bootcamp modules (a .py file with a class based on ...bootcamp) in "
                     f"{target.root}")
    unclaimed = attach_checkers(modules, checkers) if checkers is not None else []
    try:
        backend = _backend(sandbox, lib)
        if isinstance(backend, LibraryBackend):
            try:  # the interpreter runs in the sandbox, never here
                confirm_in_sandbox(backend)
            except ValueError as exc:
                raise _usage(str(exc)) from exc
        audit = _run(target, modules, backend, jobs, lib)
    except SandboxUnavailableError as exc:
        raise _usage(f"{exc} (try --sandbox process)") from exc
    audit.others, audit.unclaimed_checkers = others, unclaimed
    try:
        written = _write(audit, out_dir)
    except OSError as exc:
        raise _usage(f"cannot write the report into {out_dir}: {exc}") from exc
    _summary(audit, written)
    raise typer.Exit(audit.exit_code)


def _usage(message: str) -> typer.Exit:
    err.print(Text("error: ", style="bold red") + Text(message))
    return typer.Exit(2)


def _backend(name: str, lib: LibraryPython) -> Backend:
    """The sandbox backend, wrapped so that every job runs with the library's interpreter and
    import path when there is one (docker cannot: refused by the caller before anything)."""
    from synth.sandbox import get_backend
    from synth.sandbox.interpreter import LibraryBackend
    from synth.sandbox.methods import spawning_backend

    if not lib:
        return get_backend(name)
    if name == "auto":
        from synth.sandbox import SandboxUnavailableError

        try:
            backend = get_backend("bwrap")
        except SandboxUnavailableError:
            err.print(Text("WARNING: bwrap cannot run here: the process backend runs the "
                           "audited library (no filesystem isolation)", style="yellow"))
            backend = get_backend("process")
    else:
        backend = get_backend(name)
    return LibraryBackend(spawning_backend(backend), lib)


def _run(target: Target, modules: list[Module], backend: Backend, jobs: int,
         lib: LibraryPython) -> Audit:
    from synth.reporting.audit import run_audit

    live = sys.stderr.isatty()

    def progress(done: int, total: int, m: ModuleAudit) -> None:
        if live:
            err.print(f"[{done}/{total}] {m.module.name}: {m.verdict}", end="\r",
                      highlight=False, soft_wrap=True)

    audit = run_audit(target, modules, backend, jobs=jobs,
                      interpreter=lib.describe() if lib else "", on_done=progress)
    if live:
        err.print(" " * 60, end="\r")
    return audit


def _write(audit: Audit, folder: Path) -> list[Path]:
    from synth.reporting.audit import write_csv, write_html, write_json

    folder.mkdir(parents=True, exist_ok=True)
    return [write_html(audit, folder / "audit.html"), write_csv(audit, folder / "audit.csv"),
            write_json(audit, folder / "audit.json")]


def _summary(audit: Audit, written: list[Path]) -> None:
    n = len(audit.modules)
    out.print(Text.assemble(
        ("synth audit ", "bold"), f"of {audit.target.root} ({audit.target.how}): {n} modules in "
        f"{audit.seconds:.1f} s ({audit.per_minute:.0f} modules/minute, {audit.backend} "
        f"sandbox, {audit.jobs} job{'s' if audit.jobs != 1 else ''})"))
    if audit.interpreter:
        out.print(Text(f"  runs with {audit.interpreter}", style="dim"))
    counts = Text("  ")
    for verdict in ("accepted", "rejected", "cannot_judge", "infrastructure_error"):
        k = audit.count(verdict)
        if k or verdict != "infrastructure_error":
            counts.append(f"{verdict.replace('_', ' ')} {k}", style=_VERDICT_STYLE[verdict])
            counts.append("   ")
    out.print(counts)
    decisive = audit.decisive_counts()
    if decisive:
        shown = ", ".join(f"{name} ({k})" for name, _, k in decisive[:8])
        more = f", and {len(decisive) - 8} more" if len(decisive) > 8 else ""
        out.print(Text(f"  decisive findings: {shown}{more}"))
    conventions = audit.convention_counts()
    if conventions:
        out.print(Text("  conventions (reported, never rejecting): "
                       + ", ".join(f"{name} ({k})" for name, k in conventions[:6]), style="dim"))
    for m in audit.modules:
        if m.verdict in ("cannot_judge", "infrastructure_error"):
            d = m.decisive
            what = f"missing {m.missing_module}" if m.missing_module else (d.reason if d else "")
            out.print(Text(f"  {m.verdict.replace('_', ' ')}: {m.module.name}: {what[:160]}",
                           style=_VERDICT_STYLE[m.verdict]))
    if audit.missing():
        out.print(Text("  a dependency may resolve with --path DIR (its folder) or --python PY "
                       "(the library's interpreter)", style="dim"))
    if audit.unclaimed_checkers:
        out.print(Text("  checkers that match no module: " + ", ".join(audit.unclaimed_checkers),
                       style="yellow"))
    out.print(Text("  wrote " + ", ".join(str(p) for p in written), style="dim"))
