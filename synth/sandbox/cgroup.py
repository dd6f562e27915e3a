"""Per-job control groups: one memory and process budget for *all* processes of a job.

``RLIMIT_AS`` is per process, so a job that forks multiplies it (four children of 400 MB each
fit under a 1 GB address-space limit). A control group charges every page of every process of
the job to one counter, including the tmpfs pages it writes (``/dev/shm``, its work dir), so
``Limits.memory_mb`` bounds the job as a whole and ``Limits.pids`` bounds its processes and
threads together.

Which hierarchy (:func:`detect`, probed once per process):

* **cgroup v2** when a cgroup2 mount offers the ``memory`` controller to a cgroup we can create
  children in: our own cgroup or its nearest ancestor whose ``cgroup.subtree_control`` already
  delegates ``memory`` (a cgroup that holds processes cannot delegate; the root may). Job
  cgroups get ``memory.max``, ``memory.swap.max = 0``, ``memory.oom.group = 1`` (an OOM kills
  the whole job) and ``pids.max``; an OOM kill is read from ``memory.events`` (``oom_kill``).
* **cgroup v1** otherwise, when the ``memory`` hierarchy is writable (root): job cgroups are made
  under *our own* memory cgroup (so the job stays inside whatever budget we are in) with
  ``memory.limit_in_bytes`` (and ``memory.memsw.limit_in_bytes`` when swap is accounted), plus a
  ``pids`` cgroup with ``pids.max`` when that controller is mounted. An OOM kill is read from
  ``memory.oom_control`` (``oom_kill``, kernels >= 4.13).

Job cgroups live in a ``synth-sbx`` directory (``<base>/synth-sbx/job-<random>``). The job's
first process joins them itself before it execs the interpreter (the launcher in
:mod:`synth.sandbox.process` runs ``echo 0 > <file>`` for each of :attr:`JobCgroup.join`), so
nothing the job runs is ever outside them and no Python code runs between fork and exec. On v1
the file is ``tasks``: writing ``0`` there moves the (single-threaded) writer itself, which the
kernel does without the global threadgroup lock; writing a pid to ``cgroup.procs`` takes that
lock and waits for an RCU grace period, measured here as ~8 ms more per job start under load. :meth:`JobCgroup.remove` kills
what is left (``cgroup.kill`` on v2, else a pidfd-checked SIGKILL of every member until none is
left) and removes the directories. :func:`reap_stale` removes empty job cgroups that a killed
parent left behind.

When :func:`detect` finds nothing usable the backends fall back to rlimits alone (see
:func:`synth.sandbox.process.rlimit_args`); :func:`enforcement` names what is in use.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import signal
import time
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "RLIMIT_ONLY",
    "Hierarchy",
    "JobCgroup",
    "detect",
    "enforcement",
    "reap_stale",
]

PARENT = "synth-sbx"
RLIMIT_ONLY = "rlimit (per process)"
_MB = 1024 * 1024


@dataclass(frozen=True)
class Hierarchy:
    """Where job cgroups are made: ``memory`` (and ``pids``: v1 pids hierarchy, or the same
    directory on v2; None when there is no pids controller) are ``synth-sbx`` directories."""

    version: int
    memory: str
    pids: str | None
    memsw: bool = False

    @property
    def label(self) -> str:
        return f"cgroup v{self.version}"


def _read(path: str) -> str:
    with open(path) as fh:
        return fh.read()


def _write(path: str, value: str) -> None:
    with open(path, "w") as fh:
        fh.write(value)


def _mounts(mountinfo: str) -> list[tuple[str, str, str, set[str]]]:
    """(root, mount point, fstype, super options) of every cgroup/cgroup2 mount."""
    found = []
    for line in _read(mountinfo).splitlines():
        left, _, right = line.partition(" - ")
        fields, rest = left.split(), right.split()
        if len(fields) < 5 or len(rest) < 3 or rest[0] not in ("cgroup", "cgroup2"):
            continue
        found.append((fields[3], fields[4], rest[0], set(rest[2].split(","))))
    return found


def _own(cgroup_file: str) -> dict[str, str]:
    """controller -> our cgroup path ("" is the v2 unified hierarchy)."""
    own: dict[str, str] = {}
    for line in _read(cgroup_file).splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            own[name] = path
    return own


def _under(mount_root: str, mountpoint: str, path: str) -> str:
    """Our cgroup ``path`` as a directory below ``mountpoint`` (mounted at ``mount_root``)."""
    rel = os.path.relpath(path, mount_root) if path.startswith(mount_root) else "."
    return os.path.normpath(os.path.join(mountpoint, rel))


def _trial(parent: str, files: dict[str, str]) -> bool:
    """Can we make a child of ``parent`` and write ``files`` in it? (Removed again.)"""
    child = os.path.join(parent, f"probe-{secrets.token_hex(4)}")
    try:
        os.mkdir(child)
    except OSError:
        return False
    try:
        for name, value in files.items():
            _write(os.path.join(child, name), value)
        return True
    except OSError:
        return False
    finally:
        with contextlib.suppress(OSError):
            os.rmdir(child)


def _v2(mountpoint: str, mount_root: str, own: str) -> Hierarchy | None:
    if "memory" not in _read(os.path.join(mountpoint, "cgroup.controllers")).split():
        return None
    here = _under(mount_root, mountpoint, own)
    while True:
        try:
            delegated = _read(os.path.join(here, "cgroup.subtree_control")).split()
        except OSError:
            delegated = []
        if "memory" not in delegated and here == mountpoint:
            with contextlib.suppress(OSError):  # the root may delegate despite its processes
                _write(os.path.join(here, "cgroup.subtree_control"), "+memory +pids")
                delegated = _read(os.path.join(here, "cgroup.subtree_control")).split()
        if "memory" in delegated:
            parent = os.path.join(here, PARENT)
            try:
                os.makedirs(parent, exist_ok=True)
                wanted = ["memory"] + (["pids"] if "pids" in delegated else [])
                _write(
                    os.path.join(parent, "cgroup.subtree_control"),
                    " ".join(f"+{c}" for c in wanted),
                )
            except OSError:
                return None
            pids = parent if "pids" in delegated else None
            if _trial(parent, {"memory.max": str(64 * _MB)}):
                return Hierarchy(2, parent, pids)
            return None
        if here == mountpoint or not here.startswith(mountpoint):
            return None
        here = os.path.dirname(here)


def _v1(mounts: list[tuple[str, str, str, set[str]]], own: dict[str, str]) -> Hierarchy | None:
    where: dict[str, str] = {}
    for root, mountpoint, fstype, opts in mounts:
        for controller in ("memory", "pids"):
            if fstype == "cgroup" and controller in opts and controller in own:
                where.setdefault(controller, _under(root, mountpoint, own[controller]))
    if "memory" not in where:
        return None
    memory = os.path.join(where["memory"], PARENT)
    try:
        os.makedirs(memory, exist_ok=True)
    except OSError:
        return None
    if not _trial(memory, {"memory.limit_in_bytes": str(64 * _MB)}):
        return None
    memsw = _trial(
        memory,
        {"memory.limit_in_bytes": str(64 * _MB), "memory.memsw.limit_in_bytes": str(64 * _MB)},
    )
    pids = None
    if "pids" in where:
        candidate = os.path.join(where["pids"], PARENT)
        with contextlib.suppress(OSError):
            os.makedirs(candidate, exist_ok=True)
            if _trial(candidate, {"pids.max": "64"}):
                pids = candidate
    return Hierarchy(1, memory, pids, memsw)


def detect(
    mountinfo: str = "/proc/self/mountinfo", cgroup_file: str = "/proc/self/cgroup"
) -> Hierarchy | None:
    """The hierarchy job cgroups are made in (v2 preferred), or None: rlimits only."""
    return _detect(mountinfo, cgroup_file)


@lru_cache(maxsize=4)
def _detect(mountinfo: str, cgroup_file: str) -> Hierarchy | None:
    try:
        mounts, own = _mounts(mountinfo), _own(cgroup_file)
    except (OSError, ValueError):
        return None
    for root, mountpoint, fstype, _ in mounts:
        if fstype == "cgroup2" and "" in own:
            with contextlib.suppress(OSError):
                found = _v2(mountpoint, root, own[""])
                if found is not None:
                    return found
    try:
        return _v1(mounts, own)
    except OSError:
        return None


def enforcement() -> str:
    """How a job's memory is bounded here: "cgroup v2", "cgroup v1" or "rlimit (per process)"."""
    found = detect()
    return found.label if found else RLIMIT_ONLY


class JobCgroup:
    """The cgroup(s) of one job. ``join``: the files its launcher writes ``0`` into (itself);
    ``procs``: the ``cgroup.procs`` files that list its members."""

    def __init__(self, hierarchy: Hierarchy, dirs: list[str]) -> None:
        self.hierarchy = hierarchy
        self.dirs = dirs
        self.procs = [os.path.join(d, "cgroup.procs") for d in dirs]
        member = "cgroup.procs" if hierarchy.version == 2 else "tasks"
        self.join = [os.path.join(d, member) for d in dirs]

    @classmethod
    def create(
        cls,
        hierarchy: Hierarchy,
        memory_mb: int,
        pids: int,
        owner: int | None = None,
    ) -> JobCgroup:
        """Make the job's cgroup(s) with the limits set. ``owner``: a uid that must be able to
        join them itself (its launcher runs as that uid). Raises OSError."""
        name = f"job-{secrets.token_hex(6)}"
        made: list[str] = []
        try:
            limit = str(memory_mb * _MB)
            if hierarchy.version == 2:
                path = os.path.join(hierarchy.memory, name)
                os.mkdir(path)
                made.append(path)
                _write(os.path.join(path, "memory.max"), limit)
                for fname, value in (("memory.swap.max", "0"), ("memory.oom.group", "1")):
                    with contextlib.suppress(FileNotFoundError):
                        _write(os.path.join(path, fname), value)
                if hierarchy.pids:
                    _write(os.path.join(path, "pids.max"), str(pids))
            else:
                path = os.path.join(hierarchy.memory, name)
                os.mkdir(path)
                made.append(path)
                _write(os.path.join(path, "memory.limit_in_bytes"), limit)
                if hierarchy.memsw:
                    _write(os.path.join(path, "memory.memsw.limit_in_bytes"), limit)
                if hierarchy.pids:
                    path = os.path.join(hierarchy.pids, name)
                    os.mkdir(path)
                    made.append(path)
                    _write(os.path.join(path, "pids.max"), str(pids))
            group = cls(hierarchy, made)
            if owner is not None:
                for join in group.join:
                    os.chown(join, owner, -1)
            return group
        except OSError:
            for path in reversed(made):
                with contextlib.suppress(OSError):
                    os.rmdir(path)
            raise

    def oom_kills(self) -> int:
        """Processes of the job the kernel killed at the memory limit so far."""
        fname = "memory.events" if self.hierarchy.version == 2 else "memory.oom_control"
        try:
            text = _read(os.path.join(self.dirs[0], fname))
        except OSError:
            return 0
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                with contextlib.suppress(ValueError):
                    return int(value)
        return 0

    def members(self) -> set[int]:
        found: set[int] = set()
        for procs in self.procs:
            with contextlib.suppress(OSError, ValueError):
                found.update(int(x) for x in _read(procs).split())
        return found

    def kill(self, timeout_s: float = 2.0) -> bool:
        """SIGKILL every process in the job's cgroup(s); True when none is left."""
        if self.hierarchy.version == 2:
            with contextlib.suppress(OSError):
                _write(os.path.join(self.dirs[0], "cgroup.kill"), "1")
        deadline = time.monotonic() + timeout_s
        while True:
            members = self.members()
            if not members:
                return True
            if time.monotonic() > deadline:
                return False
            for pid in members:
                _kill_member(pid, self)
            time.sleep(0.002)

    def remove(self) -> None:
        """Kill what is left, then remove the cgroup directories (retried while busy)."""
        self.kill()
        for path in reversed(self.dirs):
            for _ in range(200):
                try:
                    os.rmdir(path)
                    break
                except FileNotFoundError:
                    break
                except OSError as exc:
                    if exc.errno != errno.EBUSY:
                        break
                    self.kill(timeout_s=0.1)
                    time.sleep(0.005)


def _kill_member(pid: int, group: JobCgroup) -> None:
    """Kill ``pid`` only if it is (still) in ``group``: a pidfd pins the process, then the
    membership is checked again, so a recycled pid of another process is never signalled."""
    try:
        fd = os.pidfd_open(pid)
    except OSError:
        return
    try:
        if pid in group.members():
            signal.pidfd_send_signal(fd, signal.SIGKILL)
    except OSError:
        pass
    finally:
        os.close(fd)


def reap_stale(min_age_s: float = 60.0) -> list[str]:
    """Remove empty job cgroups older than ``min_age_s`` (left by parents that were killed
    before their cleanup). Returns the removed directories."""
    found = detect()
    if found is None:
        return []
    removed = []
    now = time.time()
    for parent in {found.memory, found.pids} - {None}:
        assert parent is not None
        with contextlib.suppress(OSError):
            for entry in os.scandir(parent):
                if not entry.name.startswith(("job-", "probe-")) or not entry.is_dir():
                    continue
                try:
                    if now - entry.stat().st_mtime < min_age_s:
                        continue
                    if _read(os.path.join(entry.path, "cgroup.procs")).strip():
                        continue
                    os.rmdir(entry.path)
                    removed.append(entry.path)
                except OSError:
                    continue
    return removed
