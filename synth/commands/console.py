"""The CLI's rich consoles: their width follows ``COLUMNS`` (or the terminal) at every print.

rich reads ``COLUMNS`` once, when a console is made, and keeps that width for good; it also
reads the environment through the mapping that was ``os.environ`` when rich was imported. The
command modules make their consoles at import, so the width of that moment would wrap every
later command run in the same process (an in-process caller, a test runner).
"""

from __future__ import annotations

import os
from typing import Any

from rich import console as _rich


class Console(_rich.Console):
    """A rich console that reads its width at each print, unless one is given."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._live_width = kwargs.get("width") is None
        if self._live_width:  # the width rich read from COLUMNS at its making
            self._width = None

    @property
    def size(self) -> _rich.ConsoleDimensions:
        dims = super().size
        columns = os.environ.get("COLUMNS", "") if self._live_width else ""
        if columns.isdigit() and int(columns) > 0:
            return _rich.ConsoleDimensions(int(columns), dims.height)
        return dims

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        width, height = new_size
        self._live_width = False
        self.width, self.height = width, height
