"""`synth check FILE|DIR`: run the quality gate on a bootcamp module, or audit a folder of them.

Exit status: 0 when the module is accepted (every hard check passes; convention findings of an
audited library are reported, never rejecting), 1 when a finding rejects it, 3 when it cannot
be judged (a third-party module it needs is missing: the message names it), 2 for a usage or
infrastructure error (no sandbox, sandbox_error, bad path). For a folder: 2 if any module hit
an infrastructure error, else 1 if any is rejected, else 3 if any cannot be judged, else 0.

The answer key: the report's last line says how it was verified (the key check,
:mod:`synth.gate.key`): by the other ``--reference`` programs, the ``--solver`` program, the
other solutions of ``--task``, or the independent ``--checker``; or "unverified: ..." when
nothing but the key itself speaks for it. An unverified key is said, never silently passed; it
does not change the exit status (the workflow refuses to commit such a bootcamp, see
``synth run --allow-unverified-key``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from synth.commands.console import Console

if TYPE_CHECKING:  # the gate and the sandbox are imported when a check runs, not for --help
    from synth.gate import CheckReport, Voter
    from synth.tasks import TaskDescription

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
    "convention": "yellow",
    "cannot judge": "bold cyan",
}
_GLYPH = {
    "passed": "ok",
    "failed": "FAIL",
    "error": "ERR",
    "timeout": "TIME",
    "oom": "OOM",
    "sandbox_error": "SBX",
    "skipped": "-",
    "convention": "conv",
    "cannot judge": "??",
}
#: The exit status of each verdict.
EXIT = {"accepted": 0, "rejected": 1, "infrastructure_error": 2, "cannot_judge": 3}


def check_command(
    path: Annotated[Path, typer.Argument(help="A bootcamp module (.py), or a folder to audit.")],
    reference: Annotated[
        list[Path] | None,
        typer.Option(
            "--reference",
            help="Reference program for the oracle check (for a folder: a folder of programs "
            "named like the modules; default DIR/reference/ when it exists). Repeat it to give "
            "other solutions of the task: each one that is not the answer key's own program "
            "votes on the key (the key check).",
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
    validator: Annotated[
        Path | None,
        typer.Option(
            "--validator",
            help="An input validator module (validate(stdin) -> None | str: None when the input "
            "is one the statement allows, else the reason) run on every generated case's "
            "render_stdin in the inputs check.",
        ),
    ] = None,
    task: Annotated[
        Path | None,
        typer.Option(
            "--task",
            help="The task description (a Markdown task with front matter, or a .json/.jsonl "
            "record of one task: a TaskDescription, a CodeContests record or a generic JSONL "
            "record): its statement and example inputs for the inputs and oracle checks (a "
            "compiled module embeds its own).",
        ),
    ] = None,
    solver: Annotated[
        Path | None,
        typer.Option(
            "--solver",
            help="A solver program (reads the problem's standard input, prints the answer) "
            "written independently of the bootcamp, e.g. by a judge model from the statement: "
            "it votes on the answer key in the key check.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the CheckReport(s) as JSON.")] = False,
    fail_fast: Annotated[
        bool,
        typer.Option("--fail-fast", help="Stop at the first check that rejects (the rest are "
                     "skipped, saying why): the verdict sooner, without the whole report."),
    ] = False,
) -> None:
    """Run the check suite in the sandbox and print the verdict."""
    from synth.gate import run_checks_file
    from synth.sandbox import BACKEND_NAMES, SandboxUnavailableError
    from synth.sources.base import SourceUnavailableError

    if sandbox not in BACKEND_NAMES:
        raise _usage(f"--sandbox must be one of {', '.join(BACKEND_NAMES)}, not {sandbox!r}")
    if not path.exists():
        raise _usage(f"{path} does not exist")
    references = list(reference or [])
    for ref in references:
        if not ref.exists():
            raise _usage(f"reference {ref} does not exist")
    if path.is_dir() and len(references) > 1:
        raise _usage("--reference is given once for a folder (a folder of programs)")
    if checker is not None and not checker.is_file():
        raise _usage(f"checker {checker} is not a file")
    if checker is not None and path.is_dir():
        raise _usage("--checker applies to one module, not a folder")
    for flag, given in (("--validator", validator), ("--task", task), ("--solver", solver)):
        if given is not None and not given.is_file():
            raise _usage(f"{flag} {given} is not a file")
        if given is not None and path.is_dir():
            raise _usage(f"{flag} applies to one module, not a folder")
    task_text: str | None = None
    examples: list[str] | None = None
    described: TaskDescription | None = None
    if task is not None:
        from synth import compiled

        try:
            described = load_task_file(task)
        except ValueError as exc:
            raise _usage(str(exc)) from exc
        task_text = compiled.task_text(described)
        examples = [e.input for e in described.examples] or None
    try:
        if path.is_dir() and fail_fast:
            raise _usage("--fail-fast applies to one module, not a folder")
        if path.is_dir():
            reports = _audit(path, references[0] if references else None, sandbox)
        else:
            if any(ref.is_dir() for ref in references):
                raise _usage("--reference must be a file when checking one module")
            voters = _voters(path, references, solver, described, sandbox)
            from synth.gate import CheckConfig

            config = CheckConfig(fail_fast=True) if fail_fast else None
            reports = [(path, run_checks_file(path, reference=references[0] if references
                                              else None, backend=sandbox, config=config,
                                              checker=checker, task_text=task_text,
                                              validator=validator, example_inputs=examples,
                                              voters=voters))]
    except SandboxUnavailableError as exc:
        raise _usage(f"{exc} (try --sandbox process)") from exc
    except SourceUnavailableError as exc:  # the --task solutions could not be run
        raise _usage(f"{exc} (try --sandbox process)") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise _usage(f"cannot read the module: {exc}") from exc
    if as_json:
        if path.is_dir():
            rows = [{"file": str(p), "report": r.model_dump(mode="json")} for p, r in reports]
            typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        else:
            typer.echo(reports[0][1].model_dump_json(indent=2))
        for module, report in reports:
            if report.cannot_judge:
                err.print(Text(f"{module.name}: ") + _decisive(report))
    elif path.is_dir():
        _print_audit(path, reports)
    else:
        _print_report(path, reports[0][1])
    verdicts = {r.verdict for _, r in reports}
    for worst in ("infrastructure_error", "rejected", "cannot_judge"):
        if worst in verdicts:
            raise typer.Exit(EXIT[worst])
    raise typer.Exit(0)


def load_task_file(path: Path) -> TaskDescription:
    """The one task a task-description file holds: a Markdown task with front matter (the
    ``local`` source), or a .json/.jsonl file of one record -- a TaskDescription (as ``synth
    sources export`` and run folders write them), a CodeContests record (``name``,
    ``description``, ...) or a generic record (``statement``, ``examples``, ...: the ``jsonl``
    source's field names). Raises ValueError with a one-line message saying what to do."""
    import tempfile

    from synth.sources import CodeContestsSource, JsonlSource, LocalSource
    from synth.sources.base import SourceUnavailableError
    from synth.tasks import SourceError, TaskDescription, read_task_file

    suffix = path.suffix.lower()
    if suffix not in (".md", ".json", ".jsonl"):
        raise ValueError(f"--task {path}: expected a .md task description or a .json/.jsonl "
                         "record of one task")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"--task {path}: cannot read it ({exc})") from exc
    with tempfile.TemporaryDirectory(prefix="synth-task-") as tmp:
        if suffix == ".md":
            items = list(LocalSource().load(path=path))
        else:
            try:
                records = ([json.loads(text)] if suffix == ".json" else
                           [json.loads(line) for line in text.splitlines() if line.strip()])
            except ValueError as exc:
                raise ValueError(f"--task {path}: not valid JSON ({exc})") from exc
            if len(records) == 1 and isinstance(records[0], list):
                records = records[0]
            if len(records) != 1 or not isinstance(records[0], dict):
                raise ValueError(f"--task {path}: holds {len(records)} records; give a file of "
                                 "exactly one task (one JSON object, e.g. one line of the .jsonl)")
            one = Path(tmp) / "task.jsonl"
            one.write_text(json.dumps(records[0], ensure_ascii=False) + "\n", encoding="utf-8")
            keys = set(records[0])
            try:
                if {"id", "source", "kind", "provenance"} <= keys:
                    items = list(read_task_file(one))
                elif {"name", "description"} <= keys:
                    items = list(CodeContestsSource().load(path=one, verify=False,
                                                           min_rating=None, max_rating=None))
                else:
                    items = list(JsonlSource().load(path=one))
            except SourceUnavailableError as exc:
                raise ValueError(f"--task {path}: {exc}") from exc
    tasks = [i for i in items if isinstance(i, TaskDescription)]
    if tasks:
        return tasks[0]
    errors = [i for i in items if isinstance(i, SourceError)]
    why = errors[0].message if errors else "no task in it"
    raise ValueError(f"--task {path}: not a task description ({why}); see "
                     "task_descriptions/README.md for the formats")


def _voters(path: Path, references: list[Path], solver: Path | None,
            task: TaskDescription | None, sandbox: str) -> list[Voter]:
    """The programs that vote on the module's answer key besides the first ``--reference``: the
    other ``--reference`` programs, ``--solver``, and the solutions of ``--task`` (each run on
    the task's public tests in the sandbox first, unless the task file says it was; one that
    fails them does not vote). What is left out is said on stderr."""
    from synth import compiled
    from synth.gate import Voter
    from synth.gate.key import task_voters

    voters = [Voter(ref.read_text(encoding="utf-8"), f"--reference {n} ({ref.name})")
              for n, ref in enumerate(references[1:], 2)]
    if solver is not None:
        voters.append(Voter(solver.read_text(encoding="utf-8"), f"the solver {solver.name}",
                            kind="solver"))
    if task is not None:
        module = path.read_text(encoding="utf-8")
        key = compiled.embedded_program(module)
        if key is None and references:
            key = references[0].read_text(encoding="utf-8")
        found, notes = task_voters(_verify_solutions(task, key, sandbox), key)
        for note in notes:
            err.print(Text(f"note: --task {task.id}: {note}", style="dim"))
        voters += found
    return voters


#: unverified solutions of a --task file run on its public tests, at most
MAX_VERIFIED = 8


def _verify_solutions(task: TaskDescription, key: str | None, sandbox: str) -> TaskDescription:
    """``task`` with its unverified Python 3 stdio solutions (at most :data:`MAX_VERIFIED`,
    copies left out) marked verified where they reproduce every public test in the sandbox."""
    from synth.sources.verify import check_program, sandbox_runner
    from synth.text.solutions import same_solution

    if not task.tests.public:
        return task
    runner = sandbox_runner(sandbox)
    limit = task.metadata.time_limit_s or 2.0
    timeout = min(10.0, max(2.0, 3 * limit))
    refs = list(task.references)
    tried: list[str] = [key] if key is not None else []
    for n, ref in enumerate(refs):
        if ref.verified or ref.language != "python3" or ref.interface != "stdio":
            continue
        if len(tried) > MAX_VERIFIED or any(same_solution(c, ref.code) for c in tried):
            continue
        tried.append(ref.code)
        verdict = check_program(ref.code, task.tests.public, runner, timeout)
        if verdict.ok:
            refs[n] = ref.model_copy(update={"verified": True})
        else:
            err.print(Text(f"note: --task {task.id}: solution {n + 1} fails the public tests "
                           f"({verdict.detail[:160]}): no vote", style="dim"))
    return task.model_copy(update={"references": refs})


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
    return {
        "infrastructure_error": Text("SANDBOX ERROR", style="bold yellow"),
        "accepted": Text("PASSED", style="bold green"),
        "cannot_judge": Text("CANNOT JUDGE", style="bold cyan"),
    }.get(report.verdict, Text("FAILED", style="bold red"))


def _decisive(report: CheckReport) -> Text:
    """One line: what decided the verdict (and how many conventions were only reported)."""
    decisive = report.decisive
    conventions = report.conventions
    noted = (f"; {len(conventions)} convention finding(s) reported, not rejecting: "
             + ", ".join(c.name + (f"/{c.finding}" if c.finding else "") for c in conventions)
             if conventions else "")
    if report.infrastructure_error:
        broken = next((c for c in report.checks if c.status.value == "sandbox_error"), None)
        return Text(f"sandbox error in {broken.name}: {broken.reason}" if broken
                    else "sandbox error")
    if decisive is None:
        return Text("accepted" + noted)
    if report.cannot_judge:
        module = decisive.artifacts.get("missing_module", "")
        what = f"cannot judge: missing module {module}" if module else "cannot judge"
        return Text(f"{what} ({decisive.name}: {decisive.reason}){noted}")
    finding = f"/{decisive.finding}" if decisive.finding else ""
    return Text(f"rejected by {decisive.name}{finding}: {decisive.reason}{noted}")


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
            Text(check.label, style=_STYLE[check.label]),
            "yes" if check.hard else "no",
            f"{check.elapsed_s:.2f}s",
            Text(check.reason),
        )
    out.print(table)
    out.print(Text("verdict: ", style="bold") + _decisive(report))
    if report.key_verified_by:
        style = "green" if report.key_verified else "bold cyan"
        out.print(Text("answer key: ", style="bold") + Text(report.key_verified_by, style=style))
    for check in report.checks:
        if check.status in (CheckStatus.PASSED, CheckStatus.SKIPPED) or not check.artifacts:
            continue
        out.print(Text(f"{check.name} evidence:", style="bold"))
        for key, value in check.artifacts.items():
            shown = value if len(value) <= 700 else value[:700] + " ..."
            out.print(Text(f"  {key}: ", style="cyan") + Text(shown))


def _print_audit(folder: Path, reports: list[tuple[Path, CheckReport]]) -> None:
    from synth.gate import CHECK_NAMES, CheckStatus

    # a check that was skipped (not applicable) in every module gets no column
    names = [n for n in CHECK_NAMES if any(
        (c := r.get(n)) is not None and c.status is not CheckStatus.SKIPPED for _, r in reports)]
    passed = sum(r.passed for _, r in reports)
    unjudged = sum(r.cannot_judge for _, r in reports)
    table = Table(title=f"audit of {folder}: {passed}/{len(reports)} pass every hard check"
                  + (f", {unjudged} cannot be judged" if unjudged else ""),
                  title_justify="left")
    table.add_column("module", overflow="fold")
    table.add_column("mode")
    table.add_column("verdict")
    for name in names:
        table.add_column(name[:8], justify="center")
    table.add_column("decisive finding", overflow="fold")
    for module, report in reports:
        cells = []
        for name in names:
            check = report.get(name)
            cells.append(Text(_GLYPH[check.label], style=_STYLE[check.label]) if check else "")
        table.add_row(module.name, report.mode, _verdict(report), *cells, _decisive(report))
    out.print(table)
    out.print(Text("ok passed, FAIL failed, ERR error, TIME timeout, OOM out of memory, "
                   "SBX sandbox error, conv a convention of the audited library (reported, not "
                   "rejecting), ?? cannot judge, - skipped (not applicable or blocked); checks "
                   "skipped in every module are left out",
                   style="dim"))
