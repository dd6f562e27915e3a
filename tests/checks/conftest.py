"""Fixtures of the check-suite tests: the process sandbox and the planted-defect corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from synth.gate import CheckReport, run_checks_file
from synth.sandbox import get_backend
from synth.sandbox.base import Backend

CORPUS = Path(__file__).resolve().parent.parent / "defects" / "corpus"


@pytest.fixture(scope="session")
def process_backend() -> Backend:
    return get_backend("process")


def check_corpus_file(name: str, backend: Backend) -> CheckReport:
    """Run the gate on ``tests/defects/corpus/<name>`` (with its reference program, if any)."""
    path = CORPUS / name
    ref = path.parent / "reference" / path.name
    return run_checks_file(path, reference=ref if ref.is_file() else None, backend=backend)
