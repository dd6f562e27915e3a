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
* a filesystem with **read access only to what the interpreter needs** (:func:`python_binds`,
  computed once per interpreter): the interpreter binary, the shared libraries it and the
  standard library's extension modules load (``ldd``), the directories on its ``sys.path``
  under ``-s -S`` (the standard library and ``lib-dynload``) with any ``site-packages`` /
  ``dist-packages`` inside them hidden, each bound read-only at its real path with the host's
  symlinks (``/lib64``, ``python3 -> python3.11``, ...) recreated. The libraries of one
  directory are bound as *one* root-owned directory ``/run/synth-sbx/lib-<key>`` holding hard
  links to exactly those files (one mount instead of ~30: a bind mount per file cost ~10 ms per
  job start here); without root they are bound one by one. No ``/etc``, ``/home``, ``/root``,
  ``/work``, no rest of ``/usr``, no shell or other programs -- but the programs of the engines
  the job's bootcamp declares (``ENGINES``, :func:`synth.engines.job_programs`: GNU Go's
  ``/usr/games/gnugo``), bound read-only at their real paths with the libraries they load;
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
process backend (with a louder warning).

bwrap reports a job killed by signal N as exit status 128 + N; it is mapped back to the signal
(so a job that calls ``sys.exit(137)`` is reported as killed by SIGKILL: acceptable).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import tempfile
from functools import lru_cache
from pathlib import PurePosixPath

from synth.engines import job_programs
from synth.sandbox.base import PYTHON_FLAGS, Limits, SandboxJob
from synth.sandbox.identity import work_base
from synth.sandbox.interpreter import interpreter_path, job_stdlib, probe_run
from synth.sandbox.process import (
    PRLIMIT,
    ProcessBackend,
    _Run,
    rlimit_args,
    scratch_bytes,
    workdir_bytes,
)

__all__ = ["JOB_DIR", "BwrapBackend", "python_binds"]

BWRAP = shutil.which("bwrap", path="/usr/bin:/bin:/usr/local/bin")
LDD = shutil.which("ldd", path="/usr/bin:/bin")
JOB_DIR = "/tmp"  # the work dir as the job sees it
_HIDDEN = ("site-packages", "dist-packages")
_warned = False


def _root_binds() -> list[str]:
    """Fallback without ``ldd``: a read-only view of all of ``/usr`` and the top-level dirs."""
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    return args


def _chain(path: str) -> tuple[list[tuple[str, str]], str]:
    """The symlinks met while resolving ``path`` ((target, link) pairs, in order) and the
    real path it ends at, so that the sandbox can recreate exactly that lookup."""
    links: list[tuple[str, str]] = []
    parts = PurePosixPath(os.path.normpath(path)).parts[1:]
    current = "/"
    todo = list(parts)
    for _ in range(64):  # bound symlink loops
        if not todo:
            break
        candidate = os.path.join(current, todo.pop(0))
        if os.path.islink(candidate):
            target = os.readlink(candidate)
            links.append((target, candidate))
            resolved = os.path.normpath(os.path.join(current, target))
            todo = list(PurePosixPath(resolved).parts[1:]) + todo
            current = "/"
        else:
            current = candidate
    return links, current


def _ldd(files: list[str]) -> set[str]:
    """Absolute paths of the shared libraries ``files`` load (one ``ldd`` run for all, as an
    unprivileged uid when root: the files may come with an audited library)."""
    assert LDD is not None
    done = probe_run([LDD, *files], os.geteuid() == 0, timeout=120)
    found: set[str] = set()
    for raw in done.stdout.splitlines():
        line = raw.strip()
        if line.endswith(":"):
            continue  # "file:" header when ldd lists several files
        path = line.split("=>", 1)[-1].split("(", 1)[0].strip()
        if path.startswith("/"):
            found.add(path)
    return found


def _extensions(dirs: tuple[str, ...], limit: int = 5000) -> list[str]:
    """The shared objects (``*.so``, ``*.so.N``) under ``dirs``, at most ``limit`` of them."""
    found: list[str] = []
    for top in dirs:
        for root, subdirs, names in os.walk(top):
            subdirs[:] = [d for d in subdirs if d != "__pycache__"]
            for name in names:
                if (name.endswith(".so") or ".so." in name) and len(found) < limit:
                    path = os.path.join(root, name)
                    if os.path.isfile(path) and not os.path.islink(path):
                        found.append(path)
    return found


@lru_cache(maxsize=8)
def python_binds(python: str, extra: tuple[str, ...] = (),
                 programs: tuple[str, ...] = (), own: bool = True) -> tuple[str, ...]:
    """bwrap arguments that make ``python`` runnable with its standard library and nothing
    else (see the module docstring). Without ``ldd``: the :func:`_root_binds` fallback.

    ``extra``: import directories of the job (:attr:`SandboxJob.python_path`, bound by the
    caller): the shared libraries their extension modules load (numpy's ``libstdc++``, ...)
    join the interpreter's, so that each library directory is still one mount.
    ``programs``: the executables of the engines the job's bootcamp declares
    (:func:`synth.engines.job_programs`, e.g. ``/usr/games/gnugo``), bound read-only with the
    libraries they load. ``own``: False for a job's own interpreter (``--python``), whose
    standard library is read from its installation (:func:`job_stdlib`): it never runs on the
    host."""
    if LDD is None:
        return (*_root_binds(), *_interpreter_binds(python))
    listed = interpreter_path(python, os.geteuid() == 0) if own else job_stdlib(python)
    entries = [p for p in listed if os.path.exists(p)]
    entries = [p for p in entries if os.path.basename(p) not in _HIDDEN]
    found = sorted({_chain(p)[1] for p in entries if os.path.isdir(p)}, key=len)
    dirs = [d for i, d in enumerate(found) if not any(d.startswith(o + "/") for o in found[:i])]
    files = [python] + [p for p in entries if os.path.isfile(p)] + list(programs)
    modules = [e.path for d in found for e in os.scandir(d) if e.name.endswith(".so")]
    shipped = [os.path.realpath(d) for d in extra]

    def shipped_with(path: str) -> bool:
        real = os.path.realpath(path)
        return any(real == d or real.startswith(d + "/") for d in shipped)

    libs = sorted(p for p in _ldd([os.path.realpath(python), *modules, *_extensions(extra),
                                   *(os.path.realpath(p) for p in programs)])
                  if not shipped_with(p))

    def inside(path: str) -> bool:
        return any(path == d or path.startswith(d + "/") for d in dirs)

    args: list[str] = []
    for d in dirs:
        args += ["--ro-bind", d, d]
        for name in _HIDDEN:
            if os.path.isdir(os.path.join(d, name)):
                hidden = os.path.join(d, name)
                args += ["--size", "4096", "--tmpfs", hidden, "--remount-ro", hidden]
    # Library directories are recreated as one cached directory each (one mount instead of
    # one per library); a directory that contains a bound stdlib dir cannot be, nor can any
    # without root (no cache dir): their files are bound one by one.
    lib_dirs = {os.path.dirname(_chain(p)[1]) for p in libs}
    lib_dirs = {d for d in lib_dirs if not any(s.startswith(d + "/") for s in dirs)}
    grouped: dict[str, dict[str, str | None]] = {d: {} for d in lib_dirs}
    single: list[str] = []
    seen: set[str] = set()
    for path in files + libs:
        links, real = _chain(path)
        steps: list[tuple[str, str | None]] = [(link, target) for target, link in links]
        steps += [(real, None)] if os.path.isfile(real) else []
        for dest, target in steps:
            if dest in seen or inside(dest):
                continue
            seen.add(dest)
            where = os.path.dirname(dest)
            if where in grouped:
                grouped[where][os.path.basename(dest)] = target
            elif target is None:
                single += ["--ro-bind", dest, dest]
            else:
                single += ["--symlink", target, dest]
    for where, members in sorted(grouped.items()):
        cache = _lib_cache(where, members)
        if cache is not None:
            args += ["--ro-bind", cache, where]
            continue
        for name, link in sorted(members.items()):
            dest = os.path.join(where, name)
            args += ["--ro-bind", dest, dest] if link is None else ["--symlink", link, dest]
    return (*args, *single)


def _lib_cache(libdir: str, members: dict[str, str | None]) -> str | None:
    """A root-owned directory under ``/run/synth-sbx`` holding exactly ``members`` of
    ``libdir`` (hard links, or copies across filesystems; symlinks as symlinks), keyed by the
    files' identity so that an upgraded library gets a fresh one. None without root."""
    try:
        base = work_base()
        stamp = []
        for name, target in sorted(members.items()):
            st = None if target else os.stat(os.path.join(libdir, name))
            stamp.append((name, target, st and (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)))
    except OSError:
        return None
    key = hashlib.sha256(repr((libdir, stamp)).encode()).hexdigest()[:20]
    path = os.path.join(base, f"lib-{key}")
    if os.path.isdir(path):
        return path
    tmp = tempfile.mkdtemp(prefix=".lib-", dir=base)
    try:
        for name, target in members.items():
            dest = os.path.join(tmp, name)
            if target is not None:
                os.symlink(target, dest)
                continue
            try:
                os.link(os.path.join(libdir, name), dest)
            except OSError:
                shutil.copy2(os.path.join(libdir, name), dest)
        os.chmod(tmp, 0o755)
        os.rename(tmp, path)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        return path if os.path.isdir(path) else None
    return path


def _interpreter_binds(python: str) -> list[str]:
    """Fallback: bind the interpreter's installation read-only when it is not under /usr."""
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
            *python_binds(python, tuple(job.python_path), job_programs(job.files),
                          not job.python),
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
        for path in job.python_path:  # after the work dir's tmpfs: a folder in /tmp stays seen
            args += ["--ro-bind", os.path.realpath(path), path]
        # a job's own interpreter (a venv's bin/python, perhaps in /tmp) runs by its real path
        program = os.path.realpath(python) if job.python else python
        args += ["--remount-ro", "/", "--chdir", JOB_DIR, "--", program, *PYTHON_FLAGS, *job.argv]
        limited = rlimit_args(limits, run.ident, self._extra_procs, cgroup_bound=run.group is not None)
        return run.launch([PRLIMIT, *limited, "--", *args], (), 0)

    def _returncode(self, returncode: int) -> int:
        if returncode > 128:
            return -(returncode - 128)
        return returncode
