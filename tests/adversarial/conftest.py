"""Fixtures for the adversarial corpus: a backend per parameter and a leftover-process scan."""

from __future__ import annotations

import os
import sys
import time

import pytest

from synth.sandbox import get_backend
from synth.sandbox.base import Backend, SandboxUnavailableError

BACKENDS = [
    pytest.param("process", id="process"),
    pytest.param("bwrap", id="bwrap"),
    pytest.param("docker", id="docker", marks=pytest.mark.docker),
]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> Backend:
    """The named backend; skipped loudly (stderr and skip reason) when it cannot run here."""
    try:
        return get_backend(request.param)
    except SandboxUnavailableError as exc:
        message = f"SANDBOX BACKEND {request.param!r} NOT TESTED: cannot run here: {exc}"
        print(message, file=sys.stderr)
        pytest.skip(message)


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
    """No process carrying ``marker`` survives (allowing ``grace_s`` for exits in flight)."""
    deadline = time.monotonic() + grace_s
    while True:
        left = processes_with(marker)
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert left == [], f"leftover sandbox processes: {left}"
