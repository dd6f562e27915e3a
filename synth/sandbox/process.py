"""L1 sandbox: a fresh interpreter per job, an empty environment, rlimits, a private uid, a
memory cgroup for the whole job and (as root) private namespaces. The weakest layer.

What one run does (``ProcessBackend.run``), and what it guarantees:

1. **Identity.** When the parent is root the job runs as a *fresh, unique, unprivileged uid/gid*
   (:mod:`synth.sandbox.identity`), no supplementary groups, no capabilities (also none in the
   bounding set) and ``no_new_privs`` (setuid binaries do not elevate). ``RLIMIT_NPROC`` is then
   a per-job budget, and cleanup is exact: every process of the uid is killed, whatever session
   it fled to.
2. **Memory and processes, whole job.** A per-job control group (:mod:`synth.sandbox.cgroup`:
   v2, else v1) caps the memory of *all* the job's processes together at ``memory_mb`` (tmpfs
   pages it writes included) and its processes + threads together at ``pids`` (``pids.max``;
   also ``RLIMIT_NPROC`` of the private uid). The job's first process joins the cgroup before
   it execs anything. A kill by the cgroup OOM killer is reported as ``OOM``. ``RLIMIT_AS =
   memory_mb`` stays on each process (a single oversized allocation is a clean
   ``MemoryError``). When no cgroup can be made (no root, no delegated v2) memory is bounded by
   rlimits only: ``RLIMIT_AS`` per process and ``RLIMIT_NPROC = min(pids, FALLBACK_NPROC)``, so
   the job's total is at most ``min(pids, 8) * memory_mb`` (threads count against the same
   budget). :attr:`ProcessBackend.memory_enforcement` names the mode; ``get_backend`` prints
   it.
3. **Namespaces (root, when ``unshare`` works here: probed once).** ``unshare --ipc --mount
   --net``: SysV shared memory, semaphores, message queues and POSIX mqueues are private to the
   job and vanish with it; the network is a downed loopback (nothing reaches the host's
   127.0.0.1); in a private mount namespace ``/dev/shm``, ``/tmp``, ``/var/tmp`` and
   ``/run/lock`` are fresh tmpfs mounts of ``scratch_bytes(limits)`` each, so the job writes
   nothing into the host's world-writable directories and its ``/dev/shm`` files die with it.
4. **Work dir.** As root: a tmpfs of ``workdir_bytes(limits, files)`` (``4 * file_size_mb + 8``
   MB plus the job's files) mounted on a fresh directory under ``/run/synth-sbx`` (mode 0700,
   owned by the job): writing beyond it fails with ENOSPC. It receives ``job.files`` and is the
   cwd, HOME and TMPDIR. Without root: a plain ``/tmp/synth-sbx-*`` directory (no size cap
   beyond ``RLIMIT_FSIZE`` per file).
5. **rlimits and exec.** ``prlimit`` sets RLIMIT_CPU (soft ``cpu_s``, hard +1 s: SIGXCPU then
   SIGKILL), RLIMIT_AS, RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_NPROC, RLIMIT_CORE=0; new session;
   environment from ``build_env`` only. The launch chain is ``unshare`` -> ``sh`` (join the
   cgroup, mount, print a ready marker) -> ``setpriv`` (drop to the uid) -> ``prlimit`` ->
   the interpreter: no Python code runs between fork and exec (no ``preexec_fn``), so ``run``
   is thread-safe. A launcher that fails before the job starts is ``SANDBOX_ERROR``.
6. **Output and time.** stdout/stderr are read with a selector against a deadline; either stream
   beyond ``max_output_bytes`` kills the job (OUTPUT_OVERFLOW). When the main process exits,
   everything it left behind is killed at once; at the wall deadline the whole job is killed
   (TIMEOUT). Afterwards the cgroup, the work dir and anything the uid left in world-writable
   directories are removed.

What it does **not** guarantee (use bwrap or docker for these):

* **No filesystem isolation for reads**: the job can read every world-readable file on the host
  (``/etc/passwd``, ``/usr``, other users' world-readable homes, the repository if its mode
  allows), and can list world-readable directories. Root-only files stay unreadable (the uid is
  unprivileged).
* It sees the host's processes (``/proc``) and can learn their command lines.
* Without root: no private uid (the job runs as the caller; a grandchild that calls ``setsid()``
  can outlive the job unless a cgroup holds it), no namespaces (network, SysV IPC, ``/dev/shm``
  and ``/tmp`` are the host's; files there are left behind), no work-dir size cap, and memory
  is bounded per process only unless a delegated cgroup v2 is available; ``RLIMIT_NPROC``
  counts all of the caller's processes.
* The kernel is shared: a kernel bug is an escape. CPU time is per process (RLIMIT_CPU), not
  per job: ``pids`` processes may each use ``cpu_s`` until the wall deadline.

The interpreter must be executable by the job's uid: ``sys.executable`` when it is, otherwise
the first of ``/usr/bin/python3`` ... that runs as that uid and is >= 3.11 (probed once).
"""

from __future__ import annotations

import contextlib
import math
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from synth.sandbox import cgroup
from synth.sandbox.base import (
    PYTHON_FLAGS,
    Limits,
    Outcome,
    RunResult,
    SandboxJob,
    build_env,
    classify_exit,
)
from synth.sandbox.identity import (
    SWEEP_DIRS,
    Identity,
    kill_identity,
    make_workdir,
    new_identity,
    pids_of,
    reap_stale_workdirs,
    release_identity,
    remove_workdir,
    sweep_files,
    work_base,
)
from synth.sandbox.interpreter import (
    find_interpreter,
    interpreter_path,
    job_interpreter,
    job_stdlib,
    unreadable,
)
from synth.sandbox.session import ProcessSession

__all__ = [
    "FALLBACK_NPROC",
    "Identity",
    "ProcessBackend",
    "kill_identity",
    "namespaces",
    "scratch_bytes",
    "workdir_bytes",
]

_TOOLS = "/usr/bin:/bin:/usr/sbin:/sbin"
PRLIMIT = shutil.which("prlimit", path=_TOOLS)
UNSHARE = shutil.which("unshare", path=_TOOLS)
SETPRIV = shutil.which("setpriv", path=_TOOLS)
MOUNT = shutil.which("mount", path=_TOOLS)
SH = "/bin/sh"
FALLBACK_NPROC = 8  # RLIMIT_NPROC without a cgroup: total memory <= 8 * memory_mb
READY = b"synth-sandbox-ready\n"  # printed by the launcher on stdout right before the exec
_DRAIN_S = 1.0  # after the main process exits: time to collect what is still in the pipes
_MB = 1024 * 1024


def workdir_bytes(limits: Limits, staged: int) -> int:
    """Size of a job's work dir tmpfs: room for a few files of the largest allowed size."""
    return (4 * limits.file_size_mb + 8) * _MB + staged


def scratch_bytes(limits: Limits) -> int:
    """Size of each private scratch tmpfs (``/dev/shm``, ``/tmp``, ...): memory / 16, 4..64 MB."""
    return min(64, max(4, limits.memory_mb // 16)) * _MB


def _drop(uid: int, gid: int) -> list[str]:
    """``setpriv`` prefix: become uid/gid, no groups, no capabilities at all, no_new_privs."""
    assert SETPRIV is not None
    return [
        SETPRIV,
        f"--reuid={uid}",
        f"--regid={gid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--no-new-privs",
        "--",
    ]


@lru_cache(maxsize=8)
def scratch_fstab(size: int) -> str:
    """An fstab (in ``/run/synth-sbx``) of private ``size``-byte tmpfs mounts over the
    world-writable directories; ``mount -a -T`` mounts them all in one exec. The source name is
    unique so that ``mount -a`` never takes the host's own tmpfs for "already mounted"."""
    lines = [
        f"synth-sbx-scratch {d} tmpfs size={size},mode=1777,nosuid,nodev 0 0\n"
        for d in SWEEP_DIRS
        if os.path.isdir(d) and not os.path.islink(d)
    ]
    path = os.path.join(work_base(), f"scratch-{size}.fstab")
    tmp = f"{path}.{os.getpid()}.{threading.get_ident()}"
    with open(tmp, "w") as fh:
        fh.writelines(lines)
    os.replace(tmp, path)
    return path


@lru_cache(maxsize=1)
def namespaces() -> tuple[str, ...]:
    """The ``unshare`` flags a root parent can give jobs here (probed once): ``--ipc --mount
    --net`` (with private scratch mounts) when that works, else ``--ipc --net``, else none."""
    if os.geteuid() != 0 or not (UNSHARE and SETPRIV and MOUNT and PRLIMIT):
        return ()
    try:
        fstab = scratch_fstab(_MB)
    except OSError:
        fstab = ""
    for flags in (("--ipc", "--mount", "--net"), ("--ipc", "--net"), ("--net",)):
        mounts = "--mount" in flags
        if mounts and not fstab:
            continue
        script = (f"{MOUNT} -a -T {shlex.quote(fstab)} && " if mounts else "") + 'exec "$@"'
        prop = ["--propagation", "private"] if mounts else []
        cmd = [UNSHARE, *flags, *prop, "--", SH, "-c", script, "sh", *_drop(65534, 65534)]
        try:
            done = subprocess.run(
                [*cmd, "/bin/true"], env={}, capture_output=True, timeout=10, cwd="/"
            )
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0:
            return flags
    return ()


def rlimit_args(
    limits: Limits, ident: Identity, extra_procs: int = 0, *, cgroup_bound: bool = True
) -> list[str]:
    """``prlimit`` options for the limits (soft CPU = cpu_s, hard = cpu_s + 1).

    ``extra_procs``: processes the launcher itself keeps alive (bwrap's monitor and init).
    ``cgroup_bound``: a cgroup caps the job's total memory; without one, RLIMIT_NPROC is cut
    to :data:`FALLBACK_NPROC` so that the total is at most that many times RLIMIT_AS."""
    cpu = max(1, math.ceil(limits.cpu_s))
    nproc = (limits.pids if cgroup_bound else min(limits.pids, FALLBACK_NPROC)) + extra_procs
    if not ident.private:
        nproc += sum(1 for _ in pids_of(os.getuid()))
    return [
        f"--cpu={cpu}:{cpu + 1}",
        f"--as={limits.memory_mb * _MB}",
        f"--fsize={limits.file_size_mb * _MB}",
        f"--nofile={limits.open_files}",
        f"--nproc={nproc}",
        "--core=0",
    ]


@dataclass
class _Run:
    """One job's sandbox state: what :meth:`_Run.finish` must undo."""

    ident: Identity
    workdir: str = ""
    mounted: bool = False  # the work dir is a tmpfs we mounted
    group: cgroup.JobCgroup | None = None
    fds: list[int] = field(default_factory=list)
    cmd: list[str] = field(default_factory=list)
    cwd: str = ""
    env: dict[str, str] = field(default_factory=dict)
    switch: bool = False  # Popen itself switches to the job's uid (no setpriv in the chain)
    ready: bytes = b""  # marker the launcher prints before the exec ("" = no launcher)
    #: import directories under a scratch dir (hidden by the private /tmp): (source, the
    #: mount point in the work dir the launcher binds it on, read-only)
    binds: list[tuple[str, str]] = field(default_factory=list)

    def kill_all(self, pgid: int | None = None) -> bool:
        """Kill every process of the job (uid and cgroup); True when none is left."""
        done = kill_identity(self.ident, pgid)  # True for a shared uid: nothing it can tell
        return self.group.kill() and done if self.group is not None else done

    def launch(self, cmd: list[str], ns: tuple[str, ...], scratch: int) -> list[str]:
        """Prefix ``cmd`` with the launcher: ``unshare <ns>`` -> ``sh`` (join the cgroup, mount
        the private scratch dirs, print :data:`READY`) -> ``setpriv`` (drop to the uid)."""
        steps = [f"echo 0 > {shlex.quote(p)}" for p in self.group.join] if self.group else []
        if "--mount" in ns:
            assert MOUNT is not None
            steps += [f"{MOUNT} --bind -o ro {shlex.quote(src)} {shlex.quote(dest)}"
                      for src, dest in self.binds]  # before the private /tmp hides them
            steps.append(f"{MOUNT} -a -T {shlex.quote(scratch_fstab(scratch))}")
        if not steps and not ns:
            self.switch = self.ident.private
            return cmd
        drop: list[str] = []
        if self.ident.private and SETPRIV is not None and os.geteuid() == 0:
            drop = _drop(self.ident.uid, self.ident.gid)
        self.switch = self.ident.private and not drop
        prefix: list[str] = []
        if ns:
            prop = ["--propagation", "private"] if "--mount" in ns else []
            assert UNSHARE is not None
            prefix = [UNSHARE, *ns, *prop, "--"]
        if not steps:
            return [*prefix, *drop, *cmd]
        self.ready = READY
        script = " && ".join([*steps, "printf 'synth-sandbox-ready\\n'", 'exec "$@"'])
        return [*prefix, SH, "-c", script, "sh", *drop, *cmd]

    def finish(self) -> None:
        """Remove everything the job had (its processes are already dead). Idempotent."""
        _close_fds(self.fds)
        self.fds = []
        if self.group is not None:
            with contextlib.suppress(OSError):
                self.group.remove()
            self.group = None
        if self.workdir:
            remove_workdir(self.workdir, self.mounted)
            self.workdir = ""
        sweep_files(self.ident)
        release_identity(self.ident)

    def memory_note(self) -> str:
        """A stderr line naming an OOM kill by the cgroup ("" when there was none)."""
        kills = self.group.oom_kills() if self.group is not None else 0
        if not kills:
            return ""
        label = self.group.hierarchy.label if self.group else ""
        return f"synth sandbox: {kills} process(es) killed at the {label} memory limit (out of memory)"


class _Tail:
    """Keeps the last ``cap`` bytes written and counts all of them. ``expect``: a prefix the
    launcher prints first; it is stripped, and ``launched`` says whether it came."""

    def __init__(self, cap: int, expect: bytes = b"") -> None:
        self.cap = cap
        self.buf = bytearray()
        self.total = 0
        self.expect = expect
        self.head = bytearray()
        self.launched = not expect

    def add(self, data: bytes) -> None:
        if self.expect:
            self.head += data
            if len(self.head) < len(self.expect) and self.expect.startswith(self.head):
                return
            if self.head.startswith(self.expect):
                self.launched = True
                data = bytes(self.head[len(self.expect) :])
            else:
                data = bytes(self.head)
            self.expect, self.head = b"", bytearray()
        self.total += len(data)
        self.buf += data
        if len(self.buf) > self.cap:
            del self.buf[: len(self.buf) - self.cap]

    def text(self) -> str:
        return self.buf.decode("utf-8", errors="replace")


class ProcessBackend:
    """L1: rlimits + a private uid + a job cgroup + namespaces (see the module docstring)."""

    name = "process"
    _extra_procs = 0  # processes the launch chain keeps besides the job's (bwrap: 2)

    def __init__(self) -> None:
        self._probe: tuple[bool, str] | None = None

    @property
    def memory_enforcement(self) -> str:
        """"cgroup v2", "cgroup v1" or "rlimit (per process)": how a job's memory is capped."""
        return cgroup.enforcement()

    # -- hooks for subclasses (bwrap) ------------------------------------------------------
    def _workdir_bytes(self, limits: Limits, staged: int) -> int | None:
        """Size of the work dir tmpfs (None: a plain directory)."""
        return workdir_bytes(limits, staged)

    def _stage(self, job: SandboxJob, run: _Run) -> list[int]:
        """Put ``job.files`` where the job will see them; return fds to pass to the child."""
        _write_files(Path(run.workdir), job.files, run.ident)
        return []

    def _command(self, python: str, job: SandboxJob, limits: Limits, run: _Run) -> list[str]:
        """argv to execute (with ``run.launch``); the job sees ``run.workdir`` as its cwd."""
        if PRLIMIT is None:
            raise RuntimeError("prlimit (util-linux) is missing: apt-get install -y util-linux")
        limited = rlimit_args(limits, run.ident, cgroup_bound=run.group is not None)
        # a job's own interpreter (a venv's bin/python, perhaps in /tmp) runs by its real path
        program = os.path.realpath(python) if job.python else python
        cmd = [PRLIMIT, *limited, "--", program, *PYTHON_FLAGS, *job.argv]
        ns = namespaces() if run.ident.private else ()
        if "--mount" in ns:
            run.binds = _scratch_binds(job.python_path, run.workdir)
        return run.launch(cmd, ns, scratch_bytes(limits))

    def _check_imports(self, job: SandboxJob, private: bool) -> None:
        """``RuntimeError`` for an import directory (:attr:`SandboxJob.python_path`) the job's
        uid cannot read: its imports would fail as if the dependency were missing."""
        for path in job.python_path:
            problem = unreadable(path, private)
            if problem:
                raise RuntimeError(problem)

    def _returncode(self, returncode: int) -> int:
        """The job's Popen-style return code from the launched command's."""
        return returncode

    def _job_workdir(self, workdir: str) -> str:
        """The work dir path as the job sees it (bwrap mounts it elsewhere)."""
        return workdir

    # -- public API -----------------------------------------------------------------------
    def probe(self) -> tuple[bool, str]:
        if self._probe is None:
            reap_stale_workdirs()  # left by parents that were killed before their cleanup
            cgroup.reap_stale()
            try:
                job = SandboxJob(files={"p.py": "print(6 * 7)"}, argv=["p.py"])
                res = self.run(job, Limits(wall_s=30, cpu_s=10))
                ok = res.outcome is Outcome.PASSED and res.stdout.strip() == "42"
                self._probe = (ok, "ok" if ok else f"trial run failed: {res.detail} {res.stderr}")
            except Exception as exc:  # probing must never raise
                self._probe = (False, f"trial run raised {type(exc).__name__}: {exc}")
        return self._probe

    def close(self) -> None:
        """Nothing persistent to release."""

    def run(self, job: SandboxJob, limits: Limits) -> RunResult:
        start = time.monotonic()
        try:
            run = self._prepare(job, limits)
        except Exception as exc:
            return RunResult(
                outcome=Outcome.SANDBOX_ERROR,
                backend=self.name,
                elapsed_s=time.monotonic() - start,
                detail=f"could not prepare the sandbox: {type(exc).__name__}: {exc}",
            )
        try:
            return self._execute(job, limits, run, start)
        finally:
            run.finish()  # _execute has killed everything the job started

    def spawn(self, job: SandboxJob, limits: Limits) -> ProcessSession:
        run = self._prepare(job, limits)
        try:
            proc = self._popen(run)
        except Exception:
            run.finish()
            raise
        _close_fds(run.fds)
        run.fds = []
        return ProcessSession(proc, run, self._returncode)

    # -- internals ------------------------------------------------------------------------
    def _prepare(self, job: SandboxJob, limits: Limits) -> _Run:
        run = _Run(new_identity())
        try:
            private = run.ident.private
            python = (job_interpreter(job.python, private) if job.python
                      else find_interpreter(private))
            stdlib = (job_stdlib(python) if job.python
                      else interpreter_path(python, private) if job.python_path else ())
            self._check_imports(job, private)
            staged = sum(len(t.encode("utf-8")) for t in job.files.values())
            run.workdir, run.mounted = make_workdir(run.ident, self._workdir_bytes(limits, staged))
            found = cgroup.detect()
            if found is not None:
                root_launcher = os.geteuid() == 0 and SETPRIV is not None
                owner = run.ident.uid if run.ident.private and not root_launcher else None
                pids = limits.pids + self._extra_procs
                run.group = cgroup.JobCgroup.create(found, limits.memory_mb, pids, owner)
            run.fds = self._stage(job, run)
            run.cmd = self._command(python, job, limits, run)
            run.cwd = run.workdir
        except Exception:
            run.finish()
            raise
        run.env = build_env(job, self._job_workdir(run.workdir))
        if job.python_path:
            # after the work dir (the kit, the shim, the module) and the standard library, so
            # that nothing in an audited library's folders shadows the standard library the
            # kit imports; a folder the private /tmp hides is seen at its bind in the work dir
            seen = {src: dest for src, dest in run.binds}
            dirs = [seen.get(os.path.realpath(p), p) if run.binds else p for p in job.python_path]
            search = (*stdlib, *dirs)
            run.env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(search))
        if job.python_path or job.python:
            # no cached bytecode of the library (or of the standard library it imports late):
            # the kit's guard refuses marshal.loads, which loading a .pyc calls; compiled from
            # source instead (a directory that never exists: -B writes nothing there)
            run.env["PYTHONPYCACHEPREFIX"] = os.path.join(self._job_workdir(run.workdir),
                                                          ".no-bytecode")
        return run

    def _popen(self, run: _Run) -> subprocess.Popen[bytes]:
        switch = run.switch
        return subprocess.Popen(
            run.cmd,
            pass_fds=run.fds,
            cwd=run.cwd,
            env=run.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            close_fds=True,
            user=run.ident.uid if switch else None,
            group=run.ident.gid if switch else None,
            extra_groups=[] if switch else None,
            umask=0o077,
        )

    def _execute(self, job: SandboxJob, limits: Limits, run: _Run, start: float) -> RunResult:
        try:
            proc = self._popen(run)
        except Exception as exc:
            return RunResult(
                outcome=Outcome.SANDBOX_ERROR,
                backend=self.name,
                elapsed_s=time.monotonic() - start,
                detail=f"could not start the interpreter: {type(exc).__name__}: {exc}",
            )
        deadline = start + limits.wall_s
        out = _Tail(limits.max_output_bytes, run.ready)
        err = _Tail(limits.max_output_bytes)
        cleaned: list[bool] = []  # set by _pump when it killed the leftovers at the main exit
        try:
            state = _pump(proc, job.stdin.encode("utf-8"), out, err, deadline, limits,
                          run.kill_all, cleaned)
        finally:
            if not cleaned or not cleaned[-1]:
                run.kill_all(proc.pid)
        status, cpu = _reap(proc)
        status = self._returncode(status)
        elapsed = time.monotonic() - start
        stdout, stderr = out.text(), err.text()
        note = run.memory_note()

        def result(
            outcome: Outcome, detail: str, code: int | None = None, sig: int | None = None
        ) -> RunResult:
            return RunResult(
                outcome=outcome,
                exit_code=code,
                signal=sig,
                stdout=stdout,
                stderr=stderr,
                elapsed_s=elapsed,
                backend=self.name,
                detail=detail,
            )

        if state == "overflow":
            which = "stdout" if out.total > limits.max_output_bytes else "stderr"
            detail = f"{which} exceeded {limits.max_output_bytes} bytes; killed"
            return result(Outcome.OUTPUT_OVERFLOW, detail)
        if note:
            outcome, code, sig, _ = classify_exit(status, stderr, memory_killed=True)
            return result(Outcome.OOM, note.removeprefix("synth sandbox: "), code, sig)
        if state == "timeout":
            detail = f"wall-clock limit of {limits.wall_s:g}s exceeded; killed"
            return result(Outcome.TIMEOUT, detail, sig=signal.SIGKILL)
        if not out.launched:
            detail = f"the sandbox launcher failed before the job started: {stderr[-500:]}"
            return result(Outcome.SANDBOX_ERROR, detail)
        outcome, code, sig, detail = classify_exit(status, stderr)
        if sig == signal.SIGKILL and cpu >= math.ceil(limits.cpu_s) - 0.05:
            outcome, detail = Outcome.TIMEOUT, f"CPU limit of {limits.cpu_s:g}s exceeded; killed"
        elif sig == signal.SIGXCPU:
            detail = f"CPU limit of {limits.cpu_s:g}s exceeded (SIGXCPU)"
        return result(outcome, detail, code, sig)


def _scratch_binds(paths: list[str], workdir: str) -> list[tuple[str, str]]:
    """(source, mount point) for each import directory that lives under a directory the job's
    private scratch tmpfs covers (``/tmp``, ...): the launcher binds it read-only on a fresh
    directory of the work dir before it mounts the scratch dirs."""
    binds: list[tuple[str, str]] = []
    for i, path in enumerate(paths):
        real = os.path.realpath(path)
        if any(real == d or real.startswith(d.rstrip("/") + "/") for d in SWEEP_DIRS):
            dest = os.path.join(workdir, f".import-{i}")
            os.mkdir(dest, 0o755)
            binds.append((real, dest))
    return binds


def _close_fds(fds: list[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def _write_files(root: Path, files: dict[str, str], ident: Identity) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
    if ident.private:
        for dirpath, dirnames, filenames in os.walk(root):
            for fname in filenames:
                os.chown(os.path.join(dirpath, fname), ident.uid, ident.gid)
            for dname in dirnames:
                os.chown(os.path.join(dirpath, dname), ident.uid, ident.gid)


def _pump(
    proc: subprocess.Popen[bytes],
    stdin_data: bytes,
    out: _Tail,
    err: _Tail,
    deadline: float,
    limits: Limits,
    kill_all: Callable[[int], bool],
    cleaned: list[bool],
) -> str:
    """Feed stdin and collect stdout/stderr until the job ends. Returns 'exited', 'timeout'
    or 'overflow'. Never blocks past ``deadline`` (+ a short drain after the main exit)."""
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    sel = selectors.DefaultSelector()
    sinks = {proc.stdout.fileno(): out, proc.stderr.fileno(): err}
    for fd in sinks:
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ)
    stdin_fd = proc.stdin.fileno()
    view = memoryview(stdin_data)
    if stdin_data:
        os.set_blocking(stdin_fd, False)
        sel.register(stdin_fd, selectors.EVENT_WRITE)
    else:
        proc.stdin.close()
    pidfd: int | None = None
    with contextlib.suppress(OSError, AttributeError):
        pidfd = os.pidfd_open(proc.pid)
        sel.register(pidfd, selectors.EVENT_READ)
    exited_at: float | None = None
    state = "exited"
    try:
        while True:
            now = time.monotonic()
            if exited_at is None and now >= deadline:
                state = "timeout"
                break
            if exited_at is not None and (now - exited_at > _DRAIN_S or len(sinks) == 0):
                break
            if exited_at is None and not sinks and pidfd is None and proc.poll() is not None:
                break
            limit = (deadline if exited_at is None else exited_at + _DRAIN_S) - now
            events = sel.select(timeout=max(0.0, min(limit, 0.2 if pidfd is None else limit)))
            if pidfd is None and exited_at is None and proc.poll() is not None:
                exited_at = time.monotonic()
                cleaned.append(kill_all(proc.pid))
            for key, _ in events:
                fd = key.fd
                if fd == pidfd:
                    sel.unregister(fd)
                    exited_at = time.monotonic()
                    # The main process is gone: whatever it left behind dies now, so that
                    # an orphan holding the pipes cannot keep us waiting.
                    cleaned.append(kill_all(proc.pid))
                elif fd == stdin_fd:
                    try:
                        n = os.write(fd, view[:65536])
                        view = view[n:]
                    except (BrokenPipeError, OSError):
                        view = view[len(view) :]
                    if not view:
                        sel.unregister(fd)
                        with contextlib.suppress(OSError):
                            proc.stdin.close()
                else:
                    try:
                        data = os.read(fd, 65536)
                    except BlockingIOError:
                        continue
                    except OSError:
                        data = b""
                    if not data:
                        sel.unregister(fd)
                        del sinks[fd]
                        continue
                    sinks[fd].add(data)
                    if sinks[fd].total > limits.max_output_bytes:
                        state = "overflow"
                        return state
            if exited_at is None and not sinks and pidfd is None:
                # Pipes closed; wait for the exit without spinning.
                time.sleep(0.005)
    finally:
        sel.close()
        if pidfd is not None:
            os.close(pidfd)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError):
                stream.close()
    return state


def _reap(proc: subprocess.Popen[bytes]) -> tuple[int, float]:
    """Wait for the (already killed or exited) main process; (returncode, CPU seconds)."""
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    except ChildProcessError:
        return (proc.returncode if proc.returncode is not None else -signal.SIGKILL), 0.0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_utime + usage.ru_stime


