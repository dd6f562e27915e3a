"""The in-container side of the docker backend (standard library only; Python >= 3.11).

:mod:`synth.sandbox.docker` starts this file's source with ``python3 -I -S -B -c SOURCE MODE``
(``-I``: neither the environment nor the current directory can change what it imports). It is
never imported by the host except to read its source (and by tests).

Who is who in a container (see :mod:`synth.sandbox.docker` for why)::

    PID 1      "init"  starts as root, drops at once to uid/gid 65533 with no capabilities
    runner     "serve" root (uid 0) holding only CAP_KILL, CAP_SETUID, CAP_SETGID, CAP_SETPCAP,
                       bounding set emptied, non-dumpable; never runs job code
    jobs               uid/gid 65534 ("nobody"), no capabilities at all, no-new-privileges

A job can neither signal, ptrace, ``prlimit``, renice nor open the ``/proc/<pid>/fd`` of PID 1
or the runner: the kernel allows all of those only to a process of the same uid (or one with
CAP_KILL / CAP_SYS_PTRACE / CAP_SYS_RESOURCE / CAP_SYS_NICE), and the uids differ.

Modes:

``init``
    PID 1 of every sandbox container: drops to uid 65533, reaps orphans (``SIGCHLD`` ignored,
    so the kernel reaps them) and sleeps. It holds no state.
``serve``
    The runner, started once per container by ``docker exec`` as root. It first empties its
    capability bounding set (so nothing it starts can ever regain a capability) and checks
    that it holds exactly the capabilities it needs. Then it reads a *payload* from stdin
    (8-byte big-endian length, then JSON: files, argv, stdin, env, limits, workdir, session).

    A *session* payload (a long-lived worker: the container is dedicated to it) makes the
    runner drop to uid 65534, write the files and *replace itself* (``execve``) with the
    job's interpreter, so the job's stdin/stdout are the exec stream -- or, when the payload
    names an ``io`` folder, the two FIFOs in it (opened as root before the uid changes), and
    only its stderr is the exec stream.

    Otherwise it runs jobs one after the other for the life of the container. Per job:

    1. as root with CAP_KILL it kills every process in the container but PID 1 and itself
       (``kill(-1, SIGKILL)``: atomic, limited to the container's PID namespace), so nothing
       an earlier job started is alive; it checks that its own rlimits, nice value and
       affinity are unchanged (else it answers ``tainted`` and exits);
    2. a forked helper that has become uid 65534 (no other process of that uid exists now)
       empties the writable directories and System V IPC, and writes the job's files into
       the fresh work dir ``/tmp/job-<id>`` (mode 0700);
    3. the job runs as uid/gid 65534 without supplementary groups: ``python3 -s -S -B argv...``
       in a new session with rlimits (CPU, address space, file size, open files), the given
       environment only, and a high OOM score;
    4. the runner feeds stdin, collects stdout/stderr with caps (tails kept) against the wall
       deadline, kills everything when the main process exits, the deadline passes or a
       stream overflows;
    5. it cleans up as in (1) and (2) and writes ONE JSON line (the report) to its stdout.

    It ends when its stdin closes.
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
from collections.abc import Callable
from typing import Any

PYTHON = "/usr/bin/python3"
FLAGS = ("-s", "-S", "-B")
JOB_UID = 65534  # "nobody": every job
INIT_UID = 65533  # PID 1 after it dropped root: neither a job's uid nor the runner's
WRITABLE_DIRS = ("/tmp", "/dev/shm", "/dev/mqueue")
DRAIN_S = 1.0
KILL_WAIT_S = 2.0  # for the processes of a job to be gone after SIGKILL
MB = 1024 * 1024
OOM_FILES = ("/sys/fs/cgroup/memory/memory.oom_control", "/sys/fs/cgroup/memory.events")
# Capability numbers (linux/capability.h) the runner keeps and needs.
CAP_SETGID, CAP_SETUID, CAP_KILL, CAP_SETPCAP = 6, 7, 5, 8
RUNNER_CAPS = (1 << CAP_KILL) | (1 << CAP_SETGID) | (1 << CAP_SETUID) | (1 << CAP_SETPCAP)
PR_SET_DUMPABLE, PR_CAPBSET_DROP = 4, 24


def _libc() -> Any:
    import ctypes  # lazily: a job's interpreter never loads this module anyway

    return ctypes.CDLL(None, use_errno=True)


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


def kill_all() -> bool:
    """SIGKILL every process we may signal in the container, except us and PID 1 (as the root
    runner with CAP_KILL: every job process), and wait until they are gone (our own unreaped
    children excepted: zombies run nothing). False if one outlived 2 s (stuck in the kernel).

    One ``kill(-1)`` is atomic (the kernel signals all under the task-list lock, and a fork in
    flight fails): nothing can escape it by forking."""
    deadline = time.monotonic() + KILL_WAIT_S
    while time.monotonic() < deadline:
        try:
            os.kill(-1, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            return True
        if not others_alive():
            return True
        time.sleep(0.0005)
    return False


def others_alive() -> bool:
    """Is a process other than PID 1 and us alive (not a zombie) in the container?"""
    me = os.getpid()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in (1, me):
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as fh:
                state = fh.read().rsplit(")", 1)[-1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            continue  # gone meanwhile
        except (OSError, IndexError):
            return True  # cannot tell: assume the worst
        if state not in ("Z", "X"):
            return True
    return False


def caps(which: str = "CapEff") -> int:
    """One capability set of this process, from /proc/self/status."""
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith(which + ":"):
                return int(line.split()[1], 16)
    return -1


def drop_bounding_set() -> None:
    """Empty the capability bounding set (needs CAP_SETPCAP): whatever this process starts can
    never hold a capability, even through a setuid or file-capability binary."""
    import ctypes

    libc = _libc()
    for cap in range(64):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            if ctypes.get_errno() == 22:  # EINVAL: past the kernel's last capability
                break
            raise OSError(f"cannot drop capability {cap} from the bounding set")


def become(uid: int) -> None:
    """Drop root for good: no supplementary groups, real/effective/saved ids ``uid``. The kernel
    clears every capability and makes us non-dumpable (fs.suid_dumpable) on the way."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getresuid() != (uid, uid, uid) or caps("CapPrm") != 0:
        raise OSError(f"could not become uid {uid} without capabilities")


def set_dumpable(flag: int) -> None:
    """prctl(PR_SET_DUMPABLE): 0 hides our /proc entries and forbids ptrace."""
    with contextlib.suppress(Exception):
        _libc().prctl(PR_SET_DUMPABLE, flag, 0, 0, 0)


def wipe_writable() -> None:
    """Remove everything from the writable directories (run as the job uid, who owns it all)."""
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
    libc = _libc()
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


def wipe() -> None:
    """What a job may leave behind besides processes. Never raises."""
    for step in (wipe_writable, remove_sysv_ipc):
        with contextlib.suppress(Exception):
            step()


def as_job_user(work: Callable[..., None], *args: Any) -> str | None:
    """Run ``work(*args)`` in a forked child that has become the job uid; the error text, or
    None when it worked. Called right after :func:`kill_all`, when no process of that uid is
    alive to interfere with the child."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (child)
        code = 0
        try:
            os.close(rfd)
            become(JOB_UID)
            work(*args)
        except BaseException as exc:
            code = 1
            with contextlib.suppress(Exception):
                os.write(wfd, f"{type(exc).__name__}: {exc}".encode()[:2000])
        finally:
            os._exit(code)
    os.close(wfd)
    chunks = []
    while chunk := os.read(rfd, 4096):
        chunks.append(chunk)
    os.close(rfd)
    _, status = os.waitpid(pid, 0)
    if status == 0:
        return None
    return b"".join(chunks).decode("utf-8", "replace") or f"helper status {status}"


def clean() -> bool:
    """Kill every process but PID 1 and us, then remove what jobs left behind. Never raises;
    False when a process could not be killed or the wipe failed (the container must go)."""
    if not kill_all():
        return False
    return as_job_user(wipe) is None


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
    os.umask(0o077)
    os.mkdir(workdir, 0o700)
    for name, text in files.items():
        if name.startswith("/") or ".." in name.split("/"):
            raise ValueError(f"bad job file path {name!r}")
        path = os.path.join(workdir, name)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)


def wipe_and_write(workdir: str, files: dict[str, str]) -> None:
    wipe()
    write_files(workdir, files)


def set_limits(limits: dict) -> None:
    """rlimits for the job (called in the child as the job uid, or before execve in a session)."""
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


def enter_job(workdir: str, limits: dict) -> None:
    """In the job's child, already the job uid: its work dir (root may not search it), rlimits."""
    os.chdir(workdir)
    set_limits(limits)


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
                    kill_all()  # orphans holding the pipes die with the main process
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
    if not kill_all():
        return {"state": "setup_error", "error": "a process of an earlier job did not die"}
    oom_before = oom_kills()
    error = as_job_user(wipe_and_write, workdir, payload["files"])
    if error is not None:
        clean()
        return {"state": "setup_error", "error": f"writing the job's files: {error}"}
    try:
        proc = subprocess.Popen(
            [PYTHON, *FLAGS, *payload["argv"]],
            env=payload["env"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            close_fds=True,
            umask=0o077,
            user=JOB_UID,
            group=JOB_UID,
            extra_groups=[],
            preexec_fn=lambda: enter_job(workdir, limits),  # runs after the uid change
        )
    except Exception as exc:
        clean()
        return {"state": "setup_error", "error": f"{type(exc).__name__}: {exc}"}
    cap = int(limits["max_output_bytes"])
    out, err = Tail(cap), Tail(cap)
    deadline = start + float(limits["wall_s"])
    state = pump(proc, payload["stdin"].encode("utf-8"), out, err, deadline, cap)
    kill_all()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
        returncode = os.waitstatus_to_exitcode(status)
        cpu = usage.ru_utime + usage.ru_stime
    except ChildProcessError:
        returncode, cpu = -signal.SIGKILL, 0.0
    elapsed = time.monotonic() - start
    oom_after = oom_kills()
    return {
        "clean": clean(),
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


def attach_fifos(folder: str) -> None:
    """Make the session FIFOs of ``folder`` (a read-only bind mount of the host's folder for
    this container) the job's stdin and stdout. Opened as uid 0, their owner, before the uid
    changes: the job cannot open them by name. The host holds the other ends."""
    fd_in = os.open(os.path.join(folder, "in"), os.O_RDONLY | os.O_NONBLOCK)
    os.set_blocking(fd_in, True)
    fd_out = os.open(os.path.join(folder, "out"), os.O_WRONLY)  # the host's reader is open
    os.dup2(fd_in, 0)
    os.dup2(fd_out, 1)
    os.close(fd_in)
    os.close(fd_out)


def start_session(payload: dict) -> None:
    """Become the job: drop to the job uid, write the files, execve (never returns)."""
    kill_all()
    if payload.get("io"):
        attach_fifos(payload["io"])
    become(JOB_UID)
    workdir = payload["workdir"]
    wipe_and_write(workdir, payload["files"])
    os.chdir(workdir)
    with contextlib.suppress(PermissionError):  # docker exec may have made us a group leader
        os.setsid()
    set_limits(payload["limits"])
    os.execve(PYTHON, [PYTHON, *FLAGS, *payload["argv"]], payload["env"])


def init() -> None:
    if os.geteuid() == 0:  # the container starts as root only so that the runner may be root
        drop_bounding_set()
        become(INIT_UID)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps orphans for us
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Python's KeyboardInterrupt handler: gone
    # No other handler: PID 1 of a namespace ignores every signal it does not handle, and a job
    # (another uid) may not signal it anyway; the host removes the container from outside.
    while True:
        signal.pause()


def fingerprint() -> tuple:
    """What another process could change about us without ptrace (prlimit, renice, affinity).
    A job cannot (other uid, no capabilities): a change would mean the isolation broke."""
    names = sorted(n for n in dir(resource) if n.startswith("RLIMIT_"))
    limits = tuple(resource.getrlimit(getattr(resource, n)) for n in names)
    return limits, os.getpriority(os.PRIO_PROCESS, 0), sorted(os.sched_getaffinity(0))


def privileges_problem() -> str | None:
    """Why this runner cannot keep jobs away from itself, or None when it can."""
    if os.geteuid() != 0:
        return f"the runner runs as uid {os.geteuid()}, not root (container user must be 0:0)"
    have = caps("CapEff")
    if have & RUNNER_CAPS != RUNNER_CAPS:
        return (
            f"the runner lacks capabilities (effective {have:#x}, needs {RUNNER_CAPS:#x}: "
            "KILL, SETUID, SETGID, SETPCAP)"
        )
    if have & ~RUNNER_CAPS:
        return f"the runner has more capabilities than it needs ({have:#x})"
    try:
        drop_bounding_set()
    except OSError as exc:
        return str(exc)
    if caps("CapBnd") != 0:
        return "the capability bounding set could not be emptied"
    return None


def serve() -> int:
    """Run jobs one after the other, one JSON report line each, until stdin closes."""
    problem = privileges_problem()
    baseline = fingerprint()
    try:
        payload = read_payload()
    except EOFError:
        return 0  # a spare container that was never used
    except Exception as exc:
        sys.stdout.write(json.dumps({"state": "setup_error", "error": f"bad payload: {exc}"}))
        return 2
    while True:
        if problem is not None and payload.get("session"):
            sys.stderr.write(f"sandbox session setup failed: {problem}\n")
            return 2
        if problem is not None:
            sys.stdout.write(json.dumps({"state": "setup_error", "error": problem}) + "\n")
            sys.stdout.flush()
            return 2
        if payload.get("session"):
            try:
                start_session(payload)
            except Exception as exc:  # execve did not happen
                sys.stderr.write(f"sandbox session setup failed: {type(exc).__name__}: {exc}\n")
                return 2
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
    if mode != "serve":
        sys.stderr.write(f"usage: runner init|serve (got {mode!r})\n")
        return 2
    set_dumpable(0)
    return serve()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
