"""Fixtures for the adversarial corpus: a backend per parameter (leftover scans: helpers.py) and
the canary secrets the hostile programs look for."""

from __future__ import annotations

import secrets
import shutil
from collections.abc import Iterator

import pytest
from gate_support import CANARY_DIR
from helpers import ALL_BACKENDS, require_backend

from synth.sandbox.base import Backend


@pytest.fixture(params=ALL_BACKENDS)
def backend(request: pytest.FixtureRequest) -> Backend:
    """The named backend; skipped loudly (stderr and skip reason) when it cannot run here."""
    return require_backend(request.param)


@pytest.fixture
def canary(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A secret in the parent's environment and in a root-only file the programs look for."""
    secret = f"sk-canary-{secrets.token_hex(8)}"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    shutil.rmtree(CANARY_DIR, ignore_errors=True)
    CANARY_DIR.mkdir(mode=0o700)
    (CANARY_DIR / "secret.txt").write_text(f"secret {secret}\n")
    (CANARY_DIR / "secret.txt").chmod(0o600)
    yield secret
    shutil.rmtree(CANARY_DIR, ignore_errors=True)
