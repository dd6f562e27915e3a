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

Work dirs (:func:`make_workdir`): as root, a job's work dir is a size-capped tmpfs of its own,
mounted (``nosuid,nodev``, mode 0700, owned by the job's uid) on a fresh directory under
:data:`WORK_BASE` (root-owned, mode 0711, outside ``/tmp``: the job's private mount namespace
puts an empty tmpfs over ``/tmp``). The job cannot write more than the cap into it (ENOSPC),
and its pages count against the job's memory cgroup. :func:`remove_workdir` detaches the mount
and removes the directory; :func:`reap_stale_workdirs` does the same for work dirs of parents
that were killed before their cleanup. Without root a work dir is a plain ``/tmp`` directory.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import random
import shutil
import signal
import stat
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
    "make_workdir",
    "new_identity",
    "pids_of",
    "reap_stale_workdirs",
    "release_identity",
    "remove_workdir",
    "rmtree",
    "sweep_files",
    "work_base",
]

KILL = shutil.which("kill", path="/usr/bin:/bin")
SWEEP_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
WORK_BASE = "/run/synth-sbx"  # root-only parent of tmpfs work dirs (see the module docstring)
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
    """Remove ``path`` even where a job chmod-ed its own dirs to 0. Modes are given back only
    inside the tree: the directory holding ``path`` (e.g. :data:`WORK_BASE`) is never touched
    (a chmod of it to 0700 once shut every later job out of its work dir)."""
    top = os.path.abspath(path)

    def _onerror(func: object, p: str, exc: object) -> None:
        with contextlib.suppress(OSError):
            parent = os.path.dirname(os.path.abspath(p))
            if parent == top or parent.startswith(top + "/"):
                os.chmod(parent, 0o700)
        with contextlib.suppress(OSError):
            os.chmod(p, 0o700)
        with contextlib.suppress(OSError):
            if os.path.isdir(p) and not os.path.islink(p):
                shutil.rmtree(p, ignore_errors=True)
            else:
                os.unlink(p)

    shutil.rmtree(path, onerror=_onerror)


def pids_of(uid: int) -> list[int]:
    return [pid for pid, owner in _proc_uids().items() if owner == uid]


_MS_NOSUID, _MS_NODEV, _MNT_DETACH = 2, 4, 2
_libc: ctypes.CDLL | None = None


def _syscalls() -> ctypes.CDLL:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def work_base() -> str:
    """:data:`WORK_BASE`, created if missing; refused unless it is root's and not writable by
    anyone else (a planted symlink or directory must not receive the mounts)."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(WORK_BASE, 0o711)
    st = os.lstat(WORK_BASE)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != 0 or st.st_mode & 0o022:
        raise OSError(f"{WORK_BASE} is not a directory that only root can write")
    if stat.S_IMODE(st.st_mode) != 0o711:
        # the jobs' uids must traverse it (a umask of 077, or anything that narrowed it, would
        # leave every job unable to open its own files)
        os.chmod(WORK_BASE, 0o711)
    return WORK_BASE


def make_workdir(ident: Identity, size_bytes: int | None) -> tuple[str, bool]:
    """A fresh work dir (mode 0700, owned by the job's uid). With ``size_bytes`` and a private
    uid it is a tmpfs of that size under :data:`WORK_BASE`; returns (path, mounted)."""
    if size_bytes is None or not ident.private:
        path = tempfile.mkdtemp(prefix="synth-sbx-")
        if ident.private:
            os.chown(path, ident.uid, ident.gid)
        return path, False
    path = tempfile.mkdtemp(prefix="synth-sbx-", dir=work_base())
    opts = f"size={size_bytes},mode=0700,uid={ident.uid},gid={ident.gid}".encode()
    if _syscalls().mount(b"synth-sbx", path.encode(), b"tmpfs", _MS_NOSUID | _MS_NODEV, opts):
        err = ctypes.get_errno()
        os.rmdir(path)
        raise OSError(err, f"cannot mount a tmpfs on {path}: {os.strerror(err)}")
    return path, True


def remove_workdir(path: str, mounted: bool) -> None:
    """Remove a work dir made by :func:`make_workdir` (detaching its tmpfs first)."""
    if mounted:
        _syscalls().umount2(path.encode(), _MNT_DETACH)
        with contextlib.suppress(OSError):
            os.rmdir(path)
            return
    rmtree(path)


def reap_stale_workdirs(prefix: str = "synth-sbx-", min_age_s: float = 60.0) -> list[str]:
    """Remove work dirs that a dead parent (e.g. killed with SIGKILL) could not clean up:
    ``<prefix>*`` in ``/tmp`` and :data:`WORK_BASE` owned by a private-range uid that no live
    process has, older than ``min_age_s`` (tmpfs work dirs are unmounted first). Returns the
    removed paths. Called once when the process backend probes."""
    if os.geteuid() != 0:
        return []
    live = set(_proc_uids().values())
    removed = []
    now = time.time()
    for top in (tempfile.gettempdir(), WORK_BASE):
        with contextlib.suppress(OSError):
            for entry in os.scandir(top):
                if not entry.name.startswith(prefix):
                    continue
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                private = _UID_BASE <= st.st_uid < _UID_BASE + _UID_SPAN
                if private and st.st_uid not in live and now - st.st_mtime > min_age_s:
                    remove_workdir(entry.path, os.path.ismount(entry.path))
                    removed.append(entry.path)
    return removed
