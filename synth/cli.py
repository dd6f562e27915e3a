"""The `synth` command line: wiring only; each command lives in synth/commands/."""

from __future__ import annotations

import io
import sys

import typer

from synth.commands import audit as audit_cmd
from synth.commands import calibrate as calibrate_cmd
from synth.commands import check as check_cmd
from synth.commands import export as export_cmd
from synth.commands import library as library_cmd
from synth.commands import report as report_cmd
from synth.commands import review as review_cmd
from synth.commands import run as run_cmd
from synth.commands import sources as sources_cmd
from synth.commands import suite_eval as suite_eval_cmd

app = typer.Typer(
    name="synth",
    help="Synthesise, gate and grow a library of verifiable reasoning bootcamps.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("run", help="Grow the library from a task source: draft, gate, revise, filter, commit.")(
    run_cmd.run_command
)
app.command("check", help="Run the quality gate on a bootcamp module (or audit a folder).")(
    check_cmd.check_command
)
app.command(
    "audit",
    help="Audit an existing bootcamp library (a folder or an installed package): every module's "
    "verdict and finding by severity class, in parallel; writes audit.html and audit.csv.",
)(audit_cmd.audit_command)
app.command(
    "report",
    help="Summarise a run: yield, rejection reasons, rounds, pass rates, cost, time; writes report.html.",
)(report_cmd.report_command)
app.add_typer(
    review_cmd.app, name="review", help="Review bootcamps before they go live; --serve the review page."
)
app.add_typer(sources_cmd.app, name="sources", help="Task-description sources.")
app.add_typer(library_cmd.app, name="library", help="List, show and add bootcamps of a library.")
app.command("export", help="Write seeded, split-disjoint training data (verl rows).")(
    export_cmd.export_command
)
app.command(
    "suite-eval",
    help="Measure compiled bootcamps' code test suites on labelled solutions: TPR and TNR of "
    "the examples, the suite without stress and the full suite; catches; a minimised suite.",
)(suite_eval_cmd.suite_eval_command)
app.command(
    "calibrate",
    help="Measure a bootcamp's per-level pass rates against a solver (all K answers, 95% Wilson "
    "intervals) and record them in the library.",
)(calibrate_cmd.calibrate_command)


def main() -> None:
    # output is UTF-8 text: a lone surrogate (from a library, a run folder, a model's reply) is
    # printed as its \udXXX escape, never a UnicodeEncodeError
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    app()


if __name__ == "__main__":
    main()
