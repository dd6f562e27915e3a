"""Terminal tables whose names survive a narrow terminal.

A bootcamp's or a task's name is what a user copies into the next command; rich's default
squeeze cuts it (``codecon…``) in an 80-column terminal. :func:`name_column` adds such a column
whole (never wrapped, never cut, at least as wide as its longest value) and
:func:`other_column` makes a column wrap (``fold``) instead, so the table fits by wrapping
numbers and prose, not names.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.table import Table

#: the column headers that hold names (bootcamps, tasks, modules, classes)
NAME_HEADERS = frozenset({"bootcamp", "name", "task", "module", "class", "candidate"})


def name_column(table: Table, header: str, values: Iterable[Any], **kwargs: Any) -> None:
    """Add a column of names that is never cut or wrapped (its width: the longest value)."""
    width = max([len(header), *(len(str(v)) for v in values)])
    table.add_column(header, no_wrap=True, min_width=width, overflow="ignore", **kwargs)


def other_column(table: Table, header: str, **kwargs: Any) -> None:
    """Add a column that wraps its cells (``fold``) when the terminal is narrow."""
    table.add_column(header, overflow="fold", **kwargs)


def add_columns(table: Table, headers: Iterable[str], rows: list[list[Any]],
                **kwargs: dict[str, Any]) -> None:
    """Add every column of ``headers`` (a name column whole, the others wrapping;
    ``kwargs[header]``: that column's own options) from the ``rows`` it will hold."""
    for i, header in enumerate(headers):
        options = kwargs.get(header, {})
        if header in NAME_HEADERS:
            name_column(table, header, (r[i] for r in rows), **options)
        else:
            other_column(table, header, **options)
