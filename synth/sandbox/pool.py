"""A warm pool of sandboxed workers for high-rate ``verify_score`` calls.

The self-consistency filter and the RL reward score many responses against one bootcamp.
Starting a sandbox per call costs tens of milliseconds; a :class:`WorkerPool` starts ``size``
long-lived workers instead, each a sandboxed process (same backend, same isolation as a
one-shot run) that imports the bootcamp module once and then answers JSON-line requests::

    with WorkerPool(code, size=2, backend="process") as pool:
        results = pool.verify_many([(response, identity), ...])
        score = results[0].score          # when results[0].outcome is Outcome.PASSED

Each call returns a :class:`VerifyResult` with a typed outcome: ``PASSED`` (``score`` holds
the float), ``ERROR`` (``verify_score`` raised, or the module did not load: ``error`` and a
``traceback`` tail say what), ``TIMEOUT`` (the call took longer than ``call_timeout_s``: the
worker is killed and respawned, the other calls go on), ``OOM`` (``MemoryError`` or killed at
the memory limit; the worker is respawned), ``OUTPUT_OVERFLOW`` (reply larger than
``max_output_bytes``), ``SANDBOX_ERROR`` (a worker could not be started: not the bootcamp's
fault).

Backends: anything implementing :class:`~synth.sandbox.base.SpawningBackend` (``spawn``):
the process and bwrap backends here, and docker when its backend provides ``spawn`` (exec in
a warm container). Each worker slot is served by one thread that lives as long as the pool and
owns its session (bwrap's ``--die-with-parent`` ties a sandbox to the thread that started it).

Inside the worker the bootcamp's own ``print`` output goes to stderr; the protocol uses a
private duplicate of the original stdout.
"""

from __future__ import annotations

import atexit
import contextlib
import inspect
import itertools
import json
import queue
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

import synth.bootcamp
from synth.sandbox.base import (
    Backend,
    Limits,
    Outcome,
    SandboxJob,
    SandboxUnavailableError,
    Session,
    SessionError,
    SpawningBackend,
    classify_exit,
)

__all__ = ["WORKER_SOURCE", "VerifyResult", "WorkerPool", "pool_limits"]

#: The in-sandbox worker (standard library only).
#: argv: _synth_worker.py MODULE_FILE CLASS_NAME_OR_EMPTY [LABEL] (the label is inert: it only
#: makes the worker findable by its command line).
WORKER_SOURCE = r"""
import importlib.util, json, os, sys, time, traceback

def _tail(exc):
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return text[-3000:]

def main():
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1 << 16)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def send(obj):
        proto.write(json.dumps(obj) + "\n")
        proto.flush()

    def send_error(rid, kind, exc):
        error = type(exc).__name__ + ": " + str(exc)[:500]
        proto.write("E " + json.dumps({"id": rid, "kind": kind, "error": error,
                                       "traceback": _tail(exc)}) + "\n")

    try:
        from synth.bootcamp import BaseBootcamp
        spec = importlib.util.spec_from_file_location("candidate", sys.argv[1])
        module = importlib.util.module_from_spec(spec)
        sys.modules["candidate"] = module
        spec.loader.exec_module(module)
        wanted = sys.argv[2]
        found = [
            obj for name, obj in vars(module).items()
            if isinstance(obj, type) and issubclass(obj, BaseBootcamp)
            and obj is not BaseBootcamp and obj.__module__ == "candidate"
            and (not wanted or name == wanted)
        ]
        leaves = [c for c in found if not any(o is not c and issubclass(o, c) for o in found)]
        if len(leaves) != 1:
            names = ", ".join(c.__name__ for c in leaves) or "none"
            raise LookupError("expected exactly one bootcamp class, found: " + names)
        cls = leaves[0]
    except BaseException as exc:
        send({"ready": False, "error": type(exc).__name__ + ": " + str(exc)[:500],
              "traceback": _tail(exc)})
        return
    send({"ready": True, "class": cls.__name__})
    stdin = sys.stdin.buffer
    flushed = time.monotonic()
    while True:
        header = stdin.readline()  # "B <n>": a chunk of n requests follows
        if not header:
            return
        count = int(header.split()[1])
        for i in range(count):
            rid, response, identity, format_score = json.loads(stdin.readline())
            try:
                score = cls.verify_score(response, identity, format_score)
                if isinstance(score, bool) or not isinstance(score, (int, float)):
                    raise TypeError("verify_score returned " + type(score).__name__)
                proto.write("S %d %r\n" % (rid, float(score)))
            except MemoryError as exc:
                send_error(rid, "oom", exc)
            except BaseException as exc:
                send_error(rid, "error", exc)
            # Replies go out at the end of a chunk and at least every 20 ms in between.
            now = time.monotonic()
            if i == count - 1 or now - flushed >= 0.02:
                proto.flush()
                flushed = now

main()
"""


def pool_limits(memory_mb: int = 1024, pids: int = 16, max_output_bytes: int = 1_000_000) -> Limits:
    """Limits for a long-lived worker: wall/CPU bound the worker's life, not a call."""
    return Limits(
        wall_s=3600,
        cpu_s=3600,
        memory_mb=memory_mb,
        file_size_mb=4,
        open_files=64,
        pids=pids,
        max_output_bytes=max_output_bytes,
    )


@dataclass(slots=True)
class VerifyResult:
    """The outcome of one ``verify_score(response, identity)`` call in a worker.

    A slotted dataclass rather than a pydantic model: the pool builds one per call on its
    host-side hot path, and every field is set by the pool itself, never parsed from outside."""

    outcome: Outcome
    score: float | None = None
    error: str = ""
    traceback: str = ""
    elapsed_s: float = 0.0


class _Batch:
    def __init__(self, n: int) -> None:
        self.results: list[VerifyResult | None] = [None] * n
        self.left = n
        self.done = threading.Event()
        self.lock = threading.Lock()
        if n == 0:
            self.done.set()

    def put(self, index: int, result: VerifyResult) -> None:
        with self.lock:
            self.results[index] = result
            self.left -= 1
            if self.left == 0:
                self.done.set()


_Task = tuple[_Batch, int, int, bytes]  # batch, index in it, request id, request line
_CHUNK_ITEMS = 256
_CHUNK_BYTES = 48 * 1024


_live_pools: weakref.WeakSet[WorkerPool] = weakref.WeakSet()


@atexit.register
def _close_live_pools() -> None:
    """Close pools their owner forgot: the slot threads are daemons, and without this their
    sessions (worker processes, work dirs) would not be cleaned up at interpreter exit."""
    for pool in list(_live_pools):
        pool.close()


class WorkerPool:
    """``size`` warm sandboxed workers serving ``verify_score`` for one bootcamp module.

    ``code``: the module source (one BaseBootcamp subclass; ``class_name`` picks one if there
    are several). ``backend``: a name for :func:`synth.sandbox.get_backend` or a backend
    instance with ``spawn``. ``limits``: per worker (default :func:`pool_limits`; its
    ``wall_s``/``cpu_s`` bound the worker's life, ``call_timeout_s`` bounds each call).
    ``recycle_after``: calls before a worker is replaced by a fresh one. ``label``: an inert
    extra argv word, so that tests can find the workers by command line. Requests are sent in
    chunks (at most 64 requests / 48 KB at a time, so writing never blocks on a busy worker)
    and answered one line each, in order, flushed at the end of the chunk and at least every
    20 ms; a worker that times out, dies or runs out of memory is replaced, and the requests it
    did not answer are retried (one per chunk after a timeout or death, to pin the culprit).
    """

    def __init__(
        self,
        code: str,
        size: int = 2,
        backend: str | Backend = "auto",
        limits: Limits | None = None,
        call_timeout_s: float = 5.0,
        class_name: str | None = None,
        recycle_after: int = 5000,
        start_timeout_s: float = 30.0,
        label: str = "",
    ) -> None:
        if size < 1:
            raise ValueError("size must be >= 1")
        if isinstance(backend, str):
            from synth.sandbox import get_backend

            backend = get_backend(backend)
        if not isinstance(backend, SpawningBackend):
            raise SandboxUnavailableError(
                f"the {backend.name} backend cannot start long-lived workers (no spawn())"
            )
        self.backend: SpawningBackend = backend
        self.limits = limits or pool_limits()
        self.call_timeout_s = call_timeout_s
        self.recycle_after = recycle_after
        self.start_timeout_s = start_timeout_s
        argv = ["_synth_worker.py", "candidate.py", class_name or ""] + ([label] if label else [])
        self.job = SandboxJob(
            files={
                "_synth_worker.py": WORKER_SOURCE,
                "candidate.py": code,
                "synth/__init__.py": "",
                "synth/bootcamp.py": Path(synth.bootcamp.__file__).read_text(encoding="utf-8"),
            },
            argv=argv,
        )
        self.class_name: str | None = None
        self.load_error: VerifyResult | None = None
        self.spawned = 0  # workers started so far (respawns included)
        self._tasks: queue.Queue[list[_Task] | None] = queue.Queue()
        self._ready = threading.Barrier(size + 1)
        self._closed = False
        self._ids = itertools.count(1)  # request ids (next() on a count is atomic)
        self._threads = [
            threading.Thread(target=self._serve, name=f"synth-pool-{i}", daemon=True)
            for i in range(size)
        ]
        _live_pools.add(self)
        for thread in self._threads:
            thread.start()
        with contextlib.suppress(threading.BrokenBarrierError):
            self._ready.wait(timeout=start_timeout_s + 5)

    # -- public API -----------------------------------------------------------------------
    def verify(self, response: str, identity: Any, format_score: float = 0.0) -> VerifyResult:
        return self.verify_many([(response, identity)], format_score)[0]

    def verify_many(
        self, items: list[tuple[str, Any]], format_score: float = 0.0
    ) -> list[VerifyResult]:
        """Score every (response, identity) pair; results in the order of ``items``."""
        if self._closed:
            raise RuntimeError("the worker pool is closed")
        batch = _Batch(len(items))
        # Chunks small enough to spread over the workers, large enough to amortise a wake-up,
        # and at most _CHUNK_BYTES (unless one request is larger) so that writing a chunk into
        # the worker's stdin pipe cannot block.
        per_chunk = max(1, min(_CHUNK_ITEMS, len(items) // (4 * len(self._threads))))
        chunk: list[_Task] = []
        size = 0
        for index, (response, identity) in enumerate(items):
            req_id = next(self._ids)
            try:
                line = _encode([req_id, response, identity, format_score])
            except (TypeError, ValueError) as exc:
                batch.put(index, VerifyResult(outcome=Outcome.ERROR, error=f"not JSON: {exc}"))
                continue
            if chunk and (len(chunk) >= per_chunk or size + len(line) > _CHUNK_BYTES):
                self._tasks.put(chunk)
                chunk, size = [], 0
            chunk.append((batch, index, req_id, line))
            size += len(line)
        if chunk:
            self._tasks.put(chunk)
        batch.done.wait()
        return [r for r in batch.results if r is not None]

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for _ in self._threads:
            self._tasks.put(None)
        for thread in self._threads:
            thread.join(timeout=30)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the slot threads -----------------------------------------------------------------
    def _start(self) -> tuple[Session | None, VerifyResult | None]:
        """Start a worker and wait for its handshake: (session, None) or (None, failure)."""
        t0 = time.monotonic()
        try:
            session = self.backend.spawn(self.job, self.limits)
        except Exception as exc:
            return None, VerifyResult(
                outcome=Outcome.SANDBOX_ERROR,
                error=f"could not start a worker: {type(exc).__name__}: {exc}",
            )
        self.spawned += 1
        try:
            line = session.recv_line(self.start_timeout_s, self.limits.max_output_bytes)
            hello = json.loads(line)
        except TimeoutError:
            session.close()
            return None, VerifyResult(
                outcome=Outcome.TIMEOUT,
                error=f"the bootcamp module did not load within {self.start_timeout_s:g}s",
                elapsed_s=time.monotonic() - t0,
            )
        except (SessionError, OverflowError, ValueError) as exc:
            tail = session.stderr_tail()
            code = session.returncode()
            session.close()
            outcome = Outcome.SANDBOX_ERROR
            if code is not None:
                outcome = classify_exit(code, tail)[0]
                outcome = Outcome.ERROR if outcome is Outcome.PASSED else outcome
            return None, VerifyResult(
                outcome=outcome,
                error=f"the worker died while loading the bootcamp: {exc}",
                traceback=tail[-3000:],
                elapsed_s=time.monotonic() - t0,
            )
        if not hello.get("ready"):
            session.close()
            return None, VerifyResult(
                outcome=Outcome.ERROR,
                error=f"the bootcamp module did not load: {hello.get('error', '?')}",
                traceback=str(hello.get("traceback", "")),
                elapsed_s=time.monotonic() - t0,
            )
        self.class_name = str(hello.get("class"))
        return session, None

    def _serve(self) -> None:
        session, failure = self._start()
        if failure is not None and failure.outcome is not Outcome.SANDBOX_ERROR:
            self.load_error = failure
        with contextlib.suppress(threading.BrokenBarrierError):
            self._ready.wait(timeout=self.start_timeout_s + 5)
        calls = 0
        try:
            while True:
                chunk = self._tasks.get()
                if chunk is None:
                    return
                if session is None or calls >= self.recycle_after:
                    if session is not None:
                        session.close()
                    calls = 0
                    if self.load_error is not None:
                        for batch, index, *_ in chunk:
                            batch.put(index, self.load_error)
                        session = None
                        continue
                    session, failure = self._start()
                    if session is None:
                        assert failure is not None
                        for batch, index, *_ in chunk:
                            batch.put(index, failure)
                        continue
                calls += len(chunk)
                if not self._run_chunk(session, chunk):
                    session.close()
                    session = None
        finally:
            if session is not None:
                session.close()

    def _run_chunk(self, session: Session, chunk: list[_Task]) -> bool:
        """Send the chunk's requests at once, then collect one reply per request, each within
        ``call_timeout_s`` of the previous one. Returns False when the worker must be
        replaced. When the worker times out or dies during a chunk of several requests, the
        unanswered ones are retried one per chunk, so that the failure is pinned on the request
        that causes it (a hanging call is thus reported after at most two timeouts)."""
        pending = {task[2]: task for task in chunk}
        t0 = time.monotonic()
        failure: VerifyResult | None = None
        data = b"B %d\n" % len(chunk) + b"".join(task[3] for task in chunk)
        try:
            _send(session, data, self.call_timeout_s)
        except TimeoutError:
            failure = self._timeout(t0)
        except SessionError as exc:
            failure = self._died(session, exc, t0)
        healthy = failure is None
        while healthy and pending:
            try:
                line = session.recv_line(
                    max(0.0, t0 + self.call_timeout_s - time.monotonic()),
                    self.limits.max_output_bytes,
                )
            except TimeoutError:
                failure = self._timeout(t0)
            except OverflowError as exc:
                failure = VerifyResult(
                    outcome=Outcome.OUTPUT_OVERFLOW, error=str(exc), elapsed_s=time.monotonic() - t0
                )
            except SessionError as exc:
                failure = self._died(session, exc, t0)
            if failure is not None:
                healthy = False
                break
            parsed = _parse_reply(line)
            if parsed is None or parsed[0] not in pending:
                continue  # a stale or forged line: ignore it
            req_id, result = parsed
            result.elapsed_s = time.monotonic() - t0
            t0 = time.monotonic()
            healthy = result.outcome is not Outcome.OOM
            self._finish(pending.pop(req_id), result)
        if failure is not None and len(chunk) == 1 and pending:
            self._finish(pending.popitem()[1], failure)  # alone, it is surely the culprit
        elif failure is not None:
            # The worker buffers replies for up to 20 ms, so the first unanswered request is
            # not necessarily the one it failed on: retry each unanswered request on its own.
            for task in pending.values():
                self._tasks.put([task])
            pending.clear()
        if pending:  # an OOM reply: the requests after it go to another (or a fresh) worker
            self._tasks.put(list(pending.values()))
        return healthy

    def _timeout(self, t0: float) -> VerifyResult:
        return VerifyResult(
            outcome=Outcome.TIMEOUT,
            error=f"verify_score took longer than {self.call_timeout_s:g}s; worker killed",
            elapsed_s=time.monotonic() - t0,
        )

    @staticmethod
    def _finish(task: _Task, result: VerifyResult) -> None:
        task[0].put(task[1], result)

    def _died(self, session: Session, exc: Exception, t0: float) -> VerifyResult:
        """The worker vanished mid-call: say why, as far as its exit status tells."""
        code = None
        for _ in range(50):
            code = session.returncode()
            if code is not None:
                break
            time.sleep(0.01)
        tail = session.stderr_tail()
        outcome, detail = Outcome.ERROR, f"the worker died during verify_score ({exc})"
        if code is not None:
            kind, _, _, why = classify_exit(code, tail)
            if kind in (Outcome.OOM, Outcome.TIMEOUT):
                outcome = kind
            detail = f"the worker died during verify_score: {why or 'exit status 0'}"
        return VerifyResult(
            outcome=outcome, error=detail, traceback=tail[-3000:], elapsed_s=time.monotonic() - t0
        )


def _encode(request: list[Any]) -> bytes:
    """One request line. orjson is ~3x faster than json here (the pool's host-side hot path);
    what it refuses (non-str keys, ints beyond 64 bits, NaN) falls back to the json module."""
    try:
        return orjson.dumps(request) + b"\n"
    except TypeError:
        return json.dumps(request).encode() + b"\n"


def _parse_reply(line: bytes) -> tuple[int, VerifyResult] | None:
    """``S <id> <score>`` or ``E <json>`` -> (id, result); None for anything else."""
    try:
        if line.startswith(b"S "):
            _, rid, score = line.split(b" ", 2)
            return int(rid), VerifyResult(Outcome.PASSED, float(score))
        if line.startswith(b"E "):
            reply = json.loads(line[2:])
            oom = reply.get("kind") == "oom"
            return int(reply["id"]), VerifyResult(
                outcome=Outcome.OOM if oom else Outcome.ERROR,
                error=str(reply.get("error", "")),
                traceback=str(reply.get("traceback", "")),
            )
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return None


_send_takes_timeout: dict[type, bool] = {}


def _send(session: Session, data: bytes, timeout_s: float) -> None:
    """``session.send`` with a timeout when the session supports one."""
    kind = type(session)
    if kind not in _send_takes_timeout:
        _send_takes_timeout[kind] = "timeout_s" in inspect.signature(session.send).parameters
    if _send_takes_timeout[kind]:
        session.send(data, timeout_s=timeout_s)
    else:
        session.send(data)
