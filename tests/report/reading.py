"""Reading a scripted run and a report page independently of synth.reporting.report."""

from __future__ import annotations

import json
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

#: what the toy script makes of each task (see tests/fakes/scenarios.py)
SCRIPTED = ["accept-a", "revise-b", "broken-c", "easy-d", "hard-e"]
PRICES = {
    "fake-coder": {"input_per_mtok": 3.0, "output_per_mtok": 15.0},
    "fake-solver": {"input_per_mtok": 0.5, "output_per_mtok": 1.5},
}


@dataclass
class ScriptedRun:
    runs_dir: Path
    run_dir: Path
    prices: dict[str, dict[str, float]]

    @property
    def run_id(self) -> str:
        return self.run_dir.name

    def ledger(self) -> list[dict]:
        """The llm_call events, read straight from the log (not through the report)."""
        lines = (self.run_dir / "events.jsonl").read_text().splitlines()
        return [e for e in map(json.loads, lines) if e["kind"] == "llm_call"]


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._table: list[list[str]] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        ident = dict(attrs).get("id") or ""
        if tag == "table" and ident.startswith("table-"):
            self._table = self.tables.setdefault(ident.removeprefix("table-"), [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._table is not None and self._cell is not None:
            self._table[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def html_tables(text: str) -> dict[str, list[dict[str, str]]]:
    """Tables of a report page by id, as lists of {header: cell text}."""
    parser = _Tables()
    parser.feed(text)
    return {
        name: [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]
        for name, rows in parser.tables.items()
        if rows
    }
