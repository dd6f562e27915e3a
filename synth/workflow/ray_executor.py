"""``synth run --executor ray``: every task's graph runs as a Ray task on the cluster's workers.

    driver (``synth run``)                      Ray worker (one task graph per Ray task)
    ---------------------------------------     ---------------------------------------------
    submits at most ``concurrency`` tasks  -->  its own LLM client, sandbox backend (per
    live view: outcomes, token totals            process), sandbox slots (per node, file locks)
    actors pinned to the driver's node:         checkpoints: runs/<id>/checkpoints/<task>.sqlite
      LibraryWriter  (the one library writer) <-- LibraryProxy: has_task, unique_name, commit,
                                                  write_file, remove_file
      EventSink      (the one events.jsonl    <-- ForwardingEventLog: run.events.emit(...)
                      writer, token totals)
      EndpointLimiter per endpoint (async)    <-- ClusterLimits: LLMClient's external limiter
    (the actors: :mod:`synth.workflow.ray_actors`)

Limits. ``--llm-concurrency`` holds per endpoint across the cluster: every model request holds a
lease of its endpoint's limiter actor (besides its client's own slot). A lease is renewed while
the request is out; one whose holder stops renewing (a dead process) lapses after ``lease_ttl_s``,
and, while requests wait, the leases of a node the cluster has declared dead are taken back
within about 2 s. ``sandbox_slots``
holds per node: a gate run or a filter holds one of that many lock files of the node (a lock
goes with the process that held it). ``concurrency`` is the number of task graphs in flight.

Failures. A Ray task whose worker dies (its node lost) is retried by Ray (``max_retries``); the
retry continues from the task's last checkpoint, and a commit replayed after the loss (the record
written, the checkpoint not) is recognised by its code hash, as in one process. The driver's loss
ends the Ray job (its tasks and actors); ``synth run --resume RUN_ID --executor ray`` continues
from the per-task checkpoints.

Storage. The run folder (checkpoints, candidates, transcripts, filter records) is written by the
workers, so it must be on storage every node sees at the same path (one machine, or a shared file
system); ``events.jsonl`` and the library are written on the driver's node only, by the actors.
Each task's checkpoints are an SQLite file of their own, written by one process at a time; the
driver reads it (and the library) before submitting a task, so a task that is finished or in the
library already costs no Ray task. The roles' model specs (API keys included) travel to the
workers inside the Ray tasks' arguments.

Ray is the ``ray`` extra; this module is imported only when ``--executor ray`` is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import logging
import os
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal

import ray
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from filters.dedup import DedupVerdict
from synth.library import BootcampRecord, Library, LibraryError
from synth.models.llm import LLMClient, ModelSpec, redact_url
from synth.runs import EventLog, Run, RunConfig, RunError, task_slug
from synth.sandbox import get_backend
from synth.tasks import TaskDescription
from synth.workflow.graph import build_graph
from synth.workflow.orchestrator import (
    RAY_CHECKPOINTS,
    RunSummary,
    TaskOutcome,
    budget_outcome,
    check_executor,
    finish,
    invoke,
    ledger_sink,
    make_context,
    settled,
    thread_config,
    warm_prefixes,
)
from synth.workflow.ray_actors import LEASE_TTL_S, EndpointLimiter, EventSink, LibraryWriter

#: logical CPUs a task graph asks of Ray: most of its time it waits for the model
TASK_CPUS = 0.25
#: retries of a task whose worker died (each continues from the task's last checkpoint)
MAX_RETRIES = 5
LOOPBACK = ("127.0.0.1", "localhost", "::1")


#: the snapshot of a thread that has no checkpoint yet
NOT_STARTED = SimpleNamespace(values=None, next=(), tasks=())


def checkpoint_file(run_root: Path, task_id: str) -> Path:
    """The task's own SQLite checkpoint file (a hash keeps two similar ids apart)."""
    digest = hashlib.sha256(task_id.encode()).hexdigest()[:10]
    return run_root / RAY_CHECKPOINTS / f"{task_slug(task_id)[:100]}-{digest}.sqlite"


# -- in the worker: stand-ins for the driver's objects ------------------------------------------


class LibraryProxy:
    """What the commit node uses of :class:`~synth.library.Library`, done by the writer actor."""

    def __init__(self, writer: Any, root: str, holder: str) -> None:
        self.writer = writer
        self.root = Path(root)
        self.holder = holder

    def has_task(self, source: str, task_id: str) -> BootcampRecord | None:
        record: BootcampRecord | None = ray.get(self.writer.has_task.remote(source, task_id))
        return record

    @property
    def curriculum(self) -> tuple[str, ...]:
        """The library's curriculum, read by the writer on the library's node (once per
        task, by ``make_context``)."""
        return tuple(ray.get(self.writer.curriculum.remote()))

    def unique_name(self, base: str) -> str:
        return str(ray.get(self.writer.unique_name.remote(base, self.holder)))

    def commit(self, **kwargs: Any) -> BootcampRecord:
        record, problem = ray.get(self.writer.commit.remote(kwargs))
        if record is None:
            raise LibraryError(problem)
        assert isinstance(record, BootcampRecord)
        return record

    def commit_unless_duplicate(self, kwargs: dict[str, Any], how: dict[str, Any]
                                ) -> tuple[DedupVerdict, BootcampRecord | None]:
        """The duplicate check and the commit, both in the writer actor (on the library's
        node); the commit's refusal raises LibraryError."""
        verdict, record, problem = ray.get(self.writer.commit_unless_duplicate.remote(kwargs, how))
        if problem:
            raise LibraryError(problem)
        return DedupVerdict.model_validate(verdict), record

    def write_file(self, rel: str, text: str) -> None:
        ray.get(self.writer.write_file.remote(rel, text))

    def remove_file(self, rel: str) -> None:
        ray.get(self.writer.remove_file.remote(rel))


class ForwardingEventLog(EventLog):
    """``run.events`` in a worker: each event goes to the sink actor (in the order emitted);
    :meth:`drain` waits until every one is written."""

    def __init__(self, path: Path, sink: Any) -> None:
        self.path = path
        self._lock = threading.Lock()
        self.sink = sink
        self._pending: list[Any] = []

    def emit(self, kind: str, task: str | None = None, **payload: Any) -> None:
        usage = None
        if kind == "llm_call":
            usage = (int(payload.get("tokens_in", 0)), int(payload.get("tokens_out", 0)),
                     int(payload.get("tokens_cached", 0) or 0), float(payload.get("cost_usd", 0.0)))
        self.write(self.line(kind, task, **payload), usage)

    def write(self, text: str, usage: tuple[int, int, int, float] | None = None) -> None:
        with self._lock:
            self._pending.append(self.sink.append.remote(text, usage))
            if len(self._pending) >= 256:  # keep the list short: drop the refs already done
                _, self._pending = ray.wait(self._pending, num_returns=len(self._pending),
                                               timeout=0)

    def drain(self, timeout_s: float = 60.0) -> None:
        with self._lock:
            pending, self._pending = self._pending, []
        if pending:
            ray.wait(pending, num_returns=len(pending), timeout=timeout_s)


class ClusterLimits:
    """The LLM client's external limiter: a lease of the endpoint's limiter actor per request."""

    def __init__(self, actors: dict[str, Any], node: str, ttl_s: float = LEASE_TTL_S) -> None:
        self.actors = actors
        self.node = node
        self.renew_s = max(0.5, ttl_s / 4)

    def __call__(self, endpoint: str) -> AbstractAsyncContextManager[Any]:
        actor = self.actors.get(endpoint)
        return self._hold(actor) if actor is not None else contextlib.nullcontext()

    @contextlib.asynccontextmanager
    async def _hold(self, actor: Any) -> AsyncIterator[None]:
        lease = uuid.uuid4().hex
        try:
            await actor.acquire.remote(lease, self.node)
        except BaseException:  # a cancelled wait: a lease granted later is given back at once
            actor.release.remote(lease)
            raise
        beat = asyncio.create_task(self._renew(actor, lease))
        try:
            yield
        finally:
            beat.cancel()
            actor.release.remote(lease)

    async def _renew(self, actor: Any, lease: str) -> None:
        while True:
            await asyncio.sleep(self.renew_s)
            actor.renew.remote(lease)


class NodeSlots(asyncio.Semaphore):
    """``n`` sandbox slots shared by every process of the run on this node: a slot is an
    exclusive ``flock`` on one of ``n`` files, which goes with the process that held it."""

    def __init__(self, n: int, folder: Path) -> None:
        super().__init__(n)
        folder.mkdir(parents=True, exist_ok=True)
        self.paths = [folder / f"slot-{i}" for i in range(n)]
        self.held: list[int] = []

    async def acquire(self) -> Literal[True]:
        while True:
            for path in self.paths:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(fd)
                    continue
                self.held.append(fd)
                return True
            await asyncio.sleep(0.02)

    def release(self) -> None:
        fd = self.held.pop()
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def node_slots(run_id: str, n: int) -> NodeSlots:
    return NodeSlots(n, Path(tempfile.gettempdir()) / f"synth-sandbox-slots-{run_id}")


# -- the Ray task -------------------------------------------------------------------------------


@dataclass
class TaskJob:
    """Everything a worker needs to run one task's graph (pickled into the Ray task)."""

    run_root: str
    run_id: str
    config: RunConfig
    roles: dict[str, ModelSpec]
    task: dict[str, Any]
    library_root: str
    writer: Any
    sink: Any
    limiters: dict[str, Any]
    exemplar_root: str | None = None
    overrides: dict[str, Any] | None = None
    lease_ttl_s: float = LEASE_TTL_S
    submitted: float = 0.0  # time.time() at submission


@ray.remote
def run_task(job: TaskJob) -> dict[str, Any]:
    """One task's graph, from its last checkpoint to its end; returns its outcome."""
    return asyncio.run(_task_main(job))


async def _task_main(job: TaskJob) -> dict[str, Any]:
    t0 = time.time()
    cfg = job.config
    task = TaskDescription.model_validate(job.task)
    node = ray.get_runtime_context().get_node_id()
    run = Run(Path(job.run_root), job.run_id, cfg)
    events = ForwardingEventLog(run.root / "events.jsonl", job.sink)
    run.events = events
    events.emit("ray_task", task.id, node=node, pid=os.getpid(),
                waited_s=round(t0 - job.submitted, 4) if job.submitted else None)
    llm = LLMClient(dict(job.roles), prices=cfg.prices, max_concurrency=cfg.llm_concurrency,
                    on_record=ledger_sink(run), transcript_dir=run.root / "transcripts",
                    limiter=ClusterLimits(job.limiters, node, job.lease_ttl_s))
    library = LibraryProxy(job.writer, job.library_root, holder=task.id)
    try:
        ctx = make_context(run, llm, library, backend=get_backend(cfg.sandbox),
                           exemplar_library=Library(job.exemplar_root) if job.exemplar_root else None,
                           sandbox_slots=node_slots(job.run_id, cfg.sandbox_slots),
                           overrides=job.overrides)
        path = checkpoint_file(run.root, task.id)
        path.parent.mkdir(parents=True, exist_ok=True)
        async with AsyncSqliteSaver.from_conn_string(str(path)) as saver:
            graph: Any = build_graph().compile(checkpointer=saver)
            snap = await graph.aget_state(thread_config(task.id))
            outcome = settled(task, snap, library, cfg.force)
            t1 = time.time()
            if outcome is None:
                outcome = await invoke(graph, task, snap, ctx)
            t2 = time.time()
    finally:
        await llm.aclose()
        events.drain()
    end = time.time()
    return {"outcome": outcome.model_dump(mode="json"), "node": node, "pid": os.getpid(),
            "waited_s": t0 - job.submitted, "setup_s": t1 - t0, "graph_s": t2 - t1,
            "drain_s": end - t2, "ended": end}


# -- the driver ---------------------------------------------------------------------------------


async def _snapshot(path: Path, task_id: str) -> Any:
    """The task's thread as its checkpoint file has it (read by the driver before the task is
    submitted: then no worker of this run writes it)."""
    async with AsyncSqliteSaver.from_conn_string(str(path)) as saver:
        graph: Any = build_graph().compile(checkpointer=saver)
        return await graph.aget_state(thread_config(task_id))


def connect(address: str | None) -> bool:
    """Join the cluster at ``address`` (None: ``RAY_ADDRESS``, else a Ray instance started for
    this run) unless this process is connected already. True when this call connected."""
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"address": address, "log_to_driver": False,
                              "logging_level": logging.WARNING}
    loopback = bool(address) and str(address).rsplit(":", 1)[0].strip("[]") in LOOPBACK
    if not address:
        kwargs["include_dashboard"] = False  # a Ray instance of our own: no dashboard
    try:
        with _loopback_kept(loopback):
            ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = address or "a local Ray instance"
        raise RunError(f"cannot connect to the Ray cluster at {where}: {exc}; start it with "
                       "`ray start --head` (and `ray start --address HEAD` on every worker "
                       "node) or pass --ray-address") from None
    return True


#: where a Ray task's time goes: submitted -> started (waited), its setup (client, context,
#: checkpointer, graph), the graph, the wait for its events to be written (drain)
TIMINGS = ("waited_s", "setup_s", "graph_s", "drain_s")


def _timing_summary(timings: list[dict[str, float]]) -> dict[str, Any]:
    """Mean and max of each timing over the run's Ray tasks (plus returned_s: the task's end to
    the driver's receipt)."""
    if not timings:
        return {"count": 0}
    out: dict[str, Any] = {"count": len(timings)}
    for key in (*TIMINGS, "returned_s"):
        values = [t[key] for t in timings]
        out[key] = {"mean": round(sum(values) / len(values), 4), "max": round(max(values), 4)}
    return out


@contextlib.contextmanager
def _loopback_kept(on: bool) -> Any:
    """While joining a cluster whose address is on loopback (one machine, e.g. the tests'),
    keep that address: Ray would replace 127.0.0.1 with the machine's routable address
    (``ray._private.services.resolve_ip_for_localhost``), where a loopback cluster does not
    listen. A private hook of Ray; without it (another Ray version) nothing is changed."""
    from ray._private import services

    original = getattr(services, "resolve_ip_for_localhost", None)
    if not on or original is None:
        yield
        return
    services.resolve_ip_for_localhost = _same
    try:
        yield
    finally:
        services.resolve_ip_for_localhost = original


def _same(host: str) -> str:
    return host


@dataclass
class RayOptions:
    address: str | None = None
    task_cpus: float = TASK_CPUS
    max_retries: int = MAX_RETRIES
    lease_ttl_s: float = LEASE_TTL_S


async def execute_ray(
    run: Run,
    tasks: list[TaskDescription],
    *,
    llm: LLMClient,
    library: Library,
    exemplar_library: Library | None = None,
    on_outcome: Callable[[TaskOutcome], None] | None = None,
    overrides: dict[str, Any] | None = None,
    options: RayOptions | None = None,
) -> RunSummary:
    """:func:`synth.workflow.orchestrator.execute` with the task graphs on a Ray cluster: the
    same outcomes, library, event log and summary. ``llm`` is the driver's client: its roles
    and prices are the workers', its totals follow theirs (the live view, the budget)."""
    opts = options or RayOptions()
    cfg = run.config
    t0 = time.perf_counter()
    check_executor(run, "ray")
    library.root.mkdir(parents=True, exist_ok=True)
    (run.root / RAY_CHECKPOINTS).mkdir(parents=True, exist_ok=True)
    ours = connect(opts.address)
    here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
    pinned: dict[str, Any] = {"num_cpus": 0, "scheduling_strategy": here}
    sink: Any = ray.remote(EventSink).options(**pinned).remote(str(run.root / "events.jsonl"))
    writer: Any = ray.remote(LibraryWriter).options(**pinned).remote(str(library.root))
    if "judge" not in llm.roles:
        llm.roles["judge"] = cfg.judge or llm.roles.get("coder", cfg.coder)
    session = uuid.uuid4().hex[:6]
    limiters: dict[str, Any] = {
        ep: ray.remote(EndpointLimiter).options(
            name=f"synth-llm-{run.run_id}-{hashlib.sha256(ep.encode()).hexdigest()[:12]}-{session}",
            max_concurrency=100_000, **pinned).remote(cfg.llm_concurrency, opts.lease_ttl_s)
        for ep in sorted({spec.endpoint_key() for spec in llm.roles.values()})
    }
    actors: list[Any] = [sink, writer, *limiters.values()]
    direct = run.events
    forwarded = ForwardingEventLog(direct.path, sink)
    run.events = forwarded  # one writer of events.jsonl while the workers write
    summary = RunSummary(run_id=run.run_id, run_dir=str(run.root))
    base = (llm.total_tokens_in, llm.total_tokens_out, llm.total_tokens_cached, llm.total_cost_usd)

    async def follow() -> None:
        """The workers' model-call totals into the driver's client (live view, budget)."""
        totals = await sink.read_totals.remote()
        llm.total_tokens_in = base[0] + int(totals["tokens_in"])
        llm.total_tokens_out = base[1] + int(totals["tokens_out"])
        llm.total_tokens_cached = base[2] + int(totals["tokens_cached"])
        llm.total_cost_usd = base[3] + float(totals["cost_usd"])

    async def ticker() -> None:
        while True:
            await asyncio.sleep(0.5)
            await follow()

    slots = asyncio.Semaphore(cfg.concurrency)
    roles = dict(llm.roles)
    timings: list[dict[str, float]] = []

    async def one(task: TaskDescription) -> TaskOutcome:
        async with slots:
            # nothing to do (in the library already, or its thread finished in an earlier
            # session): no Ray task; the driver reads the library and the checkpoint itself
            path = checkpoint_file(run.root, task.id)
            started = path.exists()
            done = settled(task, await _snapshot(path, task.id) if started else NOT_STARTED,
                           library, cfg.force)
            if done is not None:
                return done
            if ctx_budget_exhausted() and not started:
                summary.budget_stopped = True
                return budget_outcome(task)
            job = TaskJob(run_root=str(run.root), run_id=run.run_id, config=cfg, roles=roles,
                          task=task.model_dump(mode="json"), library_root=str(library.root),
                          writer=writer, sink=sink, limiters=limiters,
                          exemplar_root=str(exemplar_library.root) if exemplar_library else None,
                          overrides=overrides, lease_ttl_s=opts.lease_ttl_s,
                          submitted=time.time())
            ref = run_task.options(num_cpus=opts.task_cpus, max_retries=opts.max_retries,
                                   retry_exceptions=False, scheduling_strategy="SPREAD").remote(job)
            try:
                result = await ref
            except ray.exceptions.RayError as exc:
                # a RayTaskError: the task's own code raised outside its graph (e.g. no sandbox
                # on that node); else its worker was lost more often than it is retried
                own = isinstance(exc, ray.exceptions.RayTaskError)
                inner = getattr(exc, "cause", None) if own else None
                cause = inner if isinstance(inner, BaseException) else exc
                run.events.emit("task_error", task.id, error=f"{type(cause).__name__}: {cause}"[:3000],
                                traceback=str(exc)[-3000:] if own else "")
                return TaskOutcome(task_id=task.id, status="failed",
                                   reason_code="internal_error" if own else "worker_lost",
                                   reason=f"{type(cause).__name__}: {cause}"[:300])
        timings.append({k: float(result[k]) for k in TIMINGS}
                       | {"returned_s": time.time() - float(result["ended"])})
        return TaskOutcome.model_validate(result["outcome"])

    def ctx_budget_exhausted() -> bool:
        return cfg.budget_usd is not None and llm.total_cost_usd >= cfg.budget_usd

    async def tracked(task: TaskDescription) -> None:
        outcome = await one(task)
        summary.outcomes.append(outcome)
        run.events.emit("task_end", task.id, **outcome.model_dump(exclude={"task_id"}))
        if on_outcome is not None:
            on_outcome(outcome)

    tick: asyncio.Task[None] | None = None
    try:
        if cfg.warm_prefix:
            await warm_prefixes(make_context(run, llm, library, backend=None,
                                             exemplar_library=exemplar_library), tasks)
        run.events.emit("run_start", None, tasks=len(tasks), config_hash=cfg.config_hash(),
                        executor="ray")
        tick = asyncio.create_task(ticker())
        await asyncio.gather(*[tracked(t) for t in tasks])
    finally:
        if tick is not None:
            tick.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await tick
        with contextlib.suppress(Exception):
            stats = await asyncio.gather(*[a.stats.remote() for a in limiters.values()])
            run.events.emit("ray_stats", None, endpoints=dict(zip(map(redact_url, limiters), stats,
                                                                  strict=True)),
                            tasks=_timing_summary(timings))
        forwarded.drain()
        with contextlib.suppress(Exception):
            await follow()
        run.events = direct
        for actor in actors:
            with contextlib.suppress(Exception):
                ray.kill(actor)
        if ours:
            ray.shutdown()
    return finish(run, tasks, summary, t0)
