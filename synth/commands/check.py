"""`synth check FILE|DIR`: run the quality gate on a bootcamp module, or audit a folder of them.

Exit status: 0 when every hard check passes (for a folder: for every module), 1 when any hard
check fails, 2 for a usage or infrastructure error (no sandbox, sandbox_error, bad path).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:  # the gate and the sandbox are imported when a check runs, not for --help
    from synth.gate import CheckReport

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

#: keyed by CheckStatus value (a StrEnum member looks its value up)
_STYLE = {
    "passed": "green",
    "failed": "bold red",
    "error": "bold red",
    "timeout": "bold magenta",
    "oom": "bold magenta",
    "sandbox_error": "bold yellow",
    "skipped": "dim",
}
_GLYPH = {
    "passed": "ok",
    "failed": "FAIL",
    "error": "ERR",
    "timeout": "TIME",
    "oom": "OOM",
    "sandbox_error": "SBX",
    "skipped": "-",
}


def check_command(
    path: Annotated[Path, typer.Argument(help="A bootcamp module (.py), or a folder to audit.")],
    reference: Annotated[
        Path | None,
        typer.Option(
            "--reference",
            help="Reference program for the oracle check (for a folder: a folder of programs "
            "named like the modules; default DIR/reference/ when it exists).",
        ),
    ] = None,
    sandbox: Annotated[
        str, typer.Option("--sandbox", help="auto | process | bwrap | docker")
    ] = "auto",
    checker: Annotated[
        Path | None,
        typer.Option(
            "--checker",
            help="An independent checker module (check(identity, answer) -> bool; optional "
            "solve(identity) and probes(identity)) for the differential check.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the CheckReport(s) as JSON.")] = False,
) -> None:
    """Run the check suite in the sandbox and print the verdict."""
    from synth.gate import run_checks_file
    from synth.sandbox import BACKEND_NAMES, SandboxUnavailableError

    if sandbox not in BACKEND_NAMES:
        raise _usage(f"--sandbox must be one of {', '.join(BACKEND_NAMES)}, not {sandbox!r}")
    if not path.exists():
        raise _usage(f"{path} does not exist")
    if reference is not None and not reference.exists():
        raise _usage(f"reference {reference} does not exist")
    if checker is not None and not checker.is_file():
        raise _usage(f"checker {checker} is not a file")
    if checker is not None and path.is_dir():
        raise _usage("--checker applies to one module, not a folder")
    try:
        if path.is_dir():
            reports = _audit(path, reference, sandbox)
        else:
            if reference is not None and reference.is_dir():
                raise _usage("--reference must be a file when checking one module")
            reports = [(path, run_checks_file(path, reference=reference, backend=sandbox,
                                              checker=checker))]
    except SandboxUnavailableError as exc:
        raise _usage(f"{exc} (try --sandbox process)") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise _usage(f"cannot read the module: {exc}") from exc
    if as_json:
        if path.is_dir():
            rows = [{"file": str(p), "report": r.model_dump(mode="json")} for p, r in reports]
            typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        else:
            typer.echo(reports[0][1].model_dump_json(indent=2))
    elif path.is_dir():
        _print_audit(path, reports)
    else:
        _print_report(path, reports[0][1])
    if any(r.infrastructure_error for _, r in reports):
        raise typer.Exit(2)
    raise typer.Exit(0 if all(r.passed for _, r in reports) else 1)


def _usage(message: str) -> typer.Exit:
    err.print(Text("error: ", style="bold red") + Text(message))
    return typer.Exit(2)


def _audit(folder: Path, reference: Path | None, sandbox: str) -> list[tuple[Path, CheckReport]]:
    from synth.gate import run_checks_file

    refs = reference if reference is not None else folder / "reference"
    modules = sorted(p for p in folder.glob("*.py") if not p.name.startswith("_"))
    if not modules:
        raise _usage(f"no bootcamp modules (*.py) in {folder}")
    reports = []
    for module in modules:
        ref = refs / module.name if refs.is_dir() else None
        reports.append(
            (module, run_checks_file(module, reference=ref if ref and ref.is_file() else None,
                                     backend=sandbox))
        )
    return reports


def _verdict(report: CheckReport) -> Text:
    if report.infrastructure_error:
        return Text("SANDBOX ERROR", style="bold yellow")
    return Text("PASSED", style="bold green") if report.passed else Text("FAILED", style="bold red")


def _print_report(path: Path, report: CheckReport) -> None:
    from synth.gate import CheckStatus

    title = Text.assemble(
        f"synth check {path.name}: ", _verdict(report),
        f"  ({report.mode}, {report.backend} sandbox, {report.timings.get('total_s', 0):.2f}s, "
        f"sha256 {report.candidate_sha256[:12]})",
    )
    table = Table(title=title, title_justify="left")
    for col in ("check", "status", "hard", "time", "reason"):
        table.add_column(col, overflow="fold")
    for check in report.checks:
        table.add_row(
            check.name,
            Text(check.status.value, style=_STYLE[check.status]),
            "yes" if check.hard else "no",
            f"{check.elapsed_s:.2f}s",
            Text(check.reason),
        )
    out.print(table)
    for check in report.checks:
        if check.status in (CheckStatus.PASSED, CheckStatus.SKIPPED) or not check.artifacts:
            continue
        out.print(Text(f"{check.name} evidence:", style="bold"))
        for key, value in check.artifacts.items():
            shown = value if len(value) <= 700 else value[:700] + " ..."
            out.print(Text(f"  {key}: ", style="cyan") + Text(shown))


def _print_audit(folder: Path, reports: list[tuple[Path, CheckReport]]) -> None:
    from synth.gate import CHECK_NAMES

    passed = sum(r.passed for _, r in reports)
    table = Table(title=f"audit of {folder}: {passed}/{len(reports)} pass every hard check",
                  title_justify="left")
    table.add_column("module", overflow="fold")
    table.add_column("mode")
    table.add_column("verdict")
    for name in CHECK_NAMES:
        table.add_column(name[:8], justify="center")
    table.add_column("first problem", overflow="fold")
    for module, report in reports:
        cells = []
        for name in CHECK_NAMES:
            check = report.get(name)
            cells.append(Text(_GLYPH[check.status], style=_STYLE[check.status]) if check else "")
        first = report.failing[0] if report.failing else None
        problem = Text(f"{first.name}: {first.reason}") if first else Text("")
        table.add_row(module.name, report.mode, _verdict(report), *cells, problem)
    out.print(table)
    out.print(Text("ok passed, FAIL failed, ERR error, TIME timeout, OOM out of memory, "
                   "SBX sandbox error, - skipped (not applicable or blocked)", style="dim"))
