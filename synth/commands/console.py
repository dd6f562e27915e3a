"""The CLI's rich consoles: their width follows the terminal (or ``COLUMNS``) at every print.

rich reads ``COLUMNS`` once, when a console is made, and keeps that width for good. The command
modules make their consoles at import, so whatever ``COLUMNS`` held then would wrap every later
command run in the same process (an in-process caller, a test runner) at that width.
"""

from __future__ import annotations

from typing import Any

from rich import console as _rich


class Console(_rich.Console):
    """A rich console that reads its width at each print, unless one is given."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # rich keeps a width read from COLUMNS in these two fields; None makes `size` read the
        # terminal and COLUMNS each time (tests/foundation/test_console_width.py holds it)
        if kwargs.get("width") is None:
            self._width = None
        if kwargs.get("height") is None:
            self._height = None
