"""The CLI's consoles wrap at the width of the moment (COLUMNS, or the terminal), not at the
width COLUMNS held when the command modules were imported."""

from __future__ import annotations

import io

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
    plain = RichConsole(file=io.StringIO())
    monkeypatch.setenv("COLUMNS", "250")
    assert ours.width == 250 and _lines(ours) == 1
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
