"""A warm pool of sandboxed program runners: each untrusted program -- a model's answer to a
code task -- runs in a fresh sandbox that was started ahead of time, and that sandbox runs
nothing else.

    with ProgramPool(size=2, backend="auto") as pool:
        runs = pool.call(lambda runner: [runner.load(program), runner.test(stdin="1 2\\n")][1:])

:meth:`ProgramPool.call` hands a task a :class:`Runner`: one sandboxed session (the backend's
``spawn``: process, bwrap or docker, the same isolation as any job) running
:mod:`synth.sandbox.program_runner`, which runs the program once per test in a process forked
from its warm interpreter, under the test's time and memory limits, and kills everything the run
started before it answers. The task loads one program (:meth:`Runner.load`) and sends it tests
one at a time (:meth:`Runner.test`); the host compares the outputs, never the sandbox (no
expected output enters it). When the task ends, the session is discarded -- killed with every
process it holds, its work dir removed -- and the slot starts the next one at once, so that the
next program finds a runner ready: a runner that one program touched never runs another.

Each of ``size`` slots is a thread that owns its session for its whole life (bwrap's
``--die-with-parent`` ties a sandbox to the thread that started it). A runner whose session
ends in the middle of a test (the program killed it, or it broke the protocol) fails that test
(``status == "lost"``) and is replaced by a fresh one for the program's next test, at most
:data:`RESPAWNS` times per program; after that every further test is lost without a run.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import math
import queue
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from synth.sandbox.base import (
    Backend,
    Limits,
    SandboxJob,
    Session,
    SessionError,
    SpawningBackend,
)
from synth.sandbox.methods import spawning_backend

__all__ = ["RESPAWNS", "Program", "ProgramPool", "ProgramRun", "ProgramSandboxError", "Runner",
           "wall_limit"]

_HERE = Path(__file__).resolve().parent
#: the runner's source and the one contract module it imports (shipped into every runner job)
RUNNER_FILES = {
    "program_runner.py": (_HERE / "program_runner.py").read_text(encoding="utf-8"),
    "synth/__init__.py": "",
    "synth/values.py": (_HERE.parent / "values.py").read_text(encoding="utf-8"),
}
PROTOCOL = "synth-program-runner/1"
#: fresh runners a program may use up (its runner died under a test) before its tests are lost
RESPAWNS = 3
#: memory the runner itself needs on top of a run's ``memory_mb`` in the session's cap
RUNNER_MB = 64
#: host-side slack on top of a test's time limit: the runner's kill and drain, pipe latency
GRACE_S = 6.0
STATUSES = frozenset({"exited", "timeout", "overflow"})

T = TypeVar("T")


class ProgramSandboxError(RuntimeError):
    """No runner could be started (the sandbox, not the program)."""


def wall_limit(time_limit_s: float) -> float:
    """The wall time after which one run of an untrusted program is killed, for a run whose
    verdict is its CPU time against ``time_limit_s``: ``3 x limit + 2`` s. The code reward and
    ``synth suite-eval`` both use it, so a program's measured verdict is its reward's. Wall time
    only ends runs that wait or that a loaded machine slows: at ``2 x limit + 1`` a correct
    program at half the limit's CPU time was killed when the machine ran five times slower
    (load 10 on 2 cores; three correct held-out programs)."""
    return 3.0 * time_limit_s + 2.0


@dataclass(frozen=True, slots=True)
class Program:
    """One untrusted program and the limits of each of its runs: ``time_limit_s`` of CPU time
    (judged by the caller from :attr:`ProgramRun.cpu_s`; ``RLIMIT_CPU`` kills a run a second
    or two past it), killed after ``wall_limit_s`` of wall time (default :func:`wall_limit`),
    ``memory_mb`` of address space."""

    kind: str  # "stdin" | "function"
    source: str
    time_limit_s: float
    memory_mb: int = 256
    entry_point: str | None = None
    wall_limit_s: float | None = None

    @property
    def wall_s(self) -> float:
        return self.wall_limit_s if self.wall_limit_s is not None else wall_limit(self.time_limit_s)


@dataclass(slots=True)
class ProgramRun:
    """One run of the program on one test, as the runner reported it (validated here).

    ``status``: ``exited`` (``code`` is its exit status, negative for a signal), ``timeout``
    (killed at the wall-time limit),
    ``overflow`` (its output passed the cap) or ``lost`` (the runner's session ended or broke
    the protocol during the test; ``detail`` says how). ``result``: a function task's return
    value as the JSON of :func:`synth.values.encode`, when it returned one."""

    status: str
    code: int | None = None
    stdout: str = ""
    stderr: str = ""
    result: str | None = None
    elapsed_s: float = 0.0
    cpu_s: float = 0.0
    detail: str = ""
    left: int = 0  # processes the runner killed after the run (besides its main process)

    @property
    def ok(self) -> bool:
        """The run ended by itself with exit status 0."""
        return self.status == "exited" and self.code == 0


def _reply(line: bytes) -> dict[str, Any] | None:
    try:
        data = json.loads(line)
    except ValueError:
        return None
    return data if type(data) is dict else None


def _test_run(data: dict[str, Any] | None, function: bool) -> ProgramRun | None:
    """A runner's reply to a test, validated (None: not the protocol)."""
    if data is None:
        return None
    status, code = data.get("status"), data.get("code")
    stdout, stderr, result = data.get("stdout"), data.get("stderr"), data.get("result")
    elapsed: Any = data.get("elapsed_s")
    cpu: Any = data.get("cpu_s")
    left, clean = data.get("left"), data.get("clean")
    if (status not in STATUSES or (code is not None and type(code) is not int)
            or type(stdout) is not str or type(stderr) is not str
            or (result is not None and type(result) is not str)
            or type(elapsed) not in (int, float) or not math.isfinite(elapsed)
            or type(cpu) not in (int, float) or not math.isfinite(cpu)
            or type(left) is not int or type(clean) is not bool):
        return None
    if status == "exited" and code is None:
        return None
    run = ProgramRun(status, code, stdout, stderr, result if function else None, float(elapsed),
                     float(cpu), left=left)
    if not clean:
        run.detail = "processes of the run outlived the runner's kill"
    return run


class Runner:
    """The sandboxed runner of ONE program, handed to a task by :meth:`ProgramPool.call`; used
    in that task's thread only, and discarded when the task ends."""

    def __init__(self, pool: ProgramPool, session: Session | None) -> None:
        self._pool = pool
        self._session = session
        self._program: Program | None = None
        self._respawns = 0
        self._lost = False
        self._loaded: Session | None = None  # the session that holds the program
        self.runs = 0  # tests run

    def load(self, program: Program) -> None:
        """The program every later :meth:`test` runs (once per runner)."""
        if self._program is not None:
            raise RuntimeError("a runner runs one program")
        if program.kind not in ("stdin", "function"):
            raise ValueError(f"unknown program kind {program.kind!r}")
        self._program = program
        if self._session is not None and program.memory_mb + RUNNER_MB > self._pool.memory_mb:
            self._session.close()  # pre-started under a smaller cap than this program needs
            self._session = None

    def test(self, *, stdin: str | None = None, args: Any = None,
             max_output: int = 1_000_000) -> ProgramRun:
        """One run of the loaded program: on ``stdin`` (stdin kind) or calling the entry point
        on ``args`` (function kind, JSON as :func:`synth.values.encode` writes a list)."""
        program = self._program
        if program is None:
            raise RuntimeError("load a program first")
        function = program.kind == "function"
        request = {"op": "test", "max_output": int(max_output)}
        if function:
            request["args"] = args
        else:
            request["stdin"] = stdin if stdin is not None else ""
        line = (json.dumps(request, ensure_ascii=True) + "\n").encode("ascii")
        if self._lost:
            return ProgramRun("lost", detail="the program used up its runners "
                           f"({RESPAWNS + 1} sessions ended under it); not run")
        session = self._ready()
        self.runs += 1
        t0 = time.monotonic()
        limit = program.wall_s + GRACE_S + len(line) / 20e6
        try:
            session.send(line, timeout_s=limit)
            data = _reply(session.recv_line(max(0.1, t0 + limit - time.monotonic()),
                                            _reply_cap(max_output)))
        except (SessionError, TimeoutError, OverflowError) as exc:
            return self._broken(f"the runner's session ended during the test: {exc}", t0)
        run = _test_run(data, function)
        if run is None:
            return self._broken("the runner's reply was not the protocol", t0)
        if run.detail:  # something outlived the kill: do not run another test beside it
            self._replace()
        return run

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None

    # -- internals --------------------------------------------------------------------------
    def _ready(self) -> Session:
        """The session, started (and the program loaded) when there is none."""
        program = self._program
        assert program is not None
        if self._session is None:
            self._session = self._pool.spawn(program.memory_mb + RUNNER_MB)
        if self._loaded is not self._session:
            request = {"op": "program", "kind": program.kind, "source": program.source,
                       "entry_point": program.entry_point, "memory_mb": program.memory_mb,
                       "time_limit_s": program.time_limit_s, "wall_limit_s": program.wall_s}
            line = (json.dumps(request, ensure_ascii=True) + "\n").encode("ascii")
            try:
                self._session.send(line, timeout_s=30)
                ok = _reply(self._session.recv_line(30, 4096)) == {"loaded": True}
            except (SessionError, TimeoutError, OverflowError) as exc:
                self.close()
                raise ProgramSandboxError(f"the runner did not take the program: {exc}") from exc
            if not ok:
                self.close()
                raise ProgramSandboxError("the runner did not acknowledge the program")
            self._loaded = self._session
        return self._session

    def _replace(self) -> None:
        self.close()
        self._respawns += 1
        if self._respawns > RESPAWNS:
            self._lost = True

    def _broken(self, why: str, t0: float) -> ProgramRun:
        self._replace()
        return ProgramRun("lost", detail=why[:500], elapsed_s=time.monotonic() - t0)


def _reply_cap(max_output: int) -> int:
    """Longest reply line for a test whose output cap is ``max_output``: the output escaped
    (at most 12 bytes a byte: ``\\uXXXX`` pairs), the result (at most the cap, escaped: 2
    bytes a byte), the stderr tail escaped, and the rest of the line."""
    return 14 * (max_output + 1) + 12 * 4000 + 4096


_live: weakref.WeakSet[ProgramPool] = weakref.WeakSet()


@atexit.register
def _close_live() -> None:
    for pool in list(_live):
        pool.close()


class ProgramPool:
    """``size`` slots, each holding one pre-started sandboxed runner (see the module docstring).

    ``backend``: a name for :func:`synth.sandbox.get_backend` or a backend with ``spawn``.
    ``memory_mb``: the memory cap of a whole runner session (the runner and every process of
    the program's runs together); a program whose ``memory_mb`` needs more gets a session of
    its own size, started when it is loaded. ``pids``: processes and threads per session.
    ``label``: an inert extra argv word of the runner (tests find its processes by it)."""

    def __init__(self, size: int = 2, backend: str | Backend = "auto", *, memory_mb: int = 1024,
                 pids: int = 32, label: str = "synth-code-runner",
                 start_timeout_s: float = 30.0) -> None:
        if size < 1:
            raise ValueError("size must be >= 1")
        self.backend: SpawningBackend = spawning_backend(backend)
        self.memory_mb = memory_mb
        self.pids = pids
        self.label = label
        self.start_timeout_s = start_timeout_s
        self.spawned = 0
        self._tasks: queue.Queue[tuple[Future[Any], Callable[[Runner], Any]] | None] = queue.Queue()
        self._closed = False
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._serve, name=f"synth-runner-{i}",
                                          daemon=True) for i in range(size)]
        _live.add(self)
        for thread in self._threads:
            thread.start()

    def submit(self, task: Callable[[Runner], T]) -> Future[T]:
        """Run ``task(runner)`` in a slot with a fresh runner; the runner is discarded after."""
        if self._closed:
            raise RuntimeError("the program pool is closed")
        future: Future[T] = Future()
        self._tasks.put((future, task))
        return future

    def call(self, task: Callable[[Runner], T]) -> T:
        return self.submit(task).result()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for _ in self._threads:
            self._tasks.put(None)
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=30)
        _live.discard(self)

    def __enter__(self) -> ProgramPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def spawn(self, memory_mb: int | None = None) -> Session:
        """A started runner session that said hello (ProgramSandboxError if none can start)."""
        limits = Limits(wall_s=3600, cpu_s=3600, memory_mb=max(self.memory_mb, memory_mb or 0),
                        pids=self.pids, file_size_mb=16, open_files=128,
                        max_output_bytes=1_000_000)
        job = SandboxJob(files=RUNNER_FILES, argv=["program_runner.py", self.label])
        try:
            session = self.backend.spawn(job, limits)
        except Exception as exc:
            raise ProgramSandboxError(f"could not start a program runner on the "
                                      f"{self.backend.name} backend: {exc}") from exc
        self.spawned += 1
        try:
            hello = _reply(session.recv_line(self.start_timeout_s, 4096))
        except (SessionError, TimeoutError, OverflowError) as exc:
            tail = session.stderr_tail()[-500:]
            session.close()
            raise ProgramSandboxError(f"the program runner did not start: {exc} {tail}") from exc
        if hello is None or hello.get("hello") != PROTOCOL or hello.get("dumpable") is not False \
                or hello.get("subreaper") is not True:
            session.close()
            raise ProgramSandboxError(f"the program runner cannot protect itself here: {hello}")
        return session

    def _serve(self) -> None:
        session = self._prestart()
        try:
            while True:
                item = self._tasks.get()
                if item is None:
                    return
                future, task = item
                if not future.set_running_or_notify_cancel():
                    continue
                runner = Runner(self, session)
                session = None
                try:
                    future.set_result(task(runner))
                except BaseException as exc:  # handed to the caller
                    future.set_exception(exc)
                finally:
                    runner.close()
                if not self._closed:
                    session = self._prestart()
        finally:
            if session is not None:
                session.close()

    def _prestart(self) -> Session | None:
        """The slot's next session, started now; None when it cannot start (the task that
        gets this slot tries again, and reports the failure)."""
        with contextlib.suppress(ProgramSandboxError):
            return self.spawn()
        return None
