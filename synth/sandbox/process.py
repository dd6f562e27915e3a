"""L1 sandbox: a fresh interpreter per job, an empty environment, rlimits, a private uid.

What one run does (``ProcessBackend.run``):

1. A fresh work dir ``/tmp/synth-sbx-*`` (mode 0700) receives ``job.files``; it is the cwd.
2. When the parent is root, the job runs as a *fresh, unique, unprivileged uid/gid* that owns
   the work dir (:mod:`synth.sandbox.identity`). This is what bounds fork bombs:
   ``RLIMIT_NPROC`` counts processes per uid, so with a uid of its own the job's
   process+thread budget is exactly ``Limits.pids``. It also makes cleanup exact: every process
   of the uid is killed, whatever session it fled to, and every file it left in a
   world-writable directory (``/tmp``, ``/var/tmp``, ``/dev/shm``, ``/run/lock``) is removed
   (writes there are not prevented by this backend, only undone). Without root the job runs as
   the caller's uid; then only the process group is killed (a grandchild that called
   ``setsid()`` can survive) and ``RLIMIT_NPROC`` is the caller's current process count plus
   ``pids``: use bwrap or docker there.
3. When the parent is root and ``unshare --net`` works, the job also gets a private network
   namespace (only a loopback that is down: no connection leaves it, not even to the host's
   127.0.0.1); ``unshare`` then switches to the job's uid/gid itself (``--setuid/--setgid``,
   no supplementary groups, no capabilities). Filesystem isolation is bwrap's job, not this
   backend's.
4. The interpreter (``PYTHON_FLAGS``, environment from ``build_env`` only) is started through
   ``prlimit`` with RLIMIT_CPU (soft ``cpu_s``, hard +1 s: SIGXCPU then SIGKILL), RLIMIT_AS
   (``memory_mb``), RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_NPROC and RLIMIT_CORE=0, in a new session.
   No Python code runs between fork and exec (no ``preexec_fn``), so ``run`` is thread-safe.
5. stdout/stderr are read with a selector against a deadline (never a blocking read); either
   stream beyond ``max_output_bytes`` kills the job (OUTPUT_OVERFLOW). When the main process
   exits, everything it left behind is killed at once, so an orphan holding the pipes cannot
   hang the parent; at the wall deadline the whole job is killed (TIMEOUT).

The interpreter must be executable by the job's uid: ``sys.executable`` when it is, otherwise
the first of ``/usr/bin/python3`` ... that runs as that uid and is >= 3.11 (probed once).
"""

from __future__ import annotations

import contextlib
import math
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from synth.sandbox.base import (
    PYTHON_FLAGS,
    Limits,
    Outcome,
    RunResult,
    SandboxJob,
    SessionError,
    build_env,
    classify_exit,
)
from synth.sandbox.identity import (
    Identity,
    kill_identity,
    new_identity,
    pids_of,
    reap_stale_workdirs,
    release_identity,
    rmtree,
    sweep_files,
)

__all__ = ["Identity", "ProcessBackend", "ProcessSession", "find_interpreter", "kill_identity"]

PRLIMIT = shutil.which("prlimit", path="/usr/bin:/bin")
UNSHARE = shutil.which("unshare", path="/usr/bin:/bin")
_DRAIN_S = 1.0  # after the main process exits: time to collect what is still in the pipes
_MB = 1024 * 1024


@lru_cache(maxsize=4)
def find_interpreter(private: bool) -> str:
    """A CPython >= 3.11 that the job's uid can execute (probed once per mode)."""
    candidates = [os.path.realpath(sys.executable)]
    base = getattr(sys, "_base_executable", None)
    if base:
        candidates.append(os.path.realpath(base))
    candidates += ["/usr/bin/python3", "/usr/bin/python3.11", "/usr/local/bin/python3"]
    seen: list[str] = []
    for cand in candidates:
        if cand in seen or not os.path.exists(cand):
            continue
        seen.append(cand)
        ident = new_identity() if private else Identity(os.getuid(), os.getgid(), False)
        try:
            out = subprocess.run(
                [cand, *PYTHON_FLAGS, "-c", "import sys; print(sys.version_info >= (3, 11))"],
                user=ident.uid if ident.private else None,
                group=ident.gid if ident.private else None,
                extra_groups=[] if ident.private else None,
                env={"PATH": "/usr/bin:/bin"},
                cwd="/",
                capture_output=True,
                text=True,
                timeout=20,
            )
            if out.returncode == 0 and out.stdout.strip() == "True":
                return cand
        except (OSError, subprocess.SubprocessError):
            continue
        finally:
            release_identity(ident)
    raise RuntimeError(
        "no Python >= 3.11 that an unprivileged uid can execute (tried "
        + ", ".join(seen)
        + "); install python3 (apt-get install -y python3)"
    )


@lru_cache(maxsize=1)
def netns_available() -> bool:
    """Can we (root) give a job its own network namespace with ``unshare --net``?"""
    if os.geteuid() != 0 or UNSHARE is None:
        return False
    try:
        done = subprocess.run(
            [UNSHARE, "--net", "--setgid=65534", "--setuid=65534", "--", "/bin/true"],
            env={},
            capture_output=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def rlimit_args(limits: Limits, ident: Identity, extra_procs: int = 0) -> list[str]:
    """``prlimit`` options for the limits (soft CPU = cpu_s, hard = cpu_s + 1).

    ``extra_procs``: processes the launcher itself keeps alive (bwrap's monitor and init)."""
    cpu = max(1, math.ceil(limits.cpu_s))
    nproc = limits.pids + extra_procs
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


class _Tail:
    """Keeps the last ``cap`` bytes written and counts all of them."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.buf = bytearray()
        self.total = 0

    def add(self, data: bytes) -> None:
        self.total += len(data)
        self.buf += data
        if len(self.buf) > self.cap:
            del self.buf[: len(self.buf) - self.cap]

    def text(self) -> str:
        return self.buf.decode("utf-8", errors="replace")


class ProcessBackend:
    """L1: rlimits + a private uid + an empty environment (see the module docstring)."""

    name = "process"

    def __init__(self) -> None:
        self._probe: tuple[bool, str] | None = None

    # -- hooks for subclasses (bwrap) ------------------------------------------------------
    def _stage(self, job: SandboxJob, workdir: str, ident: Identity) -> list[int]:
        """Put ``job.files`` where the job will see them; return fds to pass to the child."""
        _write_files(Path(workdir), job.files, ident)
        return []

    def _command(
        self,
        python: str,
        job: SandboxJob,
        limits: Limits,
        workdir: str,
        ident: Identity,
        fds: list[int],
    ) -> tuple[list[str], str]:
        """(argv to execute, cwd). The job sees ``workdir`` as its cwd."""
        if PRLIMIT is None:
            raise RuntimeError("prlimit (util-linux) is missing: apt-get install -y util-linux")
        cmd = [PRLIMIT, *rlimit_args(limits, ident), "--", python, *PYTHON_FLAGS, *job.argv]
        if self._drops_privileges(ident):
            assert UNSHARE is not None
            prefix = [UNSHARE, "--net", f"--setgid={ident.gid}", f"--setuid={ident.uid}", "--"]
            cmd = prefix + cmd
        return cmd, workdir

    def _drops_privileges(self, ident: Identity) -> bool:
        """True when the command itself switches to the job's uid (``unshare --net`` as root:
        a private network namespace with only a downed loopback), so Popen must not."""
        return ident.private and netns_available()

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
            prepared = self._prepare(job, limits)
        except Exception as exc:
            return RunResult(
                outcome=Outcome.SANDBOX_ERROR,
                backend=self.name,
                elapsed_s=time.monotonic() - start,
                detail=f"could not prepare the sandbox: {type(exc).__name__}: {exc}",
            )
        workdir, ident, cmd, cwd, env, fds = prepared
        try:
            return self._execute(job, limits, cmd, cwd, env, ident, fds, start)
        finally:
            _close_fds(fds)  # _execute has killed everything the job started
            rmtree(workdir)
            sweep_files(ident)
            release_identity(ident)

    def spawn(self, job: SandboxJob, limits: Limits) -> ProcessSession:
        workdir, ident, cmd, cwd, env, fds = self._prepare(job, limits)
        try:
            proc = self._popen(cmd, cwd, env, ident, fds)
        except Exception:
            rmtree(workdir)
            release_identity(ident)
            raise
        finally:
            _close_fds(fds)
        return ProcessSession(proc, ident, workdir, self._returncode)

    # -- internals ------------------------------------------------------------------------
    def _prepare(
        self, job: SandboxJob, limits: Limits
    ) -> tuple[str, Identity, list[str], str, dict[str, str], list[int]]:
        ident = new_identity()
        fds: list[int] = []
        try:
            python = find_interpreter(ident.private)
            workdir = tempfile.mkdtemp(prefix="synth-sbx-")
            if ident.private:
                os.chown(workdir, ident.uid, ident.gid)
            try:
                fds = self._stage(job, workdir, ident)
                cmd, cwd = self._command(python, job, limits, workdir, ident, fds)
            except Exception:
                _close_fds(fds)
                rmtree(workdir)
                raise
        except Exception:
            release_identity(ident)
            raise
        env = build_env(job, self._job_workdir(workdir))
        return workdir, ident, cmd, cwd, env, fds

    def _popen(
        self, cmd: list[str], cwd: str, env: dict[str, str], ident: Identity, fds: list[int]
    ) -> subprocess.Popen[bytes]:
        switch = ident.private and not self._drops_privileges(ident)
        return subprocess.Popen(
            cmd,
            pass_fds=fds,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            close_fds=True,
            user=ident.uid if switch else None,
            group=ident.gid if switch else None,
            extra_groups=[] if switch else None,
            umask=0o077,
        )

    def _execute(
        self,
        job: SandboxJob,
        limits: Limits,
        cmd: list[str],
        cwd: str,
        env: dict[str, str],
        ident: Identity,
        fds: list[int],
        start: float,
    ) -> RunResult:
        try:
            proc = self._popen(cmd, cwd, env, ident, fds)
        except Exception as exc:
            return RunResult(
                outcome=Outcome.SANDBOX_ERROR,
                backend=self.name,
                elapsed_s=time.monotonic() - start,
                detail=f"could not start the interpreter: {type(exc).__name__}: {exc}",
            )
        deadline = start + limits.wall_s
        out, err = _Tail(limits.max_output_bytes), _Tail(limits.max_output_bytes)
        cleaned: list[bool] = []  # set by _pump when it killed the leftovers at the main exit
        try:
            state = _pump(
                proc, job.stdin.encode("utf-8"), out, err, deadline, limits, ident, cleaned
            )
        finally:
            if not cleaned or not cleaned[-1]:
                kill_identity(ident, proc.pid)
        status, cpu = _reap(proc)
        status = self._returncode(status)
        elapsed = time.monotonic() - start
        stdout, stderr = out.text(), err.text()

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
        if state == "timeout":
            detail = f"wall-clock limit of {limits.wall_s:g}s exceeded; killed"
            return result(Outcome.TIMEOUT, detail, sig=signal.SIGKILL)
        outcome, code, sig, detail = classify_exit(status, stderr)
        if sig == signal.SIGKILL and cpu >= math.ceil(limits.cpu_s) - 0.05:
            outcome, detail = Outcome.TIMEOUT, f"CPU limit of {limits.cpu_s:g}s exceeded; killed"
        elif sig == signal.SIGXCPU:
            detail = f"CPU limit of {limits.cpu_s:g}s exceeded (SIGXCPU)"
        return result(outcome, detail, code, sig)


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
    ident: Identity,
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
                cleaned.append(kill_identity(ident, proc.pid))
            for key, _ in events:
                fd = key.fd
                if fd == pidfd:
                    sel.unregister(fd)
                    exited_at = time.monotonic()
                    # The main process is gone: whatever it left behind dies now, so that
                    # an orphan holding the pipes cannot keep us waiting.
                    cleaned.append(kill_identity(ident, proc.pid))
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


class ProcessSession:
    """A long-lived job started by :meth:`ProcessBackend.spawn` (see :class:`Session`)."""

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        ident: Identity,
        workdir: str,
        decode: Callable[[int], int],
    ) -> None:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self._proc = proc
        self._decode = decode  # launcher return code -> the job's (bwrap: 128 + N -> -N)
        self._ident = ident
        self._workdir = workdir
        self._buf = bytearray()
        self._err: deque[bytes] = deque()
        self._err_len = 0
        self._closed = False
        self._lock = threading.Lock()
        os.set_blocking(proc.stdout.fileno(), False)
        os.set_blocking(proc.stdin.fileno(), False)
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()

    def _drain_stderr(self) -> None:
        stream = self._proc.stderr
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            while True:
                data = os.read(stream.fileno(), 65536)
                if not data:
                    return
                self._err.append(data)
                self._err_len += len(data)
                while self._err_len > 16384 and len(self._err) > 1:
                    self._err_len -= len(self._err.popleft())

    def send(self, data: bytes, timeout_s: float | None = None) -> None:
        stdin = self._proc.stdin
        assert stdin is not None
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        view = memoryview(data)
        try:
            fd = stdin.fileno()
            with selectors.DefaultSelector() as sel:
                sel.register(fd, selectors.EVENT_WRITE)
                while view:
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        raise TimeoutError(f"worker did not read its input within {timeout_s:g}s")
                    if not sel.select(timeout=left):
                        continue
                    try:
                        view = view[os.write(fd, view[:65536]) :]
                    except BlockingIOError:
                        continue
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise SessionError(f"worker stdin closed: {exc}") from exc

    def _pop_line(self) -> bytes | None:
        nl = self._buf.find(b"\n")
        if nl < 0:
            return None
        line = bytes(self._buf[:nl])
        del self._buf[: nl + 1]
        return line

    def recv_line(self, timeout_s: float, max_bytes: int) -> bytes:
        line = self._pop_line()  # fast path: replies often arrive several at a time
        if line is not None:
            return line
        stdout = self._proc.stdout
        assert stdout is not None
        deadline = time.monotonic() + timeout_s
        fd = stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                line = self._pop_line()
                if line is not None:
                    return line
                if len(self._buf) > max_bytes:
                    raise OverflowError(f"worker reply longer than {max_bytes} bytes")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no reply within {timeout_s:g}s")
                if not sel.select(timeout=left):
                    continue
                try:
                    data = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                if not data:
                    raise SessionError("worker closed its stdout (exited)")
                self._buf += data

    def stderr_tail(self) -> str:
        return b"".join(self._err).decode("utf-8", errors="replace")[-4000:]

    def returncode(self) -> int | None:
        code = self._proc.poll()
        return None if code is None else self._decode(code)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        kill_identity(self._ident, self._proc.pid)
        with contextlib.suppress(OSError):
            self._proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=5)
        for stream in (self._proc.stdin, self._proc.stdout):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()
        self._stderr_thread.join(timeout=1)
        with contextlib.suppress(OSError, ValueError):
            if self._proc.stderr is not None:
                self._proc.stderr.close()
        rmtree(self._workdir)
        sweep_files(self._ident)
        release_identity(self._ident)
