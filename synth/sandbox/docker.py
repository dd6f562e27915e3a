"""L3 sandbox: jobs run in warm, locked-down containers of the project's own image.

The image ``bootcamp-synth-sandbox:<tag>`` is built offline by ``scripts/build_sandbox_image.sh``
(Debian bookworm minbase + python3; the tag is the first 12 hex digits of the script's sha256,
which :func:`default_image` recomputes, so the backend always runs the image its script builds).
The engine is started by ``scripts/docker_engine.sh`` (no default bridge, no iptables).

Every container is created through the ``docker`` SDK with::

    network_mode="none", read_only=True, tmpfs /tmp (nosuid,nodev,noexec), ipc_mode="none",
    mem_limit = memswap_limit, pids_limit, nano_cpus, cap_drop=["ALL"],
    security_opt=["no-new-privileges"], user="65534:65534", no logs,
    runtime="runsc" when the engine has gVisor (and runtime="auto")

and labelled ``bootcamp-synth.sandbox=1`` plus its owner (host, pid, process start time).
Its PID 1 is a tiny reaper (:mod:`synth.sandbox.docker_runner` ``init``), which a job cannot
stop. Containers are kept warm and reused: one job at a time per container, keyed by the
container-level limits (``memory_mb``, ``pids``). The first job in a container starts the runner
(:mod:`synth.sandbox.docker_runner`) with one ``docker exec`` in ``serve`` mode; it stays, and
every job is handed to it on its stdin (files, argv, stdin, env, limits: ``put_archive`` cannot
write into a read-only container, and a job read *after* the previous job's stragglers are
killed leaves no window to tamper with it). Per job the runner kills every other process of the
sandbox uid, empties /tmp, writes the files, runs the job under rlimits with a wall deadline and
output caps, cleans up again and answers with one JSON line. The host enforces its own deadline
on top (wall + grace: the container is killed). A job that kills the runner (same uid) gets
``ERROR`` and its container is recycled.

A container is recycled (removed; a fresh one is created on demand) after a timeout, an OOM,
any anomaly (runner silent or killed) and after ``max_runs`` jobs. Containers left behind by
processes that are gone are removed at start-up (probe).

Long-lived workers (the warm pool): :meth:`DockerBackend.spawn` dedicates a warm container to
one job whose stdin/stdout ARE the exec stream (the runner ``execve``-s into the job after
writing its files) and returns a :class:`DockerSession` (the :class:`~synth.sandbox.base.Session`
protocol: ``send``, ``recv_line``, ``stderr_tail``, ``returncode``, ``close``).
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import math
import os
import selectors
import signal
import socket
import struct
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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

__all__ = [
    "BUILD_SCRIPT",
    "IMAGE_REPO",
    "LABEL",
    "DockerBackend",
    "DockerSession",
    "default_image",
]

IMAGE_REPO = "bootcamp-synth-sandbox"
LABEL = "bootcamp-synth.sandbox"
OWNER_LABEL = "bootcamp-synth.owner"
BUILD_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "build_sandbox_image.sh"
ENGINE_SCRIPT = "scripts/docker_engine.sh"
PYTHON = "/usr/bin/python3"
SANDBOX_USER = "65534:65534"
RUNNER_SOURCE = (Path(__file__).with_name("docker_runner.py")).read_text(encoding="utf-8")
EXEC_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
HOST_GRACE_S = 10.0  # the host waits this long past the wall limit before killing the container
MEMORY_HEADROOM_MB = 96  # cgroup limit = job's memory_mb + this (PID 1, the runner, buffers)
PIDS_HEADROOM = 8  # PID 1, the runner, the exec shim


def default_image() -> str:
    """``bootcamp-synth-sandbox:<sha256(build script)[:12]>`` -- the tag the script builds."""
    digest = hashlib.sha256(BUILD_SCRIPT.read_bytes()).hexdigest()[:12]
    return f"{IMAGE_REPO}:{digest}"


def _process_start_time(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            stat = fh.read()
    except OSError:
        return None
    return stat.rsplit(")", 1)[-1].split()[19]  # field 22: start time in clock ticks


def _owner_tag() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{_process_start_time(os.getpid())}"


def _owner_alive(tag: str) -> bool:
    """Is the process that created a container still running (on this host)?"""
    try:
        host, pid, start = tag.split(":")
        if host != socket.gethostname():
            return True  # another machine's container: not ours to judge
        return _process_start_time(int(pid)) == start
    except ValueError:
        return False


def _frame(payload: dict[str, Any]) -> bytes:
    data = json.dumps(payload).encode("utf-8")
    return struct.pack(">Q", len(data)) + data


class _ExecStream:
    """The hijacked connection of one ``docker exec``: stdin out, multiplexed stdout/stderr in."""

    def __init__(self, sock: Any) -> None:
        self._holder = sock  # the SDK's SocketIO (keeps the HTTP response alive)
        self.sock: socket.socket = getattr(sock, "_sock", sock)
        self._buf = bytearray()
        self.eof = False

    def send(self, data: bytes, timeout_s: float = 30.0) -> None:
        self.sock.settimeout(timeout_s)
        self.sock.sendall(data)

    def pump(self, deadline: float, on_stdout: Any, on_stderr: Any) -> str:
        """Read until ``deadline`` or end of stream, handing frames to the callbacks (which may
        return True to stop early). Returns ``"eof"``, ``"stop"`` or ``"deadline"``."""
        self.sock.settimeout(None)
        self.sock.setblocking(False)
        with selectors.DefaultSelector() as sel:
            sel.register(self.sock, selectors.EVENT_READ)
            while not self.eof:
                left = deadline - time.monotonic()
                if left <= 0:
                    return "deadline"
                if not sel.select(timeout=left):
                    continue
                try:
                    data = self.sock.recv(262144)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.eof = True
                    break
                self._buf += data
                if self._dispatch(on_stdout, on_stderr):
                    return "stop"
        return "eof"

    def _dispatch(self, on_stdout: Any, on_stderr: Any) -> bool:
        stop = False
        while len(self._buf) >= 8:
            kind, size = struct.unpack(">BxxxL", self._buf[:8])
            if len(self._buf) < 8 + size:
                break
            chunk = bytes(self._buf[8 : 8 + size])
            del self._buf[: 8 + size]
            stop = bool((on_stderr if kind == 2 else on_stdout)(chunk)) or stop
        return stop

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.sock.close()
        response = getattr(self._holder, "_response", None)
        with contextlib.suppress(Exception):
            self._holder.close()
        if response is not None:
            with contextlib.suppress(Exception):
                response.close()


class _ContainerGone(RuntimeError):
    """The container stopped or disappeared (engine restart, external ``docker rm``)."""


@dataclass
class _Container:
    id: str
    key: tuple[int, int]
    runs: int = 0
    agent: _ExecStream | None = None  # the runner in "serve" mode, once started
    agent_exec: str = ""

    def drop_agent(self) -> None:
        if self.agent is not None:
            self.agent.close()  # the agent sees EOF on stdin and exits
            self.agent = None


class DockerBackend:
    """L3: warm containers, each with one long-lived runner (see the module docstring)."""

    name = "docker"

    def __init__(
        self,
        image: str | None = None,
        *,
        runtime: str = "auto",
        cpus: float = 1.0,
        tmpfs_mb: int = 256,
        max_runs: int = 100,
        api_timeout_s: float = 60.0,
    ) -> None:
        if runtime not in ("auto", "runc", "runsc"):
            raise ValueError("runtime must be 'auto', 'runc' or 'runsc'")
        self.image = image
        self.runtime_choice = runtime
        self.runtime: str | None = None
        self.cpus = cpus
        self.tmpfs_mb = tmpfs_mb
        self.max_runs = max_runs
        self.api_timeout_s = api_timeout_s
        self.stats = {"created": 0, "reused": 0, "recycled": 0, "leftovers_removed": 0}
        self._client: Any = None
        self._probe_result: tuple[bool, str] | None = None
        self._lock = threading.Lock()
        self._probe_lock = threading.Lock()
        self._idle: dict[tuple[int, int], list[_Container]] = {}
        self._live: dict[str, _Container] = {}
        self._owner = _owner_tag()
        self._closed = False
        atexit.register(self.close)  # containers must not outlive the process

    # -- probe --------------------------------------------------------------------------------
    def probe(self) -> tuple[bool, str]:
        """Can containers run here? The reason names the missing piece and the fix."""
        with self._probe_lock:
            if self._probe_result is None:
                self._probe_result = self._probe()
        return self._probe_result

    def _probe(self) -> tuple[bool, str]:
        try:
            import docker
        except ImportError:
            return False, "the docker SDK is not installed: pip install 'docker>=7.1'"
        try:
            client = docker.from_env(timeout=int(self.api_timeout_s))
            client.ping()
        except Exception as exc:
            return False, (
                f"no Docker engine answers ({type(exc).__name__}: {exc}); "
                f"start one with {ENGINE_SCRIPT}"
            )
        try:
            if self.image is None:
                self.image = default_image()
        except OSError as exc:
            return False, f"cannot compute the sandbox image tag ({exc}); pass image=..."
        try:
            client.images.get(self.image)
        except docker.errors.ImageNotFound:
            return False, (
                f"the sandbox image {self.image} is not built; build it (offline, ~2 min) with "
                f"scripts/build_sandbox_image.sh"
            )
        except Exception as exc:
            return False, f"cannot inspect image {self.image}: {type(exc).__name__}: {exc}"
        try:
            runtimes = client.info().get("Runtimes") or {}
        except Exception as exc:
            return False, f"docker info failed: {type(exc).__name__}: {exc}"
        if self.runtime_choice == "runsc" and "runsc" not in runtimes:
            return False, "runtime='runsc' requested but the engine has no gVisor (runsc) runtime"
        self.runtime = "runsc" if self.runtime_choice != "runc" and "runsc" in runtimes else None
        self._client = client
        self.remove_leftovers()
        job = SandboxJob(files={"p.py": "print(6 * 7)"}, argv=["p.py"])
        res = self._run(job, Limits(wall_s=30, cpu_s=10))
        if res.outcome is not Outcome.PASSED or res.stdout.strip() != "42":
            return False, f"trial run in {self.image} failed: {res.outcome} {res.detail} " + (
                res.stderr[-300:]
            )
        runtime = self.runtime or "runc"
        return True, f"ok (image {self.image}, runtime {runtime})"

    def remove_leftovers(self) -> int:
        """Remove labelled containers whose creating process is gone; return how many."""
        removed = 0
        for cont in self._client.containers.list(all=True, filters={"label": f"{LABEL}=1"}):
            owner = (cont.labels or {}).get(OWNER_LABEL, "")
            if owner == self._owner or _owner_alive(owner):
                continue
            with contextlib.suppress(Exception):
                cont.remove(force=True)
                removed += 1
        self.stats["leftovers_removed"] += removed
        return removed

    # -- containers ---------------------------------------------------------------------------
    def _create(self, key: tuple[int, int]) -> _Container:
        import docker

        memory_mb, pids = key
        mem = f"{memory_mb + MEMORY_HEADROOM_MB}m"
        kwargs: dict[str, Any] = {}
        if self.runtime:
            kwargs["runtime"] = self.runtime
        # create + start, never containers.run: that would try to pull a missing image
        cont = self._client.containers.create(
            self.image,
            command=[PYTHON, *PYTHON_FLAGS, "-c", RUNNER_SOURCE, "init"],
            network_mode="none",
            read_only=True,
            tmpfs={"/tmp": f"size={self.tmpfs_mb}m,mode=1777,nosuid,nodev,noexec"},
            ipc_mode="none",
            mem_limit=mem,
            memswap_limit=mem,
            pids_limit=pids + PIDS_HEADROOM,
            nano_cpus=int(self.cpus * 1e9),
            cap_drop=["ALL"],
            security_opt=["no-new-privileges"],
            user=SANDBOX_USER,
            working_dir="/tmp",
            environment=EXEC_ENV,
            hostname="sandbox",
            labels={LABEL: "1", OWNER_LABEL: self._owner},
            log_config=docker.types.LogConfig(type="none"),
            **kwargs,
        )
        try:
            cont.start()
        except Exception:
            self._remove(cont.id)
            raise
        self.stats["created"] += 1
        return _Container(id=cont.id, key=key)

    def _acquire(self, limits: Limits) -> _Container:
        key = (limits.memory_mb, limits.pids)
        with self._lock:
            if self._closed:
                raise RuntimeError("the docker backend is closed")
            idle = self._idle.get(key)
            if idle:
                self.stats["reused"] += 1
                return idle.pop()
        cont = self._create(key)
        with self._lock:
            closed = self._closed
            if not closed:
                self._live[cont.id] = cont
        if closed:  # close() ran while we were creating it
            self._remove(cont.id)
            raise RuntimeError("the docker backend is closed")
        return cont

    def _release(self, cont: _Container, healthy: bool) -> None:
        cont.runs += 1
        with self._lock:
            keep = healthy and not self._closed and cont.runs < self.max_runs
            if keep:
                self._idle.setdefault(cont.key, []).append(cont)
                return
            self._live.pop(cont.id, None)
        self.stats["recycled"] += 1
        cont.drop_agent()
        self._remove(cont.id)

    def _remove(self, container_id: str) -> None:
        with contextlib.suppress(Exception):
            self._client.api.remove_container(container_id, force=True)

    def live_containers(self) -> list[str]:
        """Ids of the containers this backend currently holds (warm or busy)."""
        with self._lock:
            return list(self._live)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            conts = list(self._live.values())
            self._live.clear()
            self._idle.clear()
        if self._client is not None:
            for cont in conts:
                cont.drop_agent()
                self._remove(cont.id)

    # -- exec -----------------------------------------------------------------------------------
    def _exec(self, cont: _Container, mode: str) -> tuple[str, _ExecStream]:
        api = self._client.api
        exec_id = api.exec_create(
            cont.id,
            [PYTHON, *PYTHON_FLAGS, "-c", RUNNER_SOURCE, mode],
            stdin=True,
            stdout=True,
            stderr=True,
            user=SANDBOX_USER,
            workdir="/tmp",
            environment=EXEC_ENV,
        )["Id"]
        return exec_id, _ExecStream(api.exec_start(exec_id, socket=True))

    @staticmethod
    def _payload(job: SandboxJob, limits: Limits) -> dict[str, Any]:
        workdir = f"/tmp/job-{uuid.uuid4().hex[:16]}"
        return {
            "workdir": workdir,
            "files": job.files,
            "argv": job.argv,
            "stdin": job.stdin,
            "env": build_env(job, workdir),
            "limits": limits.model_dump(),
        }

    def run(self, job: SandboxJob, limits: Limits) -> RunResult:
        start = time.monotonic()
        ok, reason = self.probe()
        if not ok:
            return RunResult(
                outcome=Outcome.SANDBOX_ERROR,
                backend=self.name,
                elapsed_s=time.monotonic() - start,
                detail=f"docker backend unavailable: {reason}",
            )
        return self._run(job, limits)

    def _run(self, job: SandboxJob, limits: Limits) -> RunResult:
        start = time.monotonic()
        frame = _frame(self._payload(job, limits))
        for attempt in (1, 2):
            try:
                cont = self._acquire(limits)
            except Exception as exc:
                detail = f"could not start a container: {type(exc).__name__}: {exc}"
                return self._result(Outcome.SANDBOX_ERROR, start, detail)
            reused = cont.agent is not None
            try:
                agent = self._agent(cont)
                agent.send(frame)
            except Exception as exc:
                self._release(cont, False)
                if reused and attempt == 1:
                    continue  # a warm container that died (engine restart?): take a fresh one
                detail = f"could not hand the job to the container: {type(exc).__name__}: {exc}"
                return self._result(Outcome.SANDBOX_ERROR, start, detail)
            healthy = False
            try:
                result, healthy = self._converse(cont, agent, limits, start)
            except _ContainerGone as exc:
                if reused and attempt == 1:
                    continue  # the job never ran: try again in a fresh container
                detail = f"the sandbox container died under the job: {exc}"
                return self._result(Outcome.SANDBOX_ERROR, start, detail)
            finally:
                self._release(cont, healthy)
            return result
        raise AssertionError("unreachable")

    def _agent(self, cont: _Container) -> _ExecStream:
        """The container's runner in ``serve`` mode (one ``docker exec`` for many jobs)."""
        if cont.agent is None or cont.agent.eof:
            cont.drop_agent()
            cont.agent_exec, cont.agent = self._exec(cont, "serve")
        return cont.agent

    def _converse(
        self, cont: _Container, agent: _ExecStream, limits: Limits, start: float
    ) -> tuple[RunResult, bool]:
        """Wait for the report of the job just sent (one JSON line on the agent's stdout)."""
        out = bytearray()
        err = bytearray()
        # The report repeats the job's (capped) output, JSON-escaped: at most 6 bytes per byte.
        report_cap = 12 * limits.max_output_bytes + 65536

        def on_out(chunk: bytes) -> bool:
            out.extend(chunk)
            return b"\n" in chunk or len(out) > report_cap

        def on_err(chunk: bytes) -> bool:
            err.extend(chunk)
            del err[:-8192]
            return False

        status = agent.pump(start + limits.wall_s + HOST_GRACE_S, on_out, on_err)
        if status == "deadline" or len(out) > report_cap:
            cont.drop_agent()
            self._remove(cont.id)  # the runner did not answer in time: kill everything
            if len(out) > report_cap:
                detail = "sandbox runner wrote an oversized report"
                return self._result(Outcome.SANDBOX_ERROR, start, detail), False
            detail = (
                f"no result {HOST_GRACE_S:g}s past the wall limit of {limits.wall_s:g}s; "
                "container killed"
            )
            return self._result(Outcome.TIMEOUT, start, detail, signal=signal.SIGKILL), False
        line, _, rest = bytes(out).partition(b"\n")
        try:
            report = json.loads(line.decode("utf-8"))
            if rest.strip() or not isinstance(report, dict) or "state" not in report:
                raise ValueError("not one report")
        except ValueError:
            return self._silent_runner(cont, cont.agent_exec, start, err), False
        return self._from_report(report, limits, start)

    def _silent_runner(
        self, cont: _Container, exec_id: str, start: float, err: bytearray
    ) -> RunResult:
        """The runner ended without a report: the job killed it, or the cgroup OOM-killed it.
        Raises :class:`_ContainerGone` when the container itself is gone (not the job's doing:
        a job cannot stop its container's PID 1)."""
        code: Any = None
        try:
            state = self._client.api.inspect_container(cont.id)["State"]
        except Exception as exc:
            raise _ContainerGone(f"container vanished: {type(exc).__name__}: {exc}") from exc
        if not state.get("Running"):
            raise _ContainerGone(f"container stopped (state {state.get('Status')})")
        with contextlib.suppress(Exception):
            code = self._client.api.exec_inspect(exec_id).get("ExitCode")
        tail = err.decode("utf-8", errors="replace")[-2000:]
        if state.get("OOMKilled"):
            return self._result(
                Outcome.OOM, start, "container memory limit hit; the runner was killed", stderr=tail
            )
        return self._result(
            Outcome.ERROR,
            start,
            f"the sandbox runner ended without a report (exit {code}): the job interfered "
            "with it; container recycled",
            stderr=tail,
        )

    def _result(self, outcome: Outcome, start: float, detail: str, **extra: Any) -> RunResult:
        return RunResult(
            outcome=outcome,
            backend=self.name,
            elapsed_s=time.monotonic() - start,
            detail=detail,
            **extra,
        )

    def _from_report(
        self, report: dict[str, Any], limits: Limits, start: float
    ) -> tuple[RunResult, bool]:
        state = report["state"]
        if state == "tainted":  # an earlier job re-limited the runner: not this job's doing
            raise _ContainerGone("the runner's limits were changed by an earlier job")
        if state != "exited" and state not in ("timeout", "overflow"):
            detail = f"sandbox runner could not start the job: {report.get('error', state)}"
            return self._result(Outcome.SANDBOX_ERROR, start, detail), False
        stdout, stderr = str(report["stdout"]), str(report["stderr"])
        common: dict[str, Any] = {"stdout": stdout, "stderr": stderr}
        if state == "overflow":
            which = "stdout" if report["stdout_total"] > limits.max_output_bytes else "stderr"
            detail = f"{which} exceeded {limits.max_output_bytes} bytes; killed"
            return self._result(Outcome.OUTPUT_OVERFLOW, start, detail, **common), True
        if state == "timeout":
            detail = f"wall-clock limit of {limits.wall_s:g}s exceeded; killed"
            res = self._result(Outcome.TIMEOUT, start, detail, signal=signal.SIGKILL, **common)
            return res, False
        returncode = int(report["returncode"])
        memory_killed = report["oom_kills"] > 0 and returncode == -signal.SIGKILL
        outcome, code, sig, detail = classify_exit(returncode, stderr, memory_killed=memory_killed)
        if memory_killed:
            detail = f"killed at the container memory limit ({limits.memory_mb} MB)"
        elif sig == signal.SIGKILL and report["cpu_s"] >= math.ceil(limits.cpu_s) - 0.05:
            outcome, detail = Outcome.TIMEOUT, f"CPU limit of {limits.cpu_s:g}s exceeded; killed"
        elif sig == signal.SIGXCPU:
            detail = f"CPU limit of {limits.cpu_s:g}s exceeded (SIGXCPU)"
        res = self._result(outcome, start, detail, exit_code=code, signal=sig, **common)
        return res, outcome not in (Outcome.OOM, Outcome.TIMEOUT)

    # -- sessions (warm pool) -----------------------------------------------------------------
    def spawn(self, job: SandboxJob, limits: Limits) -> DockerSession:
        """Start ``job`` as a long-lived worker in a container of its own (see DockerSession)."""
        ok, reason = self.probe()
        if not ok:
            raise RuntimeError(f"docker backend unavailable: {reason}")
        cont = self._acquire(limits)
        cont.drop_agent()  # the session's runner kills it anyway; close our end first
        try:
            exec_id, stream = self._exec(cont, "session")
            stream.send(_frame(self._payload(job, limits)))
        except Exception:
            self._release(cont, False)
            raise
        return DockerSession(self, cont, exec_id, stream)

    def _end_session(self, cont: _Container) -> None:
        """Kill what the session left and empty /tmp; reuse the container if that worked."""
        healthy = False
        try:
            _, stream = self._exec(cont, "cleanup")
            out = bytearray()
            try:
                stream.pump(time.monotonic() + 15, out.extend, lambda _c: False)
            finally:
                stream.close()
            healthy = b'"clean"' in out
        except Exception:
            healthy = False
        self._release(cont, healthy)


class DockerSession:
    """A worker process whose stdin/stdout are one ``docker exec`` stream (base.Session).

    The container is dedicated to the session until :meth:`close`, which kills every process
    the session started and empties /tmp (the container then serves other jobs).
    """

    def __init__(
        self, backend: DockerBackend, cont: _Container, exec_id: str, stream: _ExecStream
    ) -> None:
        self._backend = backend
        self._cont = cont
        self._exec_id = exec_id
        self._stream = stream
        self._out = bytearray()
        self._err: deque[bytes] = deque(maxlen=64)
        self._closed = False
        self._lock = threading.Lock()

    @property
    def container_id(self) -> str:
        return self._cont.id

    def send(self, data: bytes, timeout_s: float = 30.0) -> None:
        if self._stream.eof or self._closed:
            raise SessionError("worker stream is closed")
        try:
            self._stream.send(data, timeout_s)
        except OSError as exc:
            raise SessionError(f"worker stdin closed: {exc}") from exc

    def recv_line(self, timeout_s: float, max_bytes: int) -> bytes:
        deadline = time.monotonic() + timeout_s
        while True:
            nl = self._out.find(b"\n")
            if nl >= 0:
                line = bytes(self._out[:nl])
                del self._out[: nl + 1]
                return line
            if len(self._out) > max_bytes:
                raise OverflowError(f"worker reply longer than {max_bytes} bytes")
            if self._stream.eof:
                raise SessionError("worker closed its stdout (exited)")
            if time.monotonic() >= deadline:
                raise TimeoutError(f"no reply within {timeout_s:g}s")

            def on_out(chunk: bytes) -> bool:
                self._out.extend(chunk)
                return b"\n" in chunk or len(self._out) > max_bytes

            self._stream.pump(deadline, on_out, self._on_err)

    def _on_err(self, chunk: bytes) -> bool:
        self._err.append(chunk)
        return False

    def stderr_tail(self) -> str:
        return b"".join(self._err).decode("utf-8", errors="replace")[-4000:]

    def returncode(self) -> int | None:
        try:
            info = self._backend._client.api.exec_inspect(self._exec_id)
        except Exception:
            return None
        if info.get("Running"):
            return None
        code = info.get("ExitCode")
        if code is None:
            return None
        return -(code - 128) if 128 < code <= 128 + 64 else int(code)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._stream.close()
        self._backend._end_session(self._cont)
