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

Each worker is the kit's method server (:mod:`synth.sandbox.kit`) serving one bootcamp (one
code hash: ``SandboxJob.unit``); the bootcamp's own ``print`` output goes to stderr. A worker only
answers: every reply is validated here. A score that is not a finite float in [0, 1] is an
``ERROR`` with ``kind == "invalid_score"`` (and the value); a worker that reports a run-time
change of the contract (``BaseBootcamp`` or the class patched after load) is an ``ERROR`` with
``kind == "contract_tampered"``. A line that is not the protocol (not JSON, answering no pending
request, or without the session's token: written by the bootcamp, not by the kit) is a
``protocol`` error, and the worker is replaced.
"""

from __future__ import annotations

import atexit
import contextlib
import inspect
import itertools
import queue
import re
import secrets
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Any

from synth.sandbox.base import (
    Backend,
    Limits,
    Outcome,
    Session,
    SessionError,
    SpawningBackend,
)
from synth.sandbox.methods import (
    MethodServer,
    decode_reply,
    encode_request,
    server_limits,
    session_death,
    spawning_backend,
)

__all__ = ["WORKER_LIFE", "VerifyResult", "WorkerPool", "engine_scaled_life", "pool_limits",
           "scoring_life", "validate_score", "worker_life"]

#: The calls a production worker serves before it is replaced, drawn anew for each worker:
#: random, and small enough that "honest for the first N calls" cannot outlast the gate, whose
#: consistency worker is sent more calls than the top of this range (synth.gate.answers). Not
#: smaller: a new worker costs ~80 ms of CPU (an import), ~0.1-0.4 ms per call over a life.
WORKER_LIFE = (200, 800)


def scoring_life(code: str) -> tuple[int, int]:
    """The range of a scoring worker's life in calls for the module ``code``:
    :data:`WORKER_LIFE`, shortened by the time factor of an engine it declares
    (:func:`synth.engines.time_factor`), as an episode environment's life is
    (:func:`synth.serving.rollout.episode_life`). A GNU Go score takes tens of milliseconds, so
    its workers serve 10-40 calls: a fresh worker (an import and an engine start) costs a few
    per cent of a life, and the gate's consistency check, which must outlast the top of the
    range, stays short."""
    return engine_scaled_life(WORKER_LIFE, code)


def engine_scaled_life(life: tuple[int, int], code: str) -> tuple[int, int]:
    """``life`` (a range of calls) divided by the time factor of the engine ``code`` declares
    (:func:`synth.engines.time_factor`; unchanged without one), at least 8 to 16 calls."""
    from synth.engines import time_factor

    factor = time_factor(code)
    low, high = life
    return max(8, int(low / factor)), max(16, int(high / factor))


def worker_life(recycle_after: int | tuple[int, int]) -> int:
    """One worker's life in calls: the number itself, or a random draw from the range."""
    if isinstance(recycle_after, tuple):
        low, high = recycle_after
        return low + secrets.randbelow(high - low + 1)
    return recycle_after


#: Limits for a long-lived worker: wall/CPU bound the worker's life, not a call (the same as
#: any long-lived method server's).
pool_limits = server_limits


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
    kind: str = ""


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
#: The kit's hot-path score reply, after the session's token (``{"t":"TOKEN",``).
_FAST_SCORE = re.compile(rb'"id":(\d{1,18}),"ok":\{"score":(-?[0-9]+\.[0-9]+(?:e[+-]?[0-9]+)?)\}\}')


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
    ``recycle_after``: calls before a worker is replaced by a fresh one: a number, or a range
    ``(low, high)`` from which each new worker draws its life at random (the default,
    :func:`scoring_life`: :data:`WORKER_LIFE`, shorter for an engine-backed module; a bootcamp
    cannot count its way past the gate, whose scoring worker serves more calls than any
    production worker lives; issue 22). ``label``: an inert
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
        recycle_after: int | tuple[int, int] | None = None,
        start_timeout_s: float = 30.0,
        label: str = "",
    ) -> None:
        if size < 1:
            raise ValueError("size must be >= 1")
        self.backend: SpawningBackend = spawning_backend(backend)
        self.limits = limits or pool_limits()
        self.call_timeout_s = call_timeout_s
        self.recycle_after = scoring_life(code) if recycle_after is None else recycle_after
        self.start_timeout_s = start_timeout_s
        self.code = code
        self.wanted_class = class_name or ""
        self.label = label
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
                line = encode_request(req_id, "score", {
                    "response": response, "case": identity, "format_score": format_score,
                    "limit": self.call_timeout_s})
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
    def _start(self) -> tuple[Session | None, bytes, VerifyResult | None]:
        """Start a worker and wait for its handshake (:meth:`MethodServer.start`, which
        validates it): (session, the prefix of its reply lines, None) or (None, b"", failure)."""
        server = MethodServer(self.code, backend=self.backend, limits=self.limits,
                              class_name=self.wanted_class, label=self.label,
                              start_timeout_s=self.start_timeout_s,
                              max_reply_bytes=self.limits.max_output_bytes)
        hello = server.start()
        self.spawned += server.started
        info = hello.value if hello.ok else None
        if hello.outcome is Outcome.SANDBOX_ERROR:
            return None, b"", VerifyResult(outcome=Outcome.SANDBOX_ERROR,
                                           error=f"could not start a worker: {hello.error}")
        if type(info) is not dict or type(info.get("class")) is not str:
            server.close()
            outcome = hello.outcome if hello.outcome in (Outcome.TIMEOUT, Outcome.OOM) \
                else Outcome.ERROR
            return None, b"", VerifyResult(
                outcome=outcome, kind=hello.kind,
                error=f"the bootcamp module did not load: {hello.error or 'a malformed handshake'}",
                traceback=hello.traceback, elapsed_s=hello.elapsed_s,
            )
        if info.get("tampered"):
            server.close()
            return None, b"", VerifyResult(
                outcome=Outcome.ERROR,
                kind="contract_tampered",
                error="the module changed the contract at import: "
                + "; ".join(str(x) for x in info["tampered"])[:500],
                elapsed_s=hello.elapsed_s,
            )
        self.class_name = info["class"][:200]
        assert server.session is not None
        return server.session, server.prefix, None

    def _serve(self) -> None:
        session, prefix, failure = self._start()
        if failure is not None and failure.outcome is not Outcome.SANDBOX_ERROR:
            self.load_error = failure
        with contextlib.suppress(threading.BrokenBarrierError):
            self._ready.wait(timeout=self.start_timeout_s + 5)
        calls, life = 0, worker_life(self.recycle_after)
        try:
            while True:
                todo = self._tasks.get()
                if todo is None:
                    return
                while todo:  # a chunk longer than the worker's life left is split
                    if session is None or calls >= life:
                        if session is not None:
                            session.close()
                        calls, life = 0, worker_life(self.recycle_after)
                        if self.load_error is not None:
                            for batch, index, *_ in todo:
                                batch.put(index, self.load_error)
                            session = None
                            break
                        session, prefix, failure = self._start()
                        if session is None:
                            assert failure is not None
                            for batch, index, *_ in todo:
                                batch.put(index, failure)
                            break
                    chunk, todo = todo[: life - calls], todo[life - calls:]
                    calls += len(chunk)
                    if not self._run_chunk(session, prefix, chunk):
                        session.close()
                        session = None
        finally:
            if session is not None:
                session.close()

    def _run_chunk(self, session: Session, prefix: bytes, chunk: list[_Task]) -> bool:
        """Send the chunk's requests at once, then collect one reply per request, each within
        ``call_timeout_s`` of the previous one. Returns False when the worker must be
        replaced. When the worker times out or dies during a chunk of several requests, the
        unanswered ones are retried one per chunk, so that the failure is pinned on the request
        that causes it (a hanging call is thus reported after at most two timeouts)."""
        pending = {task[2]: task for task in chunk}
        t0 = time.monotonic()
        failure: VerifyResult | None = None
        data = b"".join(task[3] for task in chunk)
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
            if prefix and not line.startswith(prefix):
                # not written by the kit (the bootcamp found the pipe): replace the worker
                failure = VerifyResult(
                    outcome=Outcome.ERROR, kind="protocol", elapsed_s=time.monotonic() - t0,
                    error="the worker's reply pipe carried a line without the session's "
                    "token (written by the bootcamp, not the method server)")
                healthy = False
                break
            fast = _FAST_SCORE.fullmatch(line, len(prefix))
            if fast is not None:  # the kit's hot-path reply; validated like any other
                req_id: Any = int(fast.group(1))
                score, why = validate_score(float(fast.group(2)))
                result = (VerifyResult(Outcome.PASSED, score) if score is not None else
                          VerifyResult(Outcome.ERROR, kind="invalid_score", error=why))
            else:
                req_id, reply = decode_reply(line, "score")
                result = _verify_result(reply)
            if type(req_id) is not int or req_id not in pending:
                # Every line a worker writes answers a pending request; anything else (a second
                # handshake, a forged or repeated reply) is a protocol violation: replace it.
                failure = VerifyResult(
                    outcome=Outcome.ERROR, kind="protocol", elapsed_s=time.monotonic() - t0,
                    error="the worker wrote a line that answers no pending request "
                    f"(request id {str(req_id)[:20]}): a protocol violation")
                healthy = False
                break
            result.elapsed_s = time.monotonic() - t0
            t0 = time.monotonic()
            # after a timeout or an OOM the interpreter may be in any state: replace it
            healthy = result.outcome not in (Outcome.OOM, Outcome.TIMEOUT)
            self._finish(pending.pop(req_id), result)
        if failure is not None and len(chunk) == 1 and pending:
            self._finish(pending.popitem()[1], failure)  # alone, it is surely the culprit
        elif failure is not None:
            # The worker buffers replies for up to 20 ms, so the first unanswered request is
            # not necessarily the one it failed on: retry each unanswered request on its own.
            for task in pending.values():
                self._tasks.put([task])
            pending.clear()
        if pending:  # an OOM/timeout reply: the rest go to another (or a fresh) worker
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
        outcome, detail, tail = session_death(session, exc, "the worker")
        return VerifyResult(outcome=outcome, error=f"{detail} (during verify_score)",
                            traceback=tail, elapsed_s=time.monotonic() - t0)


def validate_score(value: Any) -> tuple[float | None, str]:
    """(score, "") when ``value`` is a finite float in [0, 1], else (None, why)."""
    if type(value) is float and 0.0 <= value <= 1.0:
        return value, ""
    if type(value) is int and value in (0, 1):
        return float(value), ""
    return None, f"verify_score returned {str(value)[:200]!s}, not a finite float in [0, 1]"


def _verify_result(reply: Any) -> VerifyResult:
    """A method-server reply to a ``score`` request -> VerifyResult (validated)."""
    if not reply.ok:
        return VerifyResult(outcome=reply.outcome, error=reply.error,
                            traceback=reply.traceback, kind=reply.kind)
    value = reply.value
    if type(value) is not dict or "score" not in value:
        return VerifyResult(outcome=Outcome.ERROR, kind="protocol",
                            error="malformed reply to a score request")
    if value.get("tampered"):
        return VerifyResult(outcome=Outcome.ERROR, kind="contract_tampered",
                            error="the contract was changed at run time: "
                            + "; ".join(str(x) for x in value["tampered"])[:500])
    score, why = validate_score(value["score"])
    if score is None:
        return VerifyResult(outcome=Outcome.ERROR, kind="invalid_score", error=why)
    return VerifyResult(outcome=Outcome.PASSED, score=score)


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
