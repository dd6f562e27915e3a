"""`synth run`: grow the library from a task-description source (the main job)."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Group
from rich.table import Table

from synth.commands.console import Console
from synth.commands.tables import name_column, other_column

if TYPE_CHECKING:  # heavy imports (openai, langgraph) happen only when `synth run` runs
    from synth.models.llm import LLMClient, ModelSpec
    from synth.models.local import EmbeddedModel
    from synth.runs import Run, RunConfig
    from synth.tasks import TaskDescription
    from synth.workflow.orchestrator import RunSummary

#: synth.library.DEFAULT_LIBRARY (a test pins it), here so that `synth --help` imports no pydantic
DEFAULT_LIBRARY = Path(__file__).resolve().parents[2] / "generated_bootcamps"
err = Console(stderr=True, highlight=False)
LOCAL = "local"
DEFAULT_CODER = "gpt-4.1-mini"
DEFAULT_SOLVER = "gpt-4.1-nano"


def fail(message: str, code: int = 2) -> typer.Exit:
    from synth.models.llm import (
        redact_text,  # a URL in the message is shown without its credentials
    )

    err.print(f"[bold red]error:[/] {redact_text(message)}", soft_wrap=True)
    return typer.Exit(code)


def _spec(model: str | None, base_url: str | None, key: str | None, default: str, **kw: Any) -> ModelSpec:
    from pydantic import SecretStr

    from synth.models.llm import ModelSpec

    return ModelSpec(model=model or default, base_url=base_url, api_key=SecretStr(key) if key else None, **kw)


def resolve_models(
    model: str | None, coder_model: str | None, solver_model: str | None, base_url: str | None,
    coder_base_url: str | None, solver_base_url: str | None, env: dict[str, str],
) -> tuple[ModelSpec, ModelSpec, EmbeddedModel | None]:
    """The two roles' specs and the embedded model to start, if any.

    No endpoint, key or model named: the embedded code model (``local``) for every role;
    ``--model local-smoke`` picks the smoke-test model. The environment is read here, at the
    edge: ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY``.
    """
    from synth.models.llm import ModelSpec
    from synth.models.local import MODELS

    base = base_url or env.get("OPENAI_BASE_URL") or None
    key = env.get("OPENAI_API_KEY") or None
    configured = any([base, key, coder_base_url, solver_base_url])
    if model is None and not configured and not coder_model and not solver_model:
        model = LOCAL
    embedded = MODELS.get(model or "")
    if embedded is not None:
        spec = ModelSpec(model=embedded.alias, base_url=LOCAL, max_tokens=embedded.coder_max_tokens,
                         temperature=0.3)
        return spec, spec.model_copy(update={"max_tokens": 384, "temperature": 0.7}), embedded
    if model is not None:
        coder_model = coder_model or model
        solver_model = solver_model or model
    coder = _spec(coder_model, coder_base_url or base, key, DEFAULT_CODER)
    solver = _spec(solver_model, solver_base_url or base, key, DEFAULT_SOLVER, max_tokens=4096)
    return coder, solver, None


def readiness(task: TaskDescription) -> int:
    """How ready ``task`` is for a cheap bootcamp, read from the task alone (nothing runs): one
    point off for a starting generator that reads the whole input (a stdin task's layout and
    every rule, or every argument of a function task: :func:`synth.workflow.coder.starting_draft`),
    one for an answer key that can be checked without a model (a function task's reference, or
    two verified solutions to vote: :mod:`synth.gate.key`). 0 is the most ready; the first key of
    ``--order simplest``."""
    from synth.workflow.coder import starting_draft, stdin_scaffold_of
    from synth.workflow.scaffold import Scaffold

    stdin = stdin_scaffold_of(task)
    if stdin is not None:
        # (a task loaded unverified counts its solutions: the picked ones are verified next)
        return 2 - (not stdin.left) - (len(task.verified_references or task.references) >= 2)
    function, _ = starting_draft(task, "function")
    if isinstance(function, Scaffold):  # the key is the task's reference function
        return 1 - function.complete
    return 2


def input_size(task: TaskDescription) -> tuple[int, int]:
    """(lines, characters) of the task's first example input: the order of ``--order simplest``
    (a task without examples sorts last)."""
    if not task.examples:
        return (1 << 30, 1 << 30)
    text = task.examples[0].input
    return (len(text.splitlines()), len(text))


class SourceUsedUp(Exception):
    """Every task the source gave is in the library already (and ``--force`` was not given)."""

    def __init__(self, source: str, total: int, path: Path | None) -> None:
        from synth.sources import list_sources

        others = ", ".join(s.name for s in list_sources() if s.name != source)
        where = f"{path}" if path else "the bundled sample"
        super().__init__(
            f"all {total} task(s) of {source} ({where}) are in the library already; nothing new to "
            f"do. Give --path with more tasks, another --source ({others}), or --force to redo them.")


def tried_before(runs_dir: Path) -> set[str]:
    """The task ids an earlier run in ``runs_dir`` ended without a bootcamp (its
    ``summary.json``: rejected, or failed), which ``--order simplest`` takes after the untried
    ones: a task just found too hard is not the next run's best bet."""
    tried: set[str] = set()
    for summary in sorted(runs_dir.glob("*/summary.json")) if runs_dir.is_dir() else []:
        try:
            outcomes = json.loads(summary.read_text(encoding="utf-8")).get("outcomes") or []
        except (OSError, ValueError, AttributeError):
            continue  # a damaged or foreign file: it only orders tasks
        tried |= {str(o.get("task_id")) for o in outcomes
                  if isinstance(o, dict) and o.get("status") != "accepted"}
    return tried


def load_source_tasks(source: str, path: Path | None, limit: int | None, sandbox: str,
                      order: str = "source", library: Any = None,
                      tried: set[str] | frozenset[str] = frozenset()) -> list[TaskDescription]:
    """The source's tasks not yet in ``library`` (a :class:`~synth.library.Library`; None: no
    filter), at most ``limit``: the first ones in the source's order, or with
    ``order="simplest"`` the most ready ones (:func:`readiness`), the shortest example inputs
    first among equals, and the ids in ``tried`` (ended without a bootcamp in an earlier run:
    :func:`tried_before`) after all others (all are loaded to pick).
    Tasks in the library are dropped before the limit, so ``--limit N`` means N new tasks.
    Raises :class:`SourceUsedUp` when the source gave tasks and every one is in the library."""
    from synth.commands.sources import consume, open_stream
    from synth.tasks import SourceError

    if order not in ("source", "simplest"):
        raise fail(f"--order must be source or simplest, not {order!r}")
    given: dict[str, Any] = {"path": path}  # the limit is applied below, to new tasks only
    if source == "codecontests":
        given["backend"] = sandbox
    # a source that verifies its tasks' solutions in the sandbox can verify the picked ones only
    # (--order simplest reads every task to pick a few: 42 bundled tasks took 2.5 minutes)
    verify = _verifier(source) if order == "simplest" and limit is not None else None
    if verify is not None:
        given["verify"] = False
    done = ({(r.source, r.task_id) for r in library.read_manifest().bootcamps}
            if library is not None else set())
    tasks: list[TaskDescription] = []
    skipped: Counter[str] = Counter()
    in_library = 0
    for item in consume(open_stream(source, **given)):
        if isinstance(item, SourceError):
            skipped[str(item.reason)] += 1
        elif (item.source, item.id) in done:
            in_library += 1
        else:
            tasks.append(item)
            if order == "source" and limit is not None and len(tasks) >= limit:
                break
    if skipped:
        err.print("source: skipped " + ", ".join(f"{n} ({r})" for r, n in skipped.most_common()))
    if in_library and not tasks:
        raise SourceUsedUp(source, in_library, path)
    if in_library:
        err.print(f"source: {in_library} task(s) already in the library, not counted by --limit")
    if order == "simplest":
        # the tasks a starting generator reads whole and whose key needs no model first, then
        # the shortest example inputs; stable: ties keep the source's order
        tasks = sorted(tasks, key=lambda t: (t.id in tried, readiness(t), input_size(t)))
        if verify is not None:
            tasks = _verified_first(verify, tasks, limit, given)
        tasks = tasks[:limit]
    return tasks


def _verifier(source: str) -> Any:
    """The source's ``verify(task, **options)`` (a source that runs its tasks' solutions), or
    None."""
    from synth.sources import get_source

    return getattr(get_source(source), "verify", None)


def _verified_first(verify: Any, tasks: list[TaskDescription], limit: int | None,
                    given: dict[str, Any]) -> list[TaskDescription]:
    """The first ``limit`` of ``tasks`` (loaded unverified, in the order picked) whose
    solutions the source's ``verify`` verifies now, in that order; a task none of whose
    solutions reproduce its public tests is skipped and said so."""
    from synth.tasks import SourceError

    options = {k: v for k, v in given.items() if k != "verify"}
    kept: list[TaskDescription] = []
    for task in tasks:
        if limit is not None and len(kept) >= limit:
            break
        item = verify(task, **options)
        if isinstance(item, SourceError):
            err.print(f"source: skipped {task.id} ({item.reason}): {item.message[:200]}")
        else:
            kept.append(item)
    return kept


def _view(summary: dict[str, Any], llm: LLMClient, started: float, total: int) -> Table:
    t = Table(title="synth run", show_header=False, expand=False)
    counts: Counter[str] = summary["counts"]
    t.add_row("tasks done", f"{sum(counts.values())} / {total}")
    t.add_row("accepted", str(counts.get("accepted", 0)))
    reasons: Counter[str] = summary["reasons"]
    t.add_row("rejected", ", ".join(f"{r}: {n}" for r, n in reasons.most_common()) or "0")
    t.add_row("tokens in / out / cached", f"{llm.total_tokens_in:,} / {llm.total_tokens_out:,} / "
              f"{llm.total_tokens_cached:,}")
    t.add_row("cost", f"${llm.total_cost_usd:.4f}")
    t.add_row("elapsed", f"{time.monotonic() - started:.0f}s")
    return t


def _final_table(summary: RunSummary, width: int = 80) -> Group:
    """The outcomes, task ids whole; the bootcamps' names in a column when the terminal has
    room for both names whole, else listed under the table."""
    t = Table(title=f"run {summary.run_id}: {summary.counts()}")
    tasks = [o.task_id for o in summary.outcomes]
    names = [o.bootcamp or "" for o in summary.outcomes]
    beside = max(map(len, tasks), default=4) + max(map(len, names), default=8) + 40 <= width
    name_column(t, "task", tasks)
    other_column(t, "status")
    other_column(t, "reason")
    if beside:
        name_column(t, "bootcamp", names)
    for o in summary.outcomes:
        style = {"accepted": "green", "rejected": "red", "failed": "bold red"}.get(o.status, "dim")
        t.add_row(o.task_id, f"[{style}]{o.status}[/]", f"{o.reason_code}: {o.reason}"[:160],
                  *([o.bootcamp or ""] if beside else []))
    under = [] if beside else [f"{o.task_id} -> bootcamp {o.bootcamp}"
                               for o in summary.outcomes if o.bootcamp]
    return Group(t, *under)


def run_command(
    source: Annotated[str, typer.Option(help="Task-description source (see `synth sources list`).")] = "codecontests",
    path: Annotated[Path | None, typer.Option(help="Source data file or folder (default: bundled sample).")] = None,
    limit: Annotated[int | None, typer.Option(help="At most this many tasks not yet in the library (default: all; 2 for the embedded model). Tasks in the library are skipped first.")] = None,
    model: Annotated[str | None, typer.Option(help="One model for every role; 'local' = the embedded Qwen2.5-Coder-1.5B (the default without an endpoint), 'local-smoke' = SmolLM2-135M.")] = None,
    coder_model: Annotated[str | None, typer.Option(help=f"Code model (default {DEFAULT_CODER}).")] = None,
    solver_model: Annotated[str | None, typer.Option(help=f"Solver model (default {DEFAULT_SOLVER}).")] = None,
    base_url: Annotated[str | None, typer.Option(help="Endpoint for both roles (default: OPENAI_BASE_URL).")] = None,
    coder_base_url: Annotated[str | None, typer.Option(help="Endpoint of the code model.")] = None,
    solver_base_url: Annotated[str | None, typer.Option(help="Endpoint of the solver model.")] = None,
    judge_model: Annotated[str | None, typer.Option(help="Model that writes the independent checker (default: the code model).")] = None,
    judge_base_url: Annotated[str | None, typer.Option(help="Endpoint of the judge model (default: --base-url / OPENAI_BASE_URL).")] = None,
    candidates: Annotated[int | None, typer.Option(help="Drafts per task, in parallel (default 2; 1 for the embedded model).")] = None,
    rounds: Annotated[int | None, typer.Option(help="Revision rounds after the draft (default 3; 1 for the embedded model).")] = None,
    samples: Annotated[int | None, typer.Option(help="K: solver attempts in the filter (default 64; 12 for the embedded model).")] = None,
    concurrency: Annotated[int | None, typer.Option(help="Tasks in flight at once (default 4; 2 for the embedded model, whose one server slot answers one call at a time).")] = None,
    llm_concurrency: Annotated[int, typer.Option(help="Model calls in flight per endpoint.")] = 16,
    sandbox: Annotated[str, typer.Option(help="auto | process | bwrap | docker")] = "auto",
    library: Annotated[Path, typer.Option(help="Library to commit into.")] = DEFAULT_LIBRARY,
    runs_dir: Annotated[Path, typer.Option(help="Folder of run folders.")] = Path("runs"),
    budget: Annotated[float | None, typer.Option(help="Stop starting new tasks once this many USD are spent.")] = None,
    prices: Annotated[Path | None, typer.Option(help="JSON price table {model: {input_per_mtok, output_per_mtok}}.")] = None,
    require_review: Annotated[bool, typer.Option(help="Commit as pending review instead of live.")] = False,
    force: Annotated[bool, typer.Option(help="Synthesise tasks already in the library again.")] = False,
    dedup: Annotated[bool, typer.Option("--dedup/--no-dedup", help="Reject a bootcamp that behaves like one of its source family in the library, or states the same task (duplicate_of; see docs/library.md).")] = True,
    request_timeout: Annotated[float | None, typer.Option(help="Seconds before a model call is retried (default 180; 1200 for the local model).")] = None,
    exemplars: Annotated[int | None, typer.Option(help="Exemplar bootcamps in the draft prompt (default 2; 1 for the local model).")] = None,
    compact_exemplars: Annotated[bool | None, typer.Option("--compact-exemplars/--full-exemplars", help="One short exemplar, docstrings and comments stripped, for small context windows (default: full exemplars).")] = None,
    mode: Annotated[str, typer.Option(help="full: the model writes the whole module; compiled: a task's reference program is embedded and the model writes the rest; auto: compiled where a verified reference program exists.")] = "auto",
    steer_rounds: Annotated[int, typer.Option(help="Difficulty-steering rounds after a too-easy or too-hard filter verdict (0: reject at once).")] = 1,
    calibrate: Annotated[int, typer.Option(help="K: once the filter accepts, measure the pass rate on K more answers, all of them (as `synth calibrate -k K`), and commit only if it is in the band too; the record carries that calibration (0: off).")] = 0,
    allow_unverified_key: Annotated[bool, typer.Option("--allow-unverified-key", help="Commit compiled bootcamps whose answer key (the task's reference program) no second source verified on generated inputs: no other solution of the task agrees with it and the judge gave no usable solver. The record says so. Default: such bootcamps are rejected (key_unverified).")] = False,
    validator: Annotated[str | None, typer.Option(help="When the judge model writes an input validator for a task whose candidates render stdin: always, or unread (only when the statement's own input check, which the gate runs without a model, leaves part of the Input section unread). Default: always; unread for the embedded model.")] = None,
    key_solver: Annotated[str, typer.Option(help="When the judge model writes a solver program that votes on a compiled task's answer key: auto (when the task has no other independent solution) or always (also when it has: solutions from one file can be written to agree).")] = "auto",
    order: Annotated[str | None, typer.Option(help="Which tasks --limit keeps: source (the first ones) or simplest (tasks whose input a starting generator reads whole and whose answer key two solutions can check first, then the shortest example inputs). Default: source; simplest for the embedded model.")] = None,
    resume: Annotated[str | None, typer.Option(help="Continue the run with this id.")] = None,
    run_id: Annotated[str | None, typer.Option(help="Name the new run's folder (default: the start time and a random suffix); a long run kept across machines gets a name to resume by.")] = None,
    executor: Annotated[str, typer.Option(help="local: every task in this process; ray: each task's graph as a Ray task on a cluster (the ray extra; the run folder must be on storage every node sees).")] = "local",
    ray_address: Annotated[str | None, typer.Option(help="Ray cluster to join with --executor ray (default: RAY_ADDRESS, else a Ray instance started for the run).")] = None,
) -> None:
    """Turn task descriptions into gated, filtered bootcamps committed into the library."""
    import asyncio

    from pydantic import ValidationError

    from synth.models.llm import ModelSpec, Price
    from synth.models.local import LocalModelError, LocalModelServer
    from synth.runs import Run, RunConfig, RunError
    from synth.sandbox import SandboxUnavailableError, close_backends, get_backend
    from synth.workflow.orchestrator import check_executor, load_tasks, save_tasks

    if executor not in ("local", "ray"):
        raise fail(f"--executor must be local or ray, not {executor!r}")
    if run_id and resume:
        raise fail("--run-id names a new run; --resume continues one (give one of them)")
    if ray_address and executor != "ray":
        raise fail("--ray-address needs --executor ray")
    if executor == "ray":
        import importlib.util

        if importlib.util.find_spec("ray") is None:
            raise fail("--executor ray needs Ray, which is not installed: pip install 'bootcamp-synth[ray]'")
    coder, solver, embedded = resolve_models(
        model, coder_model, solver_model, base_url, coder_base_url, solver_base_url, dict(os.environ)
    )
    judge = None  # None: the judge role uses the code model (and its endpoint)
    if judge_model or judge_base_url:
        judge = _spec(judge_model or coder.model, judge_base_url or base_url or os.environ.get("OPENAI_BASE_URL") or None,
                      os.environ.get("OPENAI_API_KEY") or None, coder.model)
    use_local = embedded is not None
    timeout_s = request_timeout if request_timeout is not None else (1200.0 if use_local else 180.0)
    if use_local:  # sized so that the default run ends in about 15 minutes on 2 cores
        limit = limit if limit is not None else 2
        # one draft: from the filled-in skeleton the model's drafts are near-deterministic (6 of
        # the 7 second drafts in the kept runs of 2026-12-07 were byte for byte the first); the
        # revision round, which sees the gate's findings, is the second try
        candidates = candidates if candidates is not None else 1
        rounds = rounds if rounds is not None else 1
        samples = samples if samples is not None else 12
        order = order or "simplest"
        # one llama-server slot: more tasks in flight only queue their drafts past the timeout
        # (4 tasks x 2 drafts left 2 of 4 HumanEval tasks as llm_failure at 1,200 s)
        concurrency = concurrency if concurrency is not None else 2
        err.print(f"embedded model: {limit} task(s) ({'the most ready first' if order == 'simplest' else 'in source order'}), "
                  f"{candidates} draft(s), {rounds} revision round(s), {samples} solver samples "
                  "(--limit/--order/--candidates/--rounds/--samples change this)")
    order = order or "source"
    concurrency = concurrency if concurrency is not None else 4
    candidates = candidates if candidates is not None else 2
    rounds = rounds if rounds is not None else 3
    samples = samples if samples is not None else 64
    try:
        coder = coder.model_copy(update={"timeout_s": timeout_s})
        solver = solver.model_copy(update={"timeout_s": timeout_s})
        judge = judge.model_copy(update={"timeout_s": timeout_s}) if judge else None
        ModelSpec.model_validate(coder.model_dump())
    except ValidationError as exc:
        raise fail(f"invalid --request-timeout: {exc.errors()[0]['msg']}") from None
    try:
        price_table = {k: Price.model_validate(v) for k, v in json.loads(prices.read_text()).items()} if prices else {}
        cfg = RunConfig(
            source=source, path=str(path) if path else None, limit=limit, coder=coder, solver=solver, judge=judge,
            candidates=candidates, rounds=rounds, samples=samples, sandbox=sandbox,  # type: ignore[arg-type]
            library=str(library.resolve()), require_review=require_review, force=force, dedup=dedup,
            prices=price_table, concurrency=concurrency, llm_concurrency=llm_concurrency,
            budget_usd=budget, exemplars=exemplars if exemplars is not None else (1 if use_local else 2),
            compact_exemplars=bool(compact_exemplars), mode=mode, steer_rounds=steer_rounds,  # type: ignore[arg-type]
            warm_prefix=use_local, allow_unverified_key=allow_unverified_key,
            key_solver=key_solver, calibrate=calibrate,  # type: ignore[arg-type]
            validator=validator or ("unread" if use_local else "always"),  # type: ignore[arg-type]
        )
    except (ValidationError, ValueError, OSError) as exc:
        raise fail(f"invalid option: {str(exc).splitlines()[0]}") from None
    try:
        get_backend(cfg.sandbox)
    except SandboxUnavailableError as exc:
        raise fail(f"sandbox: {exc}") from None
    try:
        if resume:
            run = Run.resume(runs_dir, resume, cfg)
            check_executor(run, executor)
            tasks = load_tasks(run)
            err.print(f"resuming run {run.run_id} ({len(tasks)} tasks)")
        else:
            from synth.library import Library

            try:
                tasks = load_source_tasks(source, path, limit, sandbox, order,
                                          library=None if force or not library.exists()
                                          else Library(library),
                                          tried=tried_before(runs_dir))
            except SourceUsedUp as exc:
                err.print(str(exc), soft_wrap=True)
                raise typer.Exit(0) from None
            if not tasks:
                raise fail(f"source {source!r} gave no tasks")
            run = Run.create(runs_dir, cfg, run_id)
            save_tasks(run, tasks)
            err.print(f"run {run.run_id}: {len(tasks)} task(s) from {source} -> {run.root}")
    except RunError as exc:
        raise fail(str(exc)) from None

    server = LocalModelServer(embedded) if embedded is not None else None
    if server is not None:  # a SIGTERM stops the server this process started, then the run
        import signal
        import sys

        def on_term(*_: object) -> None:
            server.stop()
            sys.exit(128 + signal.SIGTERM)

        signal.signal(signal.SIGTERM, on_term)
    if server is not None and embedded is not None:
        err.print(f"[yellow]{embedded.notice}[/]", soft_wrap=True)
        try:
            server.start()
        except LocalModelError as exc:
            raise fail(str(exc)) from None
        coder = coder.model_copy(update={"base_url": server.base_url})
        solver = solver.model_copy(update={"base_url": server.base_url})
    try:
        summary = asyncio.run(_run(run, tasks, coder, solver, cfg, executor, ray_address))
    except RunError as exc:  # the Ray cluster could not be joined
        raise fail(str(exc)) from None
    finally:
        if server is not None:
            server.stop()
        close_backends()
    err.print(_final_table(summary, err.width))
    err.print(
        f"{summary.counts().get('accepted', 0)} accepted of {len(tasks)}; tokens {summary.tokens_in:,} in "
        f"({summary.tokens_cached:,} cached) / {summary.tokens_out:,} out; {summary.llm_calls} model calls, "
        f"{summary.llm_seconds:.1f}s in calls; ${summary.cost_usd:.4f}; {summary.elapsed_s:.1f}s; run folder {run.root}"
    )
    if summary.budget_stopped:
        err.print("[yellow]the budget was spent: tasks not started are left for `--resume`[/]")


async def _run(run: Run, tasks: list[TaskDescription], coder: ModelSpec, solver: ModelSpec, cfg: RunConfig,
               executor: str = "local", ray_address: str | None = None) -> RunSummary:
    import asyncio

    from rich.live import Live

    from synth.library import Library
    from synth.models.llm import LLMClient
    from synth.workflow.orchestrator import TaskOutcome, execute, ledger_sink

    llm = LLMClient(
        {"coder": coder, "solver": solver, "judge": cfg.judge or coder}, prices=cfg.prices, max_concurrency=cfg.llm_concurrency,
        on_record=ledger_sink(run), transcript_dir=run.root / "transcripts",
    )
    started = time.monotonic()
    live_state: dict[str, Any] = {"counts": Counter(), "reasons": Counter()}

    def on_outcome(o: TaskOutcome) -> None:
        live_state["counts"][o.status] += 1
        if o.status != "accepted":
            live_state["reasons"][o.reason_code] += 1

    with Live(_view(live_state, llm, started, len(tasks)), console=err, refresh_per_second=2, transient=True) as live:
        async def refresh() -> None:
            while True:
                live.update(Group(_view(live_state, llm, started, len(tasks))))
                await asyncio.sleep(0.5)

        ticker = asyncio.create_task(refresh())
        try:
            if executor == "ray":
                from synth.workflow.ray_executor import RayOptions, execute_ray

                return await execute_ray(run, tasks, llm=llm, library=Library(Path(cfg.library)),
                                         on_outcome=on_outcome, options=RayOptions(address=ray_address))
            return await execute(run, tasks, llm=llm, library=Library(Path(cfg.library)), on_outcome=on_outcome)
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            await llm.aclose()
