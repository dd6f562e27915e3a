"""The leftover-process checks count this test process's processes, and only leave out what
another test worker or another test run started (tests/helpers.py:started_elsewhere)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time

from helpers import WORKER_VARIABLE, processes_with

SLEEP = "import time; time.sleep(60)  # {marker}"


def _spawn(marker: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", SLEEP.format(marker=marker)], env=env)


def _wait_for(marker: str, want: int) -> list[int]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = [pid for pid, _ in processes_with(marker)]
        if len(found) >= want:
            return found
        time.sleep(0.05)
    return [pid for pid, _ in processes_with(marker)]


def test_own_processes_count_and_another_workers_do_not() -> None:
    assert os.environ[WORKER_VARIABLE]  # named by tests/conftest.py
    marker = f"attribution-{secrets.token_hex(4)}"
    mine = _spawn(marker)  # inherits this process's name
    clean = _spawn(marker, env={"PATH": os.environ.get("PATH", "")})  # no name: its parent's
    other = _spawn(marker, env={**os.environ, WORKER_VARIABLE: "gw9-1"})
    try:
        _wait_for(marker, 2)
        time.sleep(0.2)  # the third one had as long to start
        found = [pid for pid, _ in processes_with(marker)]
        assert sorted(found) == sorted([mine.pid, clean.pid]), (found, mine.pid, clean.pid, other.pid)
    finally:
        for p in (mine, clean, other):
            p.kill()
            p.wait()
    assert processes_with(marker) == []


def test_an_orphan_nobody_places_is_counted() -> None:
    """A daemon whose parent exited (reparented to init) and which carries no test name is
    counted as this test's leftover: the attribution never hides a leak."""
    marker = f"orphan-{secrets.token_hex(4)}"
    code = ("import os, subprocess, sys\n"
            f"subprocess.Popen([sys.executable, '-c', {SLEEP.format(marker=marker)!r}],"
            " env={'PATH': os.environ.get('PATH', '')}, start_new_session=True)\n")
    subprocess.run([sys.executable, "-c", code], env={"PATH": os.environ.get("PATH", "")},
                   check=True)
    found = _wait_for(marker, 1)
    try:
        assert len(found) == 1, found
    finally:
        for pid in found:
            os.kill(pid, 9)


def test_a_parent_naming_a_pytest_folder_does_not_hide_its_children(tmp_path) -> None:
    """Only a pytest runner's command line marks another test run: a sandbox parent (bwrap,
    a runner script) whose arguments name pytest's temporary folders does not."""
    token = secrets.token_hex(4)
    marker = f"pytest-path-{token}"  # in the child's command line only: the parent gets it in two
    clean = {"PATH": os.environ.get("PATH", "")}
    code = ("import subprocess, sys\n"
            "marker = 'pytest-path-' + sys.argv[2]\n"
            f"subprocess.Popen([sys.executable, '-c', {SLEEP!r}.format(marker=marker)]).wait()\n")
    parent = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "pytest-of-root"), token],
                              env=clean)
    try:
        found = _wait_for(marker, 1)
        assert len(found) == 1, found
    finally:
        for pid in [pid for pid, _ in processes_with(marker)]:
            os.kill(pid, 9)
        parent.kill()
        parent.wait()
