"""Private identities: a fresh unprivileged uid per job, and the exact cleanup it allows.

When the parent is root, every sandbox job runs as a uid of its own (a random number in
``[2e9, 2.1e9)`` that no live process uses, gid equal to it, no supplementary groups). That makes
``RLIMIT_NPROC`` a per-job process budget, and it makes cleanup exact: :func:`kill_identity`
issues ``kill(-1, SIGKILL)`` *as that uid* (the kernel signals every process the uid owns, in
whatever session or process group it hid, atomically with respect to fork), and
:func:`sweep_files` removes what the uid left in the world-writable directories. Processes are
found through ``/proc/PID/status`` (the real uid), which a process cannot hide by making itself
non-dumpable. Without root, the identity is the caller's own (``private=False``) and these
functions do only what is safe for a shared uid (nothing beyond the process group).
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass

__all__ = [
    "KILL",
    "SWEEP_DIRS",
    "Identity",
    "kill_identity",
    "new_identity",
    "pids_of",
    "reap_stale_workdirs",
    "release_identity",
    "rmtree",
    "sweep_files",
]

KILL = shutil.which("kill", path="/usr/bin:/bin")
SWEEP_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
_UID_BASE = 2_000_000_000
_UID_SPAN = 100_000_000


@dataclass(frozen=True)
class Identity:
    """Who a job runs as. ``private`` means the uid is unique to this job (parent is root)."""

    uid: int
    gid: int
    private: bool


def _proc_uids() -> dict[int, int]:
    """pid -> real uid of every live, non-zombie process (from /proc/PID/status, which, unlike
    the owner of /proc/PID, a process cannot hide by making itself non-dumpable)."""
    found: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as fh:
                head = fh.read(1024)
        except OSError:
            continue
        state = head.find(b"\nState:\t")
        if state >= 0 and head[state + 8 : state + 9] in (b"Z", b"X"):
            continue  # zombies cannot run, fork or be killed; their parent reaps them
        at = head.find(b"\nUid:\t")
        if at >= 0:
            with contextlib.suppress(ValueError, IndexError):
                found[int(name)] = int(head[at + 6 :].split(None, 1)[0])
    return found


def _live_uids() -> set[int]:
    return set(_proc_uids().values())


_uid_lock = threading.Lock()
_uids_in_use: set[int] = set()


def new_identity() -> Identity:
    """A fresh unprivileged uid when we are root, else the caller's own uid."""
    if os.geteuid() != 0:
        return Identity(os.getuid(), os.getgid(), private=False)
    live = _live_uids()
    rng = random.SystemRandom()
    with _uid_lock:
        while True:
            uid = _UID_BASE + rng.randrange(_UID_SPAN)
            if uid not in live and uid not in _uids_in_use:
                _uids_in_use.add(uid)
                return Identity(uid, uid, private=True)


def release_identity(ident: Identity) -> None:
    with _uid_lock:
        _uids_in_use.discard(ident.uid)


def kill_identity(ident: Identity, pgid: int | None = None) -> bool:
    """Kill everything the job started: its process group, and (private uid) every process of
    the uid, via ``kill -KILL -1`` run as that uid (the kernel signals them all atomically).
    Returns True when no process of the (private) uid is left."""
    if pgid is not None:
        with contextlib.suppress(OSError):
            os.killpg(pgid, signal.SIGKILL)
    if not ident.private or KILL is None:
        return not ident.private
    for _ in range(5):
        if not _has_processes(ident.uid):
            return True
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                [KILL, "-9", "-1"],
                user=ident.uid,
                group=ident.gid,
                extra_groups=[],
                env={},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=5,
                close_fds=True,
            )
        time.sleep(0.01)
    return not _has_processes(ident.uid)


def _has_processes(uid: int) -> bool:
    return uid in _proc_uids().values()


def sweep_files(ident: Identity) -> list[str]:
    """Remove what a private uid left in world-writable directories; return the paths."""
    removed: list[str] = []
    if not ident.private:
        return removed
    for top in SWEEP_DIRS:
        try:
            entries = list(os.scandir(top))
        except OSError:
            continue
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if st.st_uid != ident.uid:
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
            removed.append(entry.path)
    return removed


def rmtree(path: str) -> None:
    def _onerror(func: object, p: str, exc: object) -> None:
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(p), 0o700)
            os.chmod(p, 0o700)
        with contextlib.suppress(OSError):
            if os.path.isdir(p) and not os.path.islink(p):
                shutil.rmtree(p, ignore_errors=True)
            else:
                os.unlink(p)

    shutil.rmtree(path, onerror=_onerror)


def pids_of(uid: int) -> list[int]:
    return [pid for pid, owner in _proc_uids().items() if owner == uid]


def reap_stale_workdirs(prefix: str = "synth-sbx-", min_age_s: float = 60.0) -> list[str]:
    """Remove work dirs that a dead parent (e.g. killed with SIGKILL) could not clean up:
    ``/tmp/<prefix>*`` owned by a private-range uid that no live process has, older than
    ``min_age_s``. Returns the removed paths. Called once when the process backend probes."""
    if os.geteuid() != 0:
        return []
    live = set(_proc_uids().values())
    removed = []
    now = time.time()
    with contextlib.suppress(OSError):
        for entry in os.scandir(tempfile.gettempdir()):
            if not entry.name.startswith(prefix):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            private = _UID_BASE <= st.st_uid < _UID_BASE + _UID_SPAN
            if private and st.st_uid not in live and now - st.st_mtime > min_age_s:
                rmtree(entry.path)
                removed.append(entry.path)
    return removed
