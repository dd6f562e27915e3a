"""L2 sandbox: bubblewrap namespaces on top of the L1 process sandbox.

Everything :mod:`synth.sandbox.process` does (fresh private uid when the parent is root, a job
cgroup for the memory and processes of the whole job, empty environment, rlimits through
``prlimit``, new session, wall deadline, output caps, kill of every process of the uid and the
cgroup) plus, via ``bwrap`` started *as that unprivileged uid* (so bwrap builds an unprivileged
user namespace; no setuid bwrap needed):

* ``--unshare-all`` (user, pid, net, ipc, uts, cgroup namespaces) and ``--disable-userns``:
  no network at all (a private loopback only: nothing reaches the host's 127.0.0.1), no view of
  host processes (a fresh ``/proc``), SysV IPC and POSIX message queues private to the job
  (gone with it), no nested user namespaces;
* ``--die-with-parent --new-session --cap-drop ALL``;
* a filesystem of read-only binds: ``/usr`` (and ``/bin``, ``/lib*``, ``/sbin`` as the host has
  them: symlinks or read-only binds), the interpreter's prefix if it lives elsewhere;
  nothing else of the host (no ``/etc``, ``/home``, ``/root``, ``/work``, ...);
* the root (bwrap's tmpfs) is remounted read-only at the end; ``/dev`` is bwrap's minimal
  device set (null, zero, full, random, urandom, tty, pts) remounted read-only, with a private,
  size-capped tmpfs at ``/dev/shm`` (``scratch_bytes(limits)``);
* a private, size-capped tmpfs at ``/tmp`` that is the work dir (cwd, HOME, TMPDIR). The job's
  files are copied in from memfds (``--file FD DEST``); they never touch the host disk, and the
  tmpfs disappears with the namespace. Its size is ``workdir_bytes(limits, files)``
  (``4 * file_size_mb + 8`` MB plus the files): writing more fails with ENOSPC.

Nothing else is writable, so the job writes nothing outside itself and nothing survives it.

Verified here (Debian bookworm, kernel 6.x, running as root): bwrap 0.8.0 works both as root
and as an unprivileged uid, because unprivileged user namespaces are enabled. When it does not
work (not installed, user namespaces disabled, seccomp of an outer container), the probe's trial
run fails, a one-line warning goes to stderr, and ``get_backend("auto")`` falls back to the
process backend.

bwrap reports a job killed by signal N as exit status 128 + N; it is mapped back to the signal
(so a job that calls ``sys.exit(137)`` is reported as killed by SIGKILL: acceptable).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from pathlib import PurePosixPath

from synth.sandbox.base import PYTHON_FLAGS, Limits, SandboxJob
from synth.sandbox.process import (
    PRLIMIT,
    ProcessBackend,
    _Run,
    rlimit_args,
    scratch_bytes,
    workdir_bytes,
)

__all__ = ["JOB_DIR", "BwrapBackend"]

BWRAP = shutil.which("bwrap", path="/usr/bin:/bin:/usr/local/bin")
JOB_DIR = "/tmp"  # the work dir as the job sees it
_warned = False


def _root_binds() -> list[str]:
    """Read-only view of the system's programs and libraries, as the host lays them out."""
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    return args


def _interpreter_binds(python: str) -> list[str]:
    """Bind the interpreter's installation read-only when it is not under /usr."""
    real = os.path.realpath(python)
    if real.startswith("/usr/"):
        return []
    prefix = os.path.dirname(os.path.dirname(real))
    return ["--ro-bind", prefix, prefix]


class BwrapBackend(ProcessBackend):
    """L2: bubblewrap namespaces + the L1 limits (see the module docstring)."""

    name = "bwrap"
    _extra_procs = 2  # bwrap's monitor and the namespace's init

    def probe(self) -> tuple[bool, str]:
        global _warned
        if self._probe is None:
            if BWRAP is None:
                self._probe = (False, "bwrap is not installed (apt-get install -y bubblewrap)")
            else:
                ok, reason = super().probe()
                self._probe = (ok, reason if not ok else f"ok ({BWRAP})")
            if not self._probe[0] and not _warned:
                _warned = True
                print(
                    f"WARNING: synth sandbox: bubblewrap cannot run here ({self._probe[1]}); "
                    "no network/filesystem namespaces, falling back to weaker isolation",
                    file=sys.stderr,
                )
        return self._probe

    def _workdir_bytes(self, limits: Limits, staged: int) -> int | None:
        return None  # the work dir the job sees is bwrap's own tmpfs (below)

    def _job_workdir(self, workdir: str) -> str:
        return JOB_DIR

    def _stage(self, job: SandboxJob, run: _Run) -> list[int]:
        fds: list[int] = []
        try:
            for name, text in job.files.items():
                fd = os.memfd_create(f"synth-{PurePosixPath(name).name}")
                fds.append(fd)
                data = text.encode("utf-8")
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.lseek(fd, 0, os.SEEK_SET)
        except Exception:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            raise
        return fds

    def _command(self, python: str, job: SandboxJob, limits: Limits, run: _Run) -> list[str]:
        if BWRAP is None:
            raise RuntimeError("bwrap is not installed (apt-get install -y bubblewrap)")
        if PRLIMIT is None:
            raise RuntimeError("prlimit (util-linux) is missing: apt-get install -y util-linux")
        staged = sum(len(t.encode("utf-8")) for t in job.files.values())
        args = [
            BWRAP,
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            *_root_binds(),
            *_interpreter_binds(python),
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--size",
            str(scratch_bytes(limits)),
            "--tmpfs",
            "/dev/shm",
            "--remount-ro",
            "/dev",
            "--size",
            str(workdir_bytes(limits, staged)),
            "--tmpfs",
            JOB_DIR,
        ]
        made: set[str] = set()
        for (name, _), fd in zip(job.files.items(), run.fds, strict=True):
            dest = PurePosixPath(JOB_DIR) / name
            for parent in reversed(dest.parents):
                if str(parent).startswith(JOB_DIR + "/") and str(parent) not in made:
                    made.add(str(parent))
                    args += ["--dir", str(parent)]
            args += ["--perms", "0600", "--file", str(fd), str(dest)]
        args += ["--remount-ro", "/", "--chdir", JOB_DIR, "--", python, *PYTHON_FLAGS, *job.argv]
        limited = rlimit_args(limits, run.ident, self._extra_procs, cgroup_bound=run.group is not None)
        return run.launch([PRLIMIT, *limited, "--", *args], (), 0)

    def _returncode(self, returncode: int) -> int:
        if returncode > 128:
            return -(returncode - 128)
        return returncode
