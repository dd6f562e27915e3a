"""Names stay whole in an 80-column terminal: the tables of `synth library list`, `synth export`
and `synth report` wrap their other columns instead of cutting a bootcamp's or a task's name."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from synth.commands.tables import add_columns
from synth.library import Library

REPO = Path(__file__).resolve().parents[2]
LONG = ["codecontests_16_f_bulbs_without_long_glows", "codecontests_06_c_divisors_loyal_to_their_digits"]


def _render(table: Table, width: int = 80) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(table)
    return console.export_text()


def test_names_are_whole_and_the_other_columns_wrap_at_80_columns():
    rows = [[name, "a long reason that the table may wrap freely " * 2, "0.333", "12", name[:12]]
            for name in LONG]
    table = Table(title="t")
    add_columns(table, ("bootcamp", "reason", "pass rate", "K", "task"), rows)
    for row in rows:
        table.add_row(*row)
    text = _render(table)
    assert max(len(line) for line in text.splitlines()) <= 80
    for name in LONG:
        assert name in text, text  # on one line, uncut
    assert "…" not in text
    # without the helper rich cuts the name (the bug this guards against)
    plain = Table(title="t")
    for h in ("bootcamp", "reason", "pass rate", "K", "task"):
        plain.add_column(h)
    for row in rows:
        plain.add_row(*row)
    assert not all(name in _render(plain) for name in LONG)


def test_library_list_in_an_80_column_terminal_shows_every_name_whole():
    env = {**os.environ, "COLUMNS": "80", "LINES": "50", "TERM": "dumb"}
    done = subprocess.run([sys.executable, "-m", "synth.cli", "library", "list"], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    names = [r.name for r in Library().records()]
    assert any(len(n) > 30 for n in names)
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80, done.stdout
    for name in names:
        assert any(name in line for line in lines), (name, done.stdout)


def test_the_run_summary_keeps_task_and_bootcamp_names_whole_at_80_columns():
    from synth.commands.run import _final_table
    from synth.workflow.orchestrator import RunSummary, TaskOutcome

    outcomes = [TaskOutcome(task_id=f"codecontests/{name.removeprefix('codecontests_')}",
                            status="accepted", reason_code="accepted", reason="in band 0.333",
                            bootcamp=name) for name in LONG]
    outcomes.append(TaskOutcome(task_id="codecontests/01_a_task_that_failed_its_gate",
                                status="rejected", reason_code="gate_failed",
                                reason="an invented second input value " * 3))
    summary = RunSummary(run_id="r", run_dir="runs/r", outcomes=outcomes)
    for width in (80, 160):
        console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
        console.print(_final_table(summary, width))
        text = console.export_text()
        assert max(len(line) for line in text.splitlines()) <= width
        for o in outcomes:
            assert o.task_id in text, text
            assert o.bootcamp is None or o.bootcamp in text, text
        # narrow: the names under the table; wide: beside the tasks
        assert ("-> bootcamp" in text) is (width == 80)
