"""Runs many task threads concurrently within the LLM and sandbox limits; resumes runs.

One LangGraph thread per task (``thread_id`` = task id), checkpointed by ``AsyncSqliteSaver`` in
``runs/<run_id>/checkpoints.sqlite``. On ``--resume`` a finished thread is skipped, an
interrupted one continues from its last checkpoint, and a task that never started starts.
A failure inside one task (a bug, an unexpected exception) ends that task as ``failed`` with the
evidence in the event log; it never stops the run.

``execute`` runs the threads in this process; :mod:`synth.workflow.ray_executor` runs each as a
Ray task (``synth run --executor ray``) with the same per-task steps (:func:`settled`,
:func:`invoke`) and summary (:func:`finish`), and one checkpoint file per task.
"""

from __future__ import annotations

import asyncio
import json
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from pydantic import BaseModel, ConfigDict, Field

from synth.library import Library
from synth.models.llm import LLMCallRecord, LLMClient, LLMFailure
from synth.models.prompts import default_prompts
from synth.runs import Run, RunError, read_events
from synth.sandbox import get_backend
from synth.tasks import TaskDescription
from synth.workflow.graph import build_graph
from synth.workflow.state import Budget, WorkflowContext

OutcomeStatus = Literal["accepted", "rejected", "failed", "skipped", "not_started"]


class TaskOutcome(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task_id: str
    status: OutcomeStatus
    reason_code: str = ""
    reason: str = ""
    bootcamp: str | None = None


class RunSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    run_id: str
    run_dir: str
    outcomes: list[TaskOutcome] = Field(default_factory=list)
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0  # prompt tokens served from the endpoints' prefix caches
    llm_calls: int = 0
    llm_seconds: float = 0.0  # summed wall time of the model calls (they overlap)
    cost_usd: float = 0.0
    elapsed_s: float = 0.0
    budget_stopped: bool = False

    def counts(self) -> dict[str, int]:
        return dict(Counter(o.status for o in self.outcomes))

    def reasons(self) -> dict[str, int]:
        return dict(Counter(o.reason_code for o in self.outcomes if o.status != "accepted"))


def save_tasks(run: Run, tasks: list[TaskDescription]) -> None:
    lines = "".join(t.model_dump_json() + "\n" for t in tasks)
    (run.root / "tasks.jsonl").write_text(lines, encoding="utf-8")


def load_tasks(run: Run) -> list[TaskDescription]:
    path = run.root / "tasks.jsonl"
    return [TaskDescription.model_validate_json(x) for x in path.read_text().splitlines() if x]


def _outcome(task_id: str, values: dict[str, Any]) -> TaskOutcome:
    status = values.get("status")
    return TaskOutcome(
        task_id=task_id,
        status=status if status in ("accepted", "rejected") else "failed",
        reason_code=values.get("reason_code", ""),
        reason=values.get("reason", ""),
        bootcamp=values.get("committed"),
    )


RAY_CHECKPOINTS = "checkpoints"  # runs/<id>/checkpoints/<task>.sqlite: the Ray executor's


def check_executor(run: Run, executor: str) -> None:
    """Refuse to continue a run with the other executor (their checkpoints differ: one SQLite
    file for the local executor, one per task for the Ray executor)."""
    ray_dir = (run.root / RAY_CHECKPOINTS).is_dir()
    if executor == "local" and ray_dir:
        raise RunError(f"run {run.run_id} was started with --executor ray (its checkpoints are "
                       f"in {run.root / RAY_CHECKPOINTS}); resume it with --executor ray")
    if executor == "ray" and run.checkpoint_path.exists():
        raise RunError(f"run {run.run_id} was started with the local executor (its checkpoints "
                       f"are in {run.checkpoint_path}); resume it without --executor ray")


def thread_config(task_id: str) -> Any:
    return {"configurable": {"thread_id": task_id}, "recursion_limit": 100}


def make_context(run: Run, llm: LLMClient, library: Any, *, backend: Any,
                 exemplar_library: Library | None = None,
                 sandbox_slots: asyncio.Semaphore | None = None,
                 overrides: dict[str, Any] | None = None) -> WorkflowContext:
    """The nodes' context for ``run`` (``library``: a :class:`Library` or a stand-in with the
    methods the commit node uses)."""
    cfg = run.config
    if "judge" not in llm.roles:  # a client built for coder and solver only: the judge's default
        llm.roles["judge"] = cfg.judge or llm.roles.get("coder", cfg.coder)
    return WorkflowContext(
        config=cfg,
        run=run,
        llm=llm,
        library=library,
        exemplar_library=exemplar_library or Library(),
        backend=backend,
        prompts=default_prompts(),
        sandbox_slots=sandbox_slots or asyncio.Semaphore(cfg.sandbox_slots),
        budget=Budget(cfg.budget_usd, llm),
        curriculum=library.curriculum,
        **(overrides or {}),
    )


def settled(task: TaskDescription, snap: Any, library: Any, force: bool) -> TaskOutcome | None:
    """The outcome of a task that needs no work: its thread finished in an earlier session, or
    (not started, no ``force``) its bootcamp is in the library already. None: it must run.

    Finished means no step left *and* no task pending: a session killed after a node's writes
    were saved but before the checkpoint that applies them leaves ``next`` empty (LangGraph
    lists only tasks without writes) with the node in ``tasks`` and the values from before it;
    continuing the thread applies the writes and runs what follows."""
    if snap.values and not snap.next and not snap.tasks:
        return _outcome(task.id, snap.values)  # finished in an earlier session
    if not snap.values:
        existing = library.has_task(task.source, task.id)
        if existing is not None and not force:
            return TaskOutcome(task_id=task.id, status="skipped", reason_code="in_library",
                               reason=f"already in the library as {existing.name}",
                               bootcamp=existing.name)
    return None


def budget_outcome(task: TaskDescription) -> TaskOutcome:
    return TaskOutcome(task_id=task.id, status="not_started", reason_code="budget",
                       reason="the budget was spent before this task started")


async def invoke(graph: Any, task: TaskDescription, snap: Any, ctx: WorkflowContext) -> TaskOutcome:
    """Start (or continue, from its last checkpoint) the task's thread and run it to its end."""
    ctx.run.events.emit("task_start", task.id, resumed=bool(snap.values))
    inp = None if snap.values else {"task": task.model_dump(mode="json"), "round": 0}
    try:
        values = await graph.ainvoke(inp, thread_config(task.id), context=ctx)
    except Exception as exc:
        ctx.run.events.emit("task_error", task.id, error=f"{type(exc).__name__}: {exc}",
                            traceback="".join(traceback.format_exception(exc))[-3000:])
        return TaskOutcome(task_id=task.id, status="failed", reason_code="internal_error",
                           reason=f"{type(exc).__name__}: {exc}"[:300])
    return _outcome(task.id, values)


async def execute(
    run: Run,
    tasks: list[TaskDescription],
    *,
    llm: LLMClient,
    library: Library,
    exemplar_library: Library | None = None,
    on_outcome: Callable[[TaskOutcome], None] | None = None,
    overrides: dict[str, Any] | None = None,
) -> RunSummary:
    """Run (or continue) every task of ``run``; return what became of each."""
    cfg = run.config
    t0 = time.perf_counter()
    check_executor(run, "local")
    library.root.mkdir(parents=True, exist_ok=True)
    ctx = make_context(run, llm, library, backend=get_backend(cfg.sandbox),
                       exemplar_library=exemplar_library, overrides=overrides)
    summary = RunSummary(run_id=run.run_id, run_dir=str(run.root))
    slots = asyncio.Semaphore(cfg.concurrency)

    async with AsyncSqliteSaver.from_conn_string(str(run.checkpoint_path)) as saver:
        graph: Any = build_graph().compile(checkpointer=saver)
        if cfg.warm_prefix:
            # the modes of the tasks that start first (a resumed run's finished tasks, and the
            # ones past the first `concurrency`, would warm a prefix the server has dropped by
            # the time they need it: a full-mode warm-up of a HumanEval run cost 63-162 s)
            first: list[TaskDescription] = []
            for task in tasks:
                if len(first) >= cfg.concurrency:
                    break
                if settled(task, await graph.aget_state(thread_config(task.id)), library,
                           cfg.force) is None:
                    first.append(task)
            await warm_prefixes(ctx, first)
        run.events.emit("run_start", None, tasks=len(tasks), config_hash=cfg.config_hash())

        async def one(task: TaskDescription) -> TaskOutcome:
            snap = await graph.aget_state(thread_config(task.id))
            done = settled(task, snap, library, cfg.force)
            if done is not None:
                return done
            async with slots:
                if not snap.values and ctx.budget.exhausted:
                    summary.budget_stopped = True
                    return budget_outcome(task)
                return await invoke(graph, task, snap, ctx)

        async def tracked(task: TaskDescription) -> None:
            outcome = await one(task)
            summary.outcomes.append(outcome)
            run.events.emit("task_end", task.id, **outcome.model_dump(exclude={"task_id"}))
            if on_outcome is not None:
                on_outcome(outcome)

        await asyncio.gather(*[tracked(t) for t in tasks])

    return finish(run, tasks, summary, t0)


def finish(run: Run, tasks: list[TaskDescription], summary: RunSummary, t0: float) -> RunSummary:
    """Order the outcomes as the tasks, total the model calls of the event log, write the
    ``run_end`` event and summary.json."""
    order = {t.id: i for i, t in enumerate(tasks)}
    summary.outcomes.sort(key=lambda o: order.get(o.task_id, 0))
    calls = [e for e in read_events(run.root / "events.jsonl") if e.get("kind") == "llm_call"]
    summary.tokens_in = sum(int(e.get("tokens_in", 0)) for e in calls)
    summary.tokens_out = sum(int(e.get("tokens_out", 0)) for e in calls)
    summary.tokens_cached = sum(int(e.get("tokens_cached", 0) or 0) for e in calls)
    summary.llm_calls = len(calls)
    summary.llm_seconds = round(sum(float(e.get("latency_s", 0.0) or 0.0) for e in calls), 3)
    summary.cost_usd = round(sum(float(e.get("cost_usd", 0.0)) for e in calls), 6)
    summary.elapsed_s = round(time.perf_counter() - t0, 3)
    run.events.emit("run_end", None, **summary.model_dump(exclude={"outcomes"}),
                    counts=summary.counts(), reasons=summary.reasons())
    run.write_json("summary.json", summary.model_dump(mode="json"))
    return summary


async def warm_prefixes(ctx: WorkflowContext, tasks: list[TaskDescription]) -> None:
    """One call per mode the tasks use, carrying only that mode's stable prefix (and a one-word
    user turn, one token back), before the tasks start: a server that caches prompt prefixes
    (llama.cpp's slots and its RAM cache, vLLM) then reads the prefix once, where the tasks'
    parallel first calls would each read it on a machine with few cores. A failed warm-up is
    reported and changes nothing else."""
    from synth.workflow.coder import prefix, task_mode

    coder = ctx.llm.roles["coder"]
    ctx.llm.roles.setdefault("warmup", coder.model_copy(update={"max_tokens": 1}))
    for mode in sorted({task_mode(ctx.config.mode, t)[0] for t in tasks}):
        pre = prefix(ctx, mode)
        t0 = time.perf_counter()
        ok, problem = True, ""
        try:
            await ctx.llm.complete("warmup", [{"role": "system", "content": pre.text},
                                              {"role": "user", "content": "Reply OK."}],
                                   tag=f"warmup|{mode}", prompt_version=pre.version)
        except LLMFailure as exc:
            ok, problem = False, f"llm_{exc.kind}: {exc.message[:300]}"
        ctx.run.events.emit("warmup", None, mode=mode, prefix_sha256=pre.sha256, ok=ok,
                            problem=problem, elapsed_s=round(time.perf_counter() - t0, 2))


def ledger_sink(run: Run) -> Callable[[LLMCallRecord], None]:
    """Write every model call into the run's event log, attributed to its task."""

    def sink(record: LLMCallRecord) -> None:
        # a prefix warm-up belongs to the run, not to a task
        task = record.tag.split("|", 1)[0] if "|" in record.tag and record.role != "warmup" \
            else None
        run.events.emit("llm_call", task, **record.model_dump())

    return sink


def read_summary(run_dir: Path) -> dict[str, Any]:
    return json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
