"""The in-container side of the docker backend (standard library only; Python >= 3.11).

:mod:`synth.sandbox.docker` starts this file's source with ``python3 -s -S -B -c SOURCE MODE``
through ``docker exec`` in a warm container, as the container's unprivileged user. It is never
imported by the host except to read its source (and by tests).

Modes:

``init``
    PID 1 of every sandbox container: reaps orphans (``SIGCHLD`` ignored, so the kernel reaps
    them) and sleeps. It holds no state.
``serve``
    Runs jobs one after the other for the life of the container. Per job it reads a *payload*
    from stdin (8-byte big-endian length, then JSON: files, argv, stdin, env, limits,
    workdir), then:

    1. kills every other process of this uid in the container (``kill(-1, SIGKILL)``: atomic,
       limited to the container's PID namespace; PID 1 is immune), checks that no earlier job
       changed its own rlimits, nice value or affinity (else it answers ``tainted`` and exits),
       and empties the writable directories and System V IPC, so nothing a previous job left
       behind can touch this one;
    2. writes the files into the fresh work dir ``/tmp/job-<id>`` (mode 0700);
    3. runs ``python3 -s -S -B argv...`` there in a new session with rlimits (CPU, address
       space, file size, open files), the given environment only, and a high OOM score;
    4. feeds stdin, collects stdout/stderr with caps (tails kept) against the wall deadline,
       kills everything when the main process exits, the deadline passes or a stream
       overflows;
    5. cleans up as in (1) and writes ONE JSON line (the report) to its stdout.

    It ends when its stdin closes. It is non-dumpable, so a job cannot ptrace it or open its
    file descriptors through ``/proc``.
``session``
    Reads a payload, cleans up and writes the files as ``serve`` does, then *replaces itself*
    (``execve``) with the job's interpreter, so the job's stdin/stdout are the exec stream.
``cleanup``
    Kill everything but PID 1 and empty the writable directories (used when a session ends).
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import selectors
import shutil
import signal
import struct
import subprocess
import sys
import time

PYTHON = "/usr/bin/python3"
FLAGS = ("-s", "-S", "-B")
WRITABLE_DIRS = ("/tmp", "/dev/shm", "/dev/mqueue", "/var/tmp", "/run/lock")
DRAIN_S = 1.0
MB = 1024 * 1024
OOM_FILES = ("/sys/fs/cgroup/memory/memory.oom_control", "/sys/fs/cgroup/memory.events")


def oom_kills() -> int:
    """The container cgroup's OOM-kill counter (cgroup v1 or v2); -1 when unreadable."""
    for path in OOM_FILES:
        try:
            with open(path, encoding="ascii") as fh:
                for line in fh:
                    key, _, value = line.partition(" ")
                    if key == "oom_kill":
                        return int(value)
        except (OSError, ValueError):
            continue
    return -1


def kill_others() -> None:
    """SIGKILL every process this uid may signal in the container, except us and PID 1."""
    for _ in range(5):
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            return
        except PermissionError:
            return
        time.sleep(0.002)


def wipe_writable() -> None:
    """Remove everything this uid can remove from the writable directories."""
    for top in WRITABLE_DIRS:
        try:
            entries = list(os.scandir(top))
        except OSError:
            continue
        for entry in entries:
            with contextlib.suppress(OSError):
                if entry.is_dir(follow_symlinks=False):
                    _make_writable(entry.path)
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)


def _make_writable(top: str) -> None:
    """A job may chmod its own dirs to 0; give them back to us so rmtree can proceed."""
    with contextlib.suppress(OSError):
        os.chmod(top, 0o700)
    for dirpath, dirnames, _ in os.walk(top, topdown=True):
        for name in dirnames:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path):  # never follow a job's symlink
                with contextlib.suppress(OSError):
                    os.chmod(path, 0o700)


def remove_sysv_ipc() -> None:
    """Remove the System V shared memory, semaphores and queues of the container's private IPC
    namespace (they outlive processes, hold memory and could carry data to the next job)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
    except Exception:
        return
    ipc_rmid = 0
    removers = {
        "shm": lambda i: libc.shmctl(i, ipc_rmid, None),
        "sem": lambda i: libc.semctl(i, 0, ipc_rmid),
        "msg": lambda i: libc.msgctl(i, ipc_rmid, None),
    }
    for kind, remove in removers.items():
        try:
            with open(f"/proc/sysvipc/{kind}", encoding="ascii") as fh:
                rows = fh.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) > 1 and fields[1].isdigit():
                remove(int(fields[1]))


def clean() -> None:
    """Kill every other process of this uid and remove what jobs left behind. Never raises."""
    kill_others()
    for step in (wipe_writable, remove_sysv_ipc):
        with contextlib.suppress(Exception):
            step()


def set_dumpable(flag: int) -> None:
    """prctl(PR_SET_DUMPABLE): 0 hides our /proc entries and forbids ptrace by the job."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(4, flag, 0, 0, 0)  # PR_SET_DUMPABLE = 4
    except Exception:
        pass


def read_payload() -> dict:
    """Exactly the payload's bytes from fd 0 (what follows belongs to the job in a session)."""
    header = _read_exact(8)
    (size,) = struct.unpack(">Q", header)
    data = json.loads(_read_exact(size).decode("utf-8"))
    if not isinstance(data, dict):
        raise ValueError("payload is not a JSON object")
    return data


def _read_exact(n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = os.read(0, n - len(buf))
        if not chunk:
            raise EOFError(f"stdin closed after {len(buf)} of {n} payload bytes")
        buf += chunk
    return bytes(buf)


def write_files(workdir: str, files: dict[str, str]) -> None:
    os.mkdir(workdir, 0o700)
    for name, text in files.items():
        if name.startswith("/") or ".." in name.split("/"):
            raise ValueError(f"bad job file path {name!r}")
        path = os.path.join(workdir, name)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)


def set_limits(limits: dict) -> None:
    """rlimits for the job (called in the child, or before execve in a session)."""
    cpu = max(1, int(-(-float(limits["cpu_s"]) // 1)))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    mem = int(limits["memory_mb"]) * MB
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    fsize = int(limits["file_size_mb"]) * MB
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    nofile = int(limits["open_files"])
    resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    set_dumpable(1)  # /proc/self is ours again (execve would do it too, but we write to it now)
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as fh:
        fh.write("1000")  # the OOM killer takes the job, not the runner


class Tail:
    """Keeps the last ``cap`` bytes and counts all of them."""

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


def pump(
    proc: subprocess.Popen, stdin_data: bytes, out: Tail, err: Tail, deadline: float, cap: int
) -> str:
    """Feed stdin, collect output until the job ends: 'exited', 'timeout' or 'overflow'."""
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
    pidfd = os.pidfd_open(proc.pid)
    sel.register(pidfd, selectors.EVENT_READ)
    exited_at: float | None = None
    try:
        while True:
            now = time.monotonic()
            if exited_at is None and now >= deadline:
                return "timeout"
            if exited_at is not None and (now - exited_at > DRAIN_S or not sinks):
                return "exited"
            limit = (deadline if exited_at is None else exited_at + DRAIN_S) - now
            for key, _ in sel.select(timeout=max(0.0, limit)):
                fd = key.fd
                if fd == pidfd:
                    sel.unregister(fd)
                    exited_at = time.monotonic()
                    kill_others()  # orphans holding the pipes die with the main process
                elif fd == stdin_fd:
                    try:
                        n = os.write(fd, view[:65536])
                        view = view[n:]
                    except OSError:
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
                    if sinks[fd].total > cap:
                        return "overflow"
    finally:
        sel.close()
        os.close(pidfd)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError):
                stream.close()


def run_job(payload: dict) -> dict:
    limits = payload["limits"]
    workdir = payload["workdir"]
    start = time.monotonic()
    clean()
    oom_before = oom_kills()
    try:
        write_files(workdir, payload["files"])
        proc = subprocess.Popen(
            [PYTHON, *FLAGS, *payload["argv"]],
            cwd=workdir,
            env=payload["env"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            close_fds=True,
            umask=0o077,
            preexec_fn=lambda: set_limits(limits),
        )
    except Exception as exc:
        clean()
        return {"state": "setup_error", "error": f"{type(exc).__name__}: {exc}"}
    cap = int(limits["max_output_bytes"])
    out, err = Tail(cap), Tail(cap)
    deadline = start + float(limits["wall_s"])
    state = pump(proc, payload["stdin"].encode("utf-8"), out, err, deadline, cap)
    kill_others()
    with contextlib.suppress(OSError):
        os.kill(proc.pid, signal.SIGKILL)
    try:
        _, status, usage = os.wait4(proc.pid, 0)
        returncode = os.waitstatus_to_exitcode(status)
        cpu = usage.ru_utime + usage.ru_stime
    except ChildProcessError:
        returncode, cpu = -signal.SIGKILL, 0.0
    elapsed = time.monotonic() - start
    oom_after = oom_kills()
    clean()
    return {
        "state": state,
        "returncode": returncode,
        "cpu_s": cpu,
        "elapsed_s": elapsed,
        "oom_kills": oom_after - oom_before if min(oom_before, oom_after) >= 0 else -1,
        "stdout": out.text(),
        "stderr": err.text(),
        "stdout_total": out.total,
        "stderr_total": err.total,
    }


def start_session(payload: dict) -> None:
    clean()
    workdir = payload["workdir"]
    write_files(workdir, payload["files"])
    os.chdir(workdir)
    os.umask(0o077)
    with contextlib.suppress(PermissionError):  # docker exec may have made us a group leader
        os.setsid()
    set_limits(payload["limits"])
    os.execve(PYTHON, [PYTHON, *FLAGS, *payload["argv"]], payload["env"])


def init() -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps orphans for us
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Python's KeyboardInterrupt handler: gone
    # No other handler: PID 1 of a namespace ignores every signal it does not handle, so a job
    # (same uid) cannot stop the container; the host removes it with SIGKILL from outside.
    while True:
        signal.pause()


def fingerprint() -> tuple:
    """What a job of the same uid could change about us without ptrace (prlimit, renice,
    affinity). A change means an earlier job tampered with the runner."""
    names = sorted(n for n in dir(resource) if n.startswith("RLIMIT_"))
    limits = tuple(resource.getrlimit(getattr(resource, n)) for n in names)
    return limits, os.getpriority(os.PRIO_PROCESS, 0), sorted(os.sched_getaffinity(0))


def serve(payload: dict) -> int:
    """Run jobs one after the other, one JSON report line each, until stdin closes."""
    baseline = fingerprint()
    while True:
        kill_others()
        if fingerprint() != baseline:
            sys.stdout.write('{"state": "tainted"}\n')
            sys.stdout.flush()
            return 3
        report = run_job(payload)
        sys.stdout.write(json.dumps(report) + "\n")
        sys.stdout.flush()
        try:
            payload = read_payload()
        except EOFError:
            clean()
            return 0


def main(argv: list[str]) -> int:
    mode = argv[1] if len(argv) > 1 else ""
    if mode == "init":
        init()
        return 0
    set_dumpable(0)
    if mode == "cleanup":
        clean()
        sys.stdout.write('{"state": "clean"}\n')
        return 0
    if mode not in ("serve", "session"):
        sys.stderr.write(f"usage: runner init|serve|session|cleanup (got {mode!r})\n")
        return 2
    try:
        payload = read_payload()
    except Exception as exc:
        sys.stdout.write(json.dumps({"state": "setup_error", "error": f"bad payload: {exc}"}))
        return 2
    if mode == "serve":
        return serve(payload)
    try:
        start_session(payload)
    except Exception as exc:  # execve did not happen
        sys.stderr.write(f"sandbox session setup failed: {type(exc).__name__}: {exc}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
