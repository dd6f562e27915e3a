"""Fixtures for the adversarial corpus: a backend per parameter (leftover scans: helpers.py)."""

from __future__ import annotations

import pytest
from helpers import ALL_BACKENDS, require_backend

from synth.sandbox.base import Backend


@pytest.fixture(params=ALL_BACKENDS)
def backend(request: pytest.FixtureRequest) -> Backend:
    """The named backend; skipped loudly (stderr and skip reason) when it cannot run here."""
    return require_backend(request.param)
