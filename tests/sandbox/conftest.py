"""Fixtures for the sandbox tests: backends by name and a leftover-process scan."""

from __future__ import annotations

import os
import sys
import time

import pytest

from synth.sandbox import get_backend
from synth.sandbox.base import Backend, SandboxUnavailableError

ALL_BACKENDS = [
    pytest.param("process", id="process"),
    pytest.param("bwrap", id="bwrap"),
    pytest.param("docker", id="docker", marks=pytest.mark.docker),
]


def require_backend(name: str) -> Backend:
    """The named backend, or a loud skip saying why it cannot run here."""
    try:
        return get_backend(name)
    except SandboxUnavailableError as exc:
        message = f"SANDBOX BACKEND {name!r} NOT TESTED: cannot run here: {exc}"
        print(message, file=sys.stderr)
        pytest.skip(message)


@pytest.fixture(params=ALL_BACKENDS)
def backend(request: pytest.FixtureRequest) -> Backend:
    return require_backend(request.param)


@pytest.fixture(params=ALL_BACKENDS[:2])
def local_backend(request: pytest.FixtureRequest) -> Backend:
    """process and bwrap: the backends implemented in this package."""
    return require_backend(request.param)


def processes_with(marker: str) -> list[tuple[int, str]]:
    """Live processes whose command line contains ``marker`` (zombies have none)."""
    found = []
    needle = marker.encode()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmdline = fh.read()
        except OSError:
            continue
        if needle in cmdline:
            found.append((int(name), cmdline.replace(b"\0", b" ").decode(errors="replace")[:200]))
    return found


def assert_no_leftovers(marker: str, grace_s: float = 2.0) -> None:
    deadline = time.monotonic() + grace_s
    while True:
        left = processes_with(marker)
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert left == [], f"leftover sandbox processes: {left}"
