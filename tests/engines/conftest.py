"""Fixtures of the engine tests: GNU Go must be installed (scripts/system_deps.sh installs it);
without it the tests fail with what to install, they do not skip."""

from __future__ import annotations

import pytest

from synth import engines


@pytest.fixture(scope="session", autouse=True)
def gnugo_installed() -> str:
    ok, version = engines.probe("gnugo")
    if not ok:
        pytest.fail(f"the engine tests need GNU Go: {version} (scripts/system_deps.sh)")
    return version


@pytest.fixture(autouse=True)
def fresh_channel() -> object:
    """Each test starts and ends without a broker of this process (none is left behind)."""
    engines._close_channel()
    yield None
    engines._close_channel()
