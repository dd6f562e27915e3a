"""Every bootcamp shipped in generated_bootcamps/ passes the whole gate (with its reference
program when generated_bootcamps/<source>/reference/<name>.py exists)."""

from __future__ import annotations

from pathlib import Path

import pytest

from synth.gate import CheckStatus, run_checks_file

LIBRARY = Path(__file__).resolve().parent.parent.parent / "generated_bootcamps"
SHIPPED = sorted(
    p for p in LIBRARY.glob("*/*.py") if not p.name.startswith("_") and p.parent.name != "reference"
)


def test_the_library_has_bootcamps_to_check():
    assert SHIPPED, f"no bootcamp modules under {LIBRARY}"


@pytest.mark.parametrize("path", SHIPPED, ids=[f"{p.parent.name}/{p.name}" for p in SHIPPED])
def test_shipped_bootcamp_passes_the_gate(path, process_backend):
    ref = path.parent / "reference" / path.name
    report = run_checks_file(path, reference=ref if ref.is_file() else None,
                             backend=process_backend)
    assert report.passed, report.feedback()
    oracle = report.get("oracle")  # a multi-turn bootcamp's suite has no oracle check
    assert oracle is not None or report.get("reference_policy") is not None
    if oracle is not None:
        assert oracle.status is (CheckStatus.PASSED if ref.is_file() else CheckStatus.SKIPPED)
