"""Verifiers that read the answer with their own extract_output (a greedy regex over every
answer block; every block kept and any right one accepted) were subtle-corpus defects that only
an independent checker caught. Since issue 22 the contract's extraction is the only one: such a
module is refused by the static gate before it runs, whatever its verifier does."""

from __future__ import annotations

from pathlib import Path

import pytest

from synth.gate import run_checks
from synth.sandbox import get_backend
from synth.sandbox.static import check_source

HERE = Path(__file__).resolve().parent / "extraction"


@pytest.mark.parametrize("path", sorted(HERE.glob("*.py")), ids=lambda p: p.stem)
def test_an_own_extraction_is_refused_before_it_runs(path: Path) -> None:
    code = path.read_text(encoding="utf-8")
    assert {v.rule for v in check_source(code)} == {"extraction_override"}
    report = run_checks(code, backend=get_backend("process"))
    assert not report.passed
    static = report.get("static")
    assert static is not None and not static.ok and "overrides extract_output" in static.reason
