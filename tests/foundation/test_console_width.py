"""The CLI's consoles wrap at the width of the moment (COLUMNS, or the terminal), not at the
width COLUMNS held when the command modules were imported."""

from __future__ import annotations

import io
import os

import pytest
from rich.console import Console as RichConsole

from synth.commands.console import Console

LINE = "word " * 40  # 200 characters


def _lines(console: RichConsole) -> int:
    console.print(LINE)
    return len(console.file.getvalue().rstrip("\n").split("\n"))  # type: ignore[attr-defined]


def test_a_console_made_under_a_narrow_columns_prints_wide_later(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("COLUMNS", "60")
    monkeypatch.setenv("LINES", "20")
    ours = Console(file=io.StringIO())
    # (rich reads the mapping that was os.environ at its import: datasets may have replaced it)
    plain = RichConsole(file=io.StringIO(), _environ=os.environ)
    monkeypatch.setenv("COLUMNS", "250")
    assert ours.width == 250 and _lines(ours) == 1, (os.environ.get("COLUMNS"), ours.is_terminal,
                                                     ours.is_dumb_terminal, ours.size)
    # rich alone keeps the width of its making: what this module is for
    assert plain.width == 60 and _lines(plain) > 1
    monkeypatch.setenv("COLUMNS", "50")
    assert ours.width == 50 and _lines(Console(file=io.StringIO())) > 1


def test_a_width_given_is_kept(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("COLUMNS", "250")
    narrow = Console(file=io.StringIO(), width=70)
    assert narrow.width == 70 and _lines(narrow) > 1


def test_every_command_module_makes_its_consoles_here():
    from synth.commands import (
        audit,
        calibrate,
        check,
        export,
        library,
        report,
        review,
        run,
        sources,
        suite_eval,
    )

    for module in (audit, calibrate, check, export, library, report, review, run, sources,
                   suite_eval):
        consoles = [v for v in vars(module).values() if isinstance(v, RichConsole)]
        assert consoles and all(isinstance(c, Console) for c in consoles), module.__name__


def test_the_width_follows_an_environment_replaced_after_rich_was_imported(
        monkeypatch: pytest.MonkeyPatch):
    """`datasets`' Dataset.map(num_proc=...) puts a copy in place of os.environ; rich keeps
    reading the mapping it found at import, so a COLUMNS set afterwards never reached it (9 CLI
    tests wrapped at 80 columns when a training test had run before them in the same worker)."""
    import copy

    monkeypatch.setattr(os, "environ", copy.deepcopy(os.environ))
    monkeypatch.setenv("COLUMNS", "250")
    assert Console(file=io.StringIO()).width == 250
    assert RichConsole(file=io.StringIO()).width != 250  # rich alone reads the old mapping
