"""Fixtures for the sandbox tests: backends by name (leftover scans: helpers.py)."""

from __future__ import annotations

import pytest
from helpers import ALL_BACKENDS, require_backend

from synth.sandbox.base import Backend


@pytest.fixture(params=ALL_BACKENDS)
def backend(request: pytest.FixtureRequest) -> Backend:
    return require_backend(request.param)


@pytest.fixture(params=ALL_BACKENDS[:2])
def local_backend(request: pytest.FixtureRequest) -> Backend:
    """process and bwrap: the backends implemented in this package."""
    return require_backend(request.param)
