"""Sandboxed reward scoring on a Ray cluster: a pool of actors, each scoring with its own
:class:`synth.training.reward.RewardFunction` (the sandbox's warm worker pools, one per bootcamp, on the
actor's own node and sandbox backend). For verl or any Ray program::

    import ray
    from synth.integrations.ray_reward import RewardPool

    ray.init(address="...")                                # the cluster (verl has done this)
    with RewardPool(num_actors=4) as pool:                 # the shipped library, sandboxed
        scores = pool.score_many(data_sources, solution_strs, ground_truths, extra_infos)
        scores = pool.score(rows)  # dicts: data_source, solution_str, ground_truth (or an
                                   # exported row's reward_model.ground_truth), extra_info

verl, with its batch reward manager (``reward_model.reward_manager=batch``)::

    custom_reward_function:
      path: pkg://synth.integrations.ray_reward    # or the file's path
      name: compute_score_batch
      reward_kwargs: {num_actors: 8}        # RewardPool's options; the pool starts on first use

Results are those of :func:`synth.training.reward.compute_score`, row by row: each row is scored by
``RewardFunction.__call__`` in an actor, with the same options (``size`` workers per bootcamp,
``backend``, ``call_timeout_s``). What ``compute_score`` does besides returning a float is
carried back to the caller:

* a verifier that raises, hangs, runs out of memory or returns no valid score on some output
  scores 0.0 *and* is a finding: logged on the ``synth.training.reward`` logger of the calling process
  with the actor's evidence (outcome, error, response head, traceback tail) and counted in
  :data:`synth.training.reward.FINDINGS` there, as ``compute_score`` would have counted it in this
  process; :attr:`RewardPool.findings` keeps each one with the row it was found on;
* broken data raises :class:`~synth.training.reward.RewardDataError`, and a sandbox that cannot run
  :class:`~synth.training.reward.RewardSandboxError`, with ``compute_score``'s message (and a note naming
  the row), after the rest of the batch has been scored;
* each actor's reward sends canaries (:mod:`synth.training.canary`, ``canary_rate``); a bootcamp an
  actor quarantines is said once in the caller's log (the evidence, the node), kept in
  :attr:`RewardPool.quarantined`, and from the next batch on its rows are not sent: they score
  0.0 and count as findings here, whichever actor would have scored them.

Scoring is pure, so a batch whose actor is lost (its node died) is scored again by the other
actors, and a replacement actor is started (it serves once the cluster can place it). Ray is an
optional extra, imported on first use: ``pip install 'bootcamp-synth[ray]'``. A library folder
other than the shipped one must be at the same path on every node.
"""

from __future__ import annotations

import importlib
import logging
import math
import os
import threading
import time
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

from synth.training.canary import CANARY_RATE
from synth.training.reward import (
    FINDINGS,
    PREFIX,
    RewardDataError,
    RewardFunction,
    RewardSandboxError,
)

__all__ = [
    "RayUnavailableError",
    "RewardActor",
    "RewardPool",
    "RowFinding",
    "compute_score_batch",
]

log = logging.getLogger("synth.training.reward")
EXTRA = "pip install 'bootcamp-synth[ray]'"
FINDINGS_KEPT = 1000
_CANONICAL = "synth.integrations.ray_reward"
_ERRORS: dict[str, type[Exception]] = {
    "data_error": RewardDataError,
    "sandbox_error": RewardSandboxError,
}


class RayUnavailableError(ImportError):
    """Ray is not installed (it is the ``ray`` extra)."""


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailableError(
            f"Ray reward scoring needs Ray, which is not installed: {EXTRA} (the ray extra)"
        ) from exc
    return ray


class RowFinding(NamedTuple):
    """A verifier failure on one row: ``row``, its index in its batch; its data source; the
    evidence ``compute_score`` logged (outcome, error, response head, traceback tail), and the
    node of the actor that found it."""

    row: int
    data_source: str
    message: str
    node_id: str = ""


# -- in the actor ------------------------------------------------------------------------------


class _FindingHandler(logging.Handler):
    """Catches ``RewardFunction``'s finding records (one ``log.error`` per finding, in the
    thread that scores the row) for the row that thread is scoring."""

    def __init__(self, row: threading.local) -> None:
        super().__init__(logging.ERROR)
        self.row = row

    def emit(self, record: logging.LogRecord) -> None:
        sink = getattr(self.row, "sink", None)
        if sink is not None and not hasattr(record, "synth_quarantine"):  # reported apart
            sink.append((self.row.index, self.row.data_source, record.getMessage()))


class RewardActor:
    """What one Ray actor of a :class:`RewardPool` runs (``ray.remote(RewardActor)``): a
    :class:`~synth.training.reward.RewardFunction` with its own sandbox backend, ``threads`` rows
    scored at a time (default ``size``, so that every warm worker is busy).

    :meth:`score` takes rows ``(data_source, solution_str, ground_truth, extra_info)`` and
    returns, in order, ``("score", float)``, ``("quarantined", 0.0)`` (a row of a bootcamp its
    canaries quarantined), ``("data_error", message)`` or ``("sandbox_error", message)`` per
    row, plus the findings ``(row, data_source, message)`` and the quarantines so far
    ``(bootcamp, message)``. It never raises for a row."""

    def __init__(self, library: str | None = None, *, size: int = 1, backend: str = "auto",
                 call_timeout_s: float = 5.0, threads: int | None = None,
                 canary_rate: float = CANARY_RATE) -> None:
        self.reward = RewardFunction(library, size=size, backend=backend,
                                     call_timeout_s=call_timeout_s, canary_rate=canary_rate)
        self._row = threading.local()
        self._threads = ThreadPoolExecutor(max(1, threads or size),
                                           thread_name_prefix="synth-reward-actor")
        self._handler = _FindingHandler(self._row)
        log.addHandler(self._handler)

    def info(self) -> dict[str, Any]:
        """Where this actor runs: ``node_id`` (Ray's, when in Ray), ``pid``."""
        node_id = ""
        try:
            import ray

            if ray.is_initialized():
                node_id = ray.get_runtime_context().get_node_id()
        except ImportError:
            pass
        return {"node_id": node_id, "pid": os.getpid()}

    def _one(self, sink: list[tuple[int, str, str]], index: int, row: Sequence[Any]
             ) -> tuple[str, Any]:
        data_source, solution_str, ground_truth, extra_info = row
        self._row.sink, self._row.index, self._row.data_source = sink, index, str(data_source)
        refused = self.reward.refuses(data_source) is not None
        try:
            score = self.reward(data_source, solution_str, ground_truth, extra_info)
            return ("quarantined", 0.0) if refused else ("score", score)
        except RewardDataError as exc:
            return "data_error", str(exc)
        except RewardSandboxError as exc:
            return "sandbox_error", str(exc)
        finally:
            self._row.sink = None

    def score(self, rows: Sequence[Sequence[Any]]
              ) -> tuple[list[tuple[str, Any]], list[tuple[int, str, str]], list[tuple[str, str]]]:
        found: list[tuple[int, str, str]] = []
        results = list(self._threads.map(self._one, [found] * len(rows), range(len(rows)), rows))
        return results, sorted(found), self.quarantines()

    def quarantines(self) -> list[tuple[str, str]]:
        """(bootcamp, what the log said) of every bootcamp this actor's canaries quarantined."""
        return [(name, q.message()) for name, q in list(self.reward.quarantined.items())]

    def settle(self, timeout_s: float = 60.0) -> list[tuple[str, str]]:
        """Wait for the canaries sent so far; the quarantines then."""
        self.reward.settle(timeout_s)
        return self.quarantines()

    def close(self) -> None:
        """Stop the sandboxed workers (the pool calls this before it kills the actor)."""
        log.removeHandler(self._handler)
        self._threads.shutdown(wait=True)
        self.reward.close()


# -- in the caller -----------------------------------------------------------------------------


def _bootcamp(data_source: Any) -> str:
    text = str(data_source)
    return text[len(PREFIX):] if text.startswith(PREFIX) else text


class _Slot:
    """One actor of a pool (a plain class: this module may be loaded from its file by path,
    outside sys.modules, where dataclasses cannot resolve their annotations)."""

    __slots__ = ("failure", "handle", "live", "node_id", "pid", "ready")

    def __init__(self, handle: Any, ready: Any) -> None:
        self.handle = handle
        self.ready = ready  # the ObjectRef of info(): resolved once the actor is constructed
        self.node_id = ""
        self.pid = 0
        self.live = False
        self.failure: BaseException | None = None  # why it did not start


class RewardPool:
    """``num_actors`` :class:`RewardActor` s on the connected Ray cluster; the options after
    ``library`` are :class:`~synth.training.reward.RewardFunction`'s (per actor) and then the actors':
    ``num_cpus`` each, placed by ``scheduling_strategy`` (default ``"SPREAD"``: over the
    nodes), any other ``ray.remote`` options in ``actor_options``. A batch is cut into chunks
    of at most ``batch_rows`` rows, dealt to the actors in turn; a chunk whose actor is lost is
    scored again elsewhere, at most ``max_retries`` times. The constructor waits up to
    ``start_timeout_s`` for every actor to start. Thread-safe; :meth:`close` (or ``with``)
    stops the actors and their sandboxes."""

    def __init__(
        self,
        library: Path | str | None = None,
        *,
        num_actors: int = 2,
        size: int = 1,
        backend: str = "auto",
        call_timeout_s: float = 5.0,
        num_cpus: float = 1.0,
        scheduling_strategy: Any = "SPREAD",
        actor_options: Mapping[str, Any] | None = None,
        batch_rows: int = 256,
        max_retries: int = 3,
        start_timeout_s: float = 120.0,
        canary_rate: float = CANARY_RATE,
    ) -> None:
        if num_actors < 1 or batch_rows < 1 or max_retries < 0:
            raise ValueError("num_actors and batch_rows must be >= 1, max_retries >= 0")
        ray = _ray()
        if not ray.is_initialized():
            raise RuntimeError("RewardPool runs on a Ray cluster: connect first, "
                               "ray.init(address=...)")
        self._ray = ray
        self.num_actors = num_actors
        self.batch_rows = batch_rows
        self.max_retries = max_retries
        self.start_timeout_s = start_timeout_s
        self._args = (str(Path(library).resolve()) if library is not None else None,)
        self._kwargs = {"size": size, "backend": backend, "call_timeout_s": call_timeout_s,
                        "canary_rate": canary_rate}
        # by module name, so that workers import the class (verl may load this file by path)
        actor_cls: Any = importlib.import_module(_CANONICAL).RewardActor
        self._remote = ray.remote(actor_cls).options(
            num_cpus=num_cpus, scheduling_strategy=scheduling_strategy,
            **dict(actor_options or {}))
        self._lock = threading.Lock()
        self._closed = False
        self._turn = 0
        #: the latest verifier findings (all of them are counted in synth.training.reward.FINDINGS)
        self.findings: deque[RowFinding] = deque(maxlen=FINDINGS_KEPT)
        #: bootcamp name -> what an actor's canaries found (its rows score 0.0 from then on)
        self.quarantined: dict[str, str] = {}
        self.lost_actors = 0  # actors lost while scoring (their chunks were scored again)
        self._slots: list[_Slot] = []
        try:
            self._slots.extend(self._spawn() for _ in range(num_actors))
            self._await_ready(self._slots, start_timeout_s)
        except BaseException:
            self.close()
            raise

    # -- actors -----------------------------------------------------------------------------
    def _spawn(self) -> _Slot:
        handle = self._remote.remote(*self._args, **self._kwargs)
        return _Slot(handle=handle, ready=handle.info.remote())

    def _await_ready(self, slots: list[_Slot], timeout_s: float) -> None:
        refs = [s.ready for s in slots]
        done, _ = self._ray.wait(refs, num_returns=len(refs), timeout=timeout_s)
        if len(done) < len(refs):
            free = self._ray.available_resources().get("CPU", 0)
            raise RewardSandboxError(
                f"only {len(done)} of {len(refs)} reward actors started within {timeout_s:g}s "
                f"(each asks for the actor options' CPUs; the cluster has {free:g} free): "
                "lower num_actors or num_cpus")
        for slot in slots:
            self._settle(slot)
            if slot.failure is not None:
                raise RewardSandboxError(f"a reward actor failed to start: {slot.failure}")

    def _settle(self, slot: _Slot) -> None:
        """Mark a started slot live (its info arrived) or dead (it failed to start)."""
        try:
            info = self._ray.get(slot.ready)
        except self._ray.exceptions.RayActorError as exc:
            slot.live, slot.ready, slot.failure = False, None, exc
            return
        slot.node_id, slot.pid, slot.live = info["node_id"], info["pid"], True

    def _usable(self) -> list[_Slot]:
        """The live actors; replacements that have started since are added, dead ones dropped."""
        pending = [s for s in self._slots if not s.live and s.ready is not None]
        if pending:
            done, _ = self._ray.wait([s.ready for s in pending], num_returns=len(pending),
                                     timeout=0)
            for slot in pending:
                if slot.ready in done:
                    self._settle(slot)
        self._slots = [s for s in self._slots if s.live or s.ready is not None]
        while len(self._slots) < self.num_actors:
            self._slots.append(self._spawn())
        live = [s for s in self._slots if s.live]
        if not live:
            waiting = [s for s in self._slots if not s.live]
            done, _ = self._ray.wait([s.ready for s in waiting], num_returns=1,
                                     timeout=self.start_timeout_s)
            for slot in waiting:
                if slot.ready in done:
                    self._settle(slot)
            live = [s for s in self._slots if s.live]
            if not live:
                raise RewardSandboxError(
                    f"no reward actor is alive, and none started within {self.start_timeout_s:g}s")
        return live

    def _lose(self, slot: _Slot) -> None:
        if slot.live:
            slot.live = False
            slot.ready = None
            self.lost_actors += 1
            log.warning("reward actor %s on node %s was lost; its rows are scored again",
                        slot.pid, slot.node_id)

    @property
    def node_ids(self) -> list[str]:
        """The node of each live actor (Ray's node id); readable while a batch is scored."""
        return [s.node_id for s in list(self._slots) if s.live]

    @property
    def actor_pids(self) -> list[int]:
        """The process id of each live actor (on its node)."""
        return [s.pid for s in list(self._slots) if s.live]

    # -- scoring ----------------------------------------------------------------------------
    def score_many(
        self,
        data_sources: Sequence[Any],
        solution_strs: Sequence[Any],
        ground_truths: Sequence[Any],
        extra_infos: Sequence[Any] | None = None,
    ) -> list[float]:
        """``compute_score`` of every row, in order (see the module docstring for findings
        and errors)."""
        n = len(data_sources)
        if extra_infos is None:
            extra_infos = [None] * n
        if not len(solution_strs) == len(ground_truths) == len(extra_infos) == n:
            raise ValueError(
                f"score_many needs one value per row in each column: {n} data_sources, "
                f"{len(solution_strs)} solution_strs, {len(ground_truths)} ground_truths, "
                f"{len(extra_infos)} extra_infos")
        rows = [(data_sources[i], solution_strs[i], ground_truths[i], extra_infos[i])
                for i in range(n)]
        with self._lock:
            if self._closed:
                raise RuntimeError("the reward pool is closed")
            # rows of a quarantined bootcamp are not sent: 0.0 and a finding each
            sent = [i for i in range(n) if _bootcamp(rows[i][0]) not in self.quarantined]
            results: list[tuple[str, Any]] = [("quarantined", 0.0)] * n
            got, found, events = self._run([rows[i] for i in sent])
            for i, result in zip(sent, got, strict=True):
                results[i] = result
            found = [(sent[i], ds, msg, node) for i, ds, msg, node in found]
            self._quarantine(events)
        refused = Counter(_bootcamp(rows[i][0]) for i, (kind, _) in enumerate(results)
                          if kind == "quarantined")
        for name, count in refused.items():
            FINDINGS[name] += count
            log.error("bootcamp %s is quarantined (reward canaries): %d row(s) of this batch "
                      "scored 0.0", PREFIX + name, count)
        for index, data_source, message, node_id in found:
            name = data_source[len(PREFIX):] if data_source.startswith(PREFIX) else data_source
            FINDINGS[name] += 1
            log.error("row %d, reward actor on node %s: %s", index, node_id, message)
            self.findings.append(RowFinding(index, data_source, message, node_id))
        scores: list[float] = []
        for index, (kind, value) in enumerate(results):
            if kind in ("score", "quarantined"):
                scores.append(float(value))
                continue
            exc = _ERRORS[kind](value)
            exc.add_note(f"row {index} of the batch of {n} (scored by a reward actor)")
            raise exc
        return scores

    def score(self, batch: Sequence[Mapping[str, Any]]) -> list[float]:
        """``compute_score`` of rows given as dicts: ``data_source``, ``solution_str``, and
        ``ground_truth`` or an exported row's ``reward_model: {"ground_truth": ...}``,
        optionally ``extra_info``."""
        columns: tuple[list[Any], list[Any], list[Any], list[Any]] = ([], [], [], [])
        for i, row in enumerate(batch):
            if "ground_truth" in row:
                truth = row["ground_truth"]
            elif isinstance(row.get("reward_model"), Mapping) and "ground_truth" in row["reward_model"]:
                truth = row["reward_model"]["ground_truth"]
            else:
                raise RewardDataError(f"row {i} has neither ground_truth nor "
                                      "reward_model.ground_truth (the columns `synth export` writes)")
            for column, value in zip(columns, (row.get("data_source"), row.get("solution_str"),
                                               truth, row.get("extra_info")), strict=True):
                column.append(value)
        return self.score_many(*columns)

    def __call__(self, data_sources: Sequence[Any], solution_strs: Sequence[Any],
                 ground_truths: Sequence[Any], extra_infos: Sequence[Any] | None = None,
                 **kwargs: Any) -> list[float]:
        """verl's batch reward signature (keyword arguments as its batch manager passes)."""
        if kwargs:
            raise TypeError(f"unexpected reward arguments {sorted(kwargs)}")
        return self.score_many(data_sources, solution_strs, ground_truths, extra_infos)

    def _quarantine(self, events: list[tuple[str, str, str]]) -> None:
        """Actors' quarantines (bootcamp, message, node): each said once, and counted."""
        for name, message, node_id in events:
            if name not in self.quarantined:
                self.quarantined[name] = message
                FINDINGS[name] += 1
                log.error("reward actor on node %s: %s", node_id, message)

    def settle(self, timeout_s: float = 60.0) -> dict[str, str]:
        """Wait until every actor's canaries sent so far are judged; :attr:`quarantined`."""
        with self._lock:
            live = [s for s in self._slots if s.live]
            replies = self._ray.get([s.handle.settle.remote(timeout_s) for s in live])
            self._quarantine([(name, message, slot.node_id)
                              for slot, said in zip(live, replies, strict=True)
                              for name, message in said])
            return dict(self.quarantined)

    def _run(self, rows: list[tuple[Any, Any, Any, Any]]
             ) -> tuple[list[tuple[str, Any]], list[tuple[int, str, str, str]],
                        list[tuple[str, str, str]]]:
        """Score the chunks on the live actors, again elsewhere when an actor is lost."""
        n = len(rows)
        live = self._usable()
        per = max(1, min(self.batch_rows, math.ceil(n / len(live)))) if n else 1
        chunks = [(start, rows[start:start + per]) for start in range(0, n, per)]
        results: list[tuple[str, Any] | None] = [None] * n
        found: list[tuple[int, str, str, str]] = []
        events: list[tuple[str, str, str]] = []
        tries = [0] * len(chunks)
        pending: dict[Any, tuple[int, _Slot]] = {}

        def submit(k: int) -> None:
            live = self._usable()
            slot = live[self._turn % len(live)]
            self._turn += 1
            pending[slot.handle.score.remote(chunks[k][1])] = (k, slot)

        for k in range(len(chunks)):
            submit(k)
        while pending:
            done, _ = self._ray.wait(list(pending), num_returns=1)
            for ref in done:
                k, slot = pending.pop(ref)
                try:
                    chunk_results, chunk_found, chunk_events = self._ray.get(ref)
                except self._ray.exceptions.RayActorError as exc:
                    self._lose(slot)
                    tries[k] += 1
                    if tries[k] > self.max_retries:
                        raise RewardSandboxError(
                            f"rows {chunks[k][0]}..{chunks[k][0] + len(chunks[k][1]) - 1}: "
                            f"their reward actor was lost {tries[k]} times ({exc})") from exc
                    submit(k)
                    continue
                start = chunks[k][0]
                results[start:start + len(chunk_results)] = chunk_results
                found.extend((start + i, ds, msg, slot.node_id) for i, ds, msg in chunk_found)
                events.extend((name, msg, slot.node_id) for name, msg in chunk_events)
        assert all(r is not None for r in results)
        return [r for r in results if r is not None], sorted(found), events

    # -- life cycle -------------------------------------------------------------------------
    def close(self, timeout_s: float = 30.0) -> None:
        """Stop every actor's sandboxed workers, then the actors. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            slots, self._slots = self._slots, []
        if not self._ray.is_initialized():  # disconnected: the actors went with the driver
            return
        closing = [s.handle.close.remote() for s in slots if s.live]
        if closing:
            self._ray.wait(closing, num_returns=len(closing), timeout=timeout_s)
        deadline = time.monotonic() + timeout_s
        for slot in slots:
            try:
                self._ray.kill(slot.handle, no_restart=True)
            except Exception as exc:  # an actor already gone: nothing to stop
                log.debug("reward actor %s: %s", slot.pid, exc)
            if time.monotonic() > deadline:
                break

    def __enter__(self) -> RewardPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- verl's batch reward function --------------------------------------------------------------

_DEFAULT: tuple[dict[str, Any], RewardPool] | None = None
_DEFAULT_LOCK = threading.Lock()


def _default_pool(options: dict[str, Any]) -> RewardPool:
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = (options, RewardPool(**options))
        elif _DEFAULT[0] != options:
            raise ValueError(f"the default reward pool was started with {_DEFAULT[0]}, "
                             f"not {options}; make a RewardPool of your own for other options")
        return _DEFAULT[1]


def compute_score_batch(
    data_sources: Sequence[Any],
    solution_strs: Sequence[Any],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[Any] | None = None,
    **pool_options: Any,
) -> list[float]:
    """verl's batch custom reward: :meth:`RewardPool.score_many` on a pool of this process,
    started on first use with ``pool_options`` (verl's ``reward_kwargs``) on the connected
    cluster and kept (later calls must pass the same options)."""
    if __name__ != _CANONICAL:  # loaded by path, as verl does: still one default pool
        canonical: Any = importlib.import_module(_CANONICAL)
        return list(canonical.compute_score_batch(data_sources, solution_strs, ground_truths,
                                                  extra_infos, **pool_options))
    pool = _default_pool(pool_options)
    return pool.score_many(data_sources, solution_strs, ground_truths, extra_infos)


def close_default_pool() -> None:
    """Stop the pool :func:`compute_score_batch` started, if any."""
    global _DEFAULT
    if __name__ != _CANONICAL:
        canonical: Any = importlib.import_module(_CANONICAL)
        canonical.close_default_pool()
        return
    with _DEFAULT_LOCK:
        default, _DEFAULT = _DEFAULT, None
    if default is not None:
        default[1].close()
