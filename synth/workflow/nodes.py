"""The nodes of a task's graph. Each is small, typed, and routes with ``Command``.

    draft -> check -> filter -> commit
               |  \\-> revise -> check ...
               \\-> reject
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from pathlib import Path
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

import synth.bootcamp
from filters.self_consistency import FilterConfig, FilterResult
from synth.extract import extract_code
from synth.gate import CheckReport
from synth.library import LibraryError, find_bootcamp_class
from synth.llm import LLMFailure
from synth.runs import task_slug
from synth.tasks import ReferenceProgram, TaskDescription, TaskKind
from synth.workflow.state import Candidate, TaskState, WorkflowContext

CONTRACT_SOURCE = Path(synth.bootcamp.__file__).read_text(encoding="utf-8")

#: exemplar bootcamps from the shipped library, best first, by kind of task
EXEMPLARS: dict[TaskKind, list[str]] = {
    TaskKind.STDIO_PROGRAM: ["interval_cover", "game24", "sudoku"],
    TaskKind.PYTHON_FUNCTION: ["code_output", "interval_cover", "cipher"],
    TaskKind.DESCRIPTION: ["knights_knaves", "sudoku", "cipher", "game24"],
}


# -- helpers ---------------------------------------------------------------------------------


def _task(state: TaskState) -> TaskDescription:
    return TaskDescription.model_validate(state["task"])


def _reference(task: TaskDescription) -> ReferenceProgram | None:
    """The task's oracle: a Python 3 stdio program, preferably one the source verified."""
    refs = [r for r in task.references if r.language == "python3" and r.interface == "stdio"]
    refs.sort(key=lambda r: not r.verified)
    return refs[0] if refs else None


def _exemplars(ctx: WorkflowContext, task: TaskDescription) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    available = set(ctx.exemplar_library.list_bootcamps())
    for name in EXEMPLARS.get(task.kind, []):
        if len(out) >= ctx.config.exemplars:
            break
        if name in available:
            rec = ctx.exemplar_library.record(name)
            out.append({"name": name, "title": rec.title, "code": ctx.exemplar_library.code(name)})
    return out


def _score(c: Candidate) -> tuple[int, int, int]:
    return (int(bool(c.get("passed"))), int(c.get("hard_passed", 0)), -int(c.get("index", 0)))


async def _ask_coder(
    ctx: WorkflowContext, task: TaskDescription, text: str, version: str, tag: str, rnd: int, index: int
) -> Candidate:
    try:
        res = await ctx.llm.complete(
            "coder", [{"role": "user", "content": text}], tag=f"{task.id}|{tag}", prompt_version=version
        )
    except LLMFailure as exc:
        return Candidate(round=rnd, index=index, code=None, failure=f"llm_{exc.kind}",
                         detail=exc.message[:500], prompt_version=version)
    ex = extract_code(res.text, res.finish_reason)
    return Candidate(round=rnd, index=index, code=ex.code, failure=ex.failure, detail=ex.detail,
                     prompt_version=version)


def _reject(code: str, reason: str, **update: Any) -> Command[Any]:
    return Command(goto="reject", update={"reason_code": code, "reason": reason, **update})


# -- nodes ----------------------------------------------------------------------------------


async def draft(state: TaskState, runtime: Runtime[WorkflowContext]) -> Command[Literal["check", "reject"]]:
    """Ask the code model for ``candidates`` modules in parallel."""
    ctx = runtime.context
    t0 = time.perf_counter()
    task = _task(state)
    ref = _reference(task)
    text, version = ctx.prompts.render(
        "draft.j2",
        contract=CONTRACT_SOURCE,
        exemplars=_exemplars(ctx, task),
        task=task,
        reference_program=ref.code if ref else None,
        has_reference=ref is not None,
    )
    cands = await asyncio.gather(
        *[_ask_coder(ctx, task, text, version, f"draft|{i}", 0, i) for i in range(ctx.config.candidates)]
    )
    ctx.run.events.emit("node", task.id, node="draft", round=0, prompt_version=version,
                        elapsed_s=round(time.perf_counter() - t0, 4), candidates=len(cands),
                        with_code=sum(1 for c in cands if c.get("code")),
                        failures=[c.get("failure") for c in cands if c.get("failure")])
    for c in cands:
        _save_candidate(ctx, task, c)
    if all((c.get("failure") or "").startswith("llm_") for c in cands):
        return _reject("llm_failure", f"every draft call failed: {cands[0].get('detail', '')[:200]}",
                       candidates=list(cands), round=0)
    return Command(goto="check", update={"candidates": list(cands), "round": 0, "status": "running"})


def _save_candidate(ctx: WorkflowContext, task: TaskDescription, c: Candidate) -> None:
    d = ctx.run.candidate_dir(task.id)
    stem = f"round_{c.get('round', 0)}_{c.get('index', 0)}"
    if c.get("code"):
        (d / f"{stem}.py").write_text(c["code"] or "", encoding="utf-8")
    else:
        (d / f"{stem}.failure.txt").write_text(f"{c.get('failure')}: {c.get('detail')}\n", encoding="utf-8")


async def check(
    state: TaskState, runtime: Runtime[WorkflowContext]
) -> Command[Literal["filter", "revise", "reject"]]:
    """Run the quality gate on every new candidate; keep the best so far; route."""
    ctx = runtime.context
    t0 = time.perf_counter()
    task = _task(state)
    ref = _reference(task)
    checked: list[Candidate] = []
    for c in state.get("candidates", []):
        c = Candidate(**c)
        if c.get("code") and not c.get("checked"):
            async with ctx.sandbox_slots:
                report: CheckReport = await asyncio.to_thread(
                    ctx.gate, c["code"] or "", reference=ref.code if ref else None,
                    backend=ctx.backend, name=f"{task.id} round {c.get('round')}",
                )
            stem = f"round_{c.get('round', 0)}_{c.get('index', 0)}"
            path = ctx.run.candidate_dir(task.id) / f"{stem}.check.json"
            path.write_text(report.model_dump_json(indent=1), encoding="utf-8")
            hard = [x for x in report.checks if x.hard]
            c["checked"] = True
            c["passed"] = report.passed
            c["hard_passed"] = sum(1 for x in hard if x.status.value == "passed")
            c["hard_total"] = len(hard)
            c["failing"] = [x.name for x in report.failing]
            c["feedback"] = report.feedback()
            c["infrastructure_error"] = report.infrastructure_error
            c["report_path"] = str(path.relative_to(ctx.run.root))
            ctx.run.events.emit(
                "sandbox", task.id, node="check", backend=report.backend, passed=report.passed,
                failing=c["failing"], elapsed_s=report.timings.get("total_s"), round=c.get("round"),
                infrastructure_error=report.infrastructure_error,
            )
        checked.append(c)
    prev = state.get("best")
    pool: list[Candidate] = checked + ([prev] if prev else [])
    best = max(pool, key=_score) if pool else None
    rnd = state.get("round", 0)
    history = [*state.get("history", []), {
        "round": rnd,
        "candidates": [{"index": c.get("index"), "passed": c.get("passed", False),
                        "hard_passed": c.get("hard_passed", 0), "failing": c.get("failing", []),
                        "failure": c.get("failure")} for c in checked],
    }]
    update: dict[str, Any] = {"candidates": checked, "best": best, "history": history}
    ctx.run.events.emit("node", task.id, node="check", round=rnd,
                        passed=bool(best and best.get("passed")),
                        elapsed_s=round(time.perf_counter() - t0, 4))
    if best is not None and best.get("passed"):
        return Command(goto="filter", update=update)
    if checked and all(c.get("infrastructure_error") for c in checked if c.get("code")) and any(
        c.get("code") for c in checked
    ):
        return _reject("sandbox_error", "the sandbox failed while checking (not the candidate's fault)",
                       **update)
    if rnd < ctx.config.rounds:
        return Command(goto="revise", update=update)
    why = ", ".join((best or {}).get("failing") or []) or (best or {}).get("failure") or "no code"
    return _reject("gate_failed", f"no candidate passed the gate after {rnd + 1} round(s): {why}",
                   **update)


async def revise(state: TaskState, runtime: Runtime[WorkflowContext]) -> Command[Literal["check", "reject"]]:
    """Show the code model its best candidate and the gate's evidence; get one revision."""
    ctx = runtime.context
    t0 = time.perf_counter()
    task = _task(state)
    ref = _reference(task)
    best = state.get("best") or {}
    rnd = state.get("round", 0) + 1
    if best.get("code"):
        text, version = ctx.prompts.render(
            "revise.j2", code=best["code"], failures=best.get("feedback", ""), round=rnd,
            rounds=ctx.config.rounds, task=task, has_reference=ref is not None,
        )
    else:
        text, version = ctx.prompts.render(
            "revise_extraction.j2", detail=best.get("detail", "no code"), round=rnd,
            rounds=ctx.config.rounds, task=task,
        )
    cand = await _ask_coder(ctx, task, text, version, f"revise|{rnd}", rnd, 0)
    ctx.run.events.emit("node", task.id, node="revise", round=rnd, prompt_version=version,
                        elapsed_s=round(time.perf_counter() - t0, 4), with_code=bool(cand.get("code")),
                        failures=[cand.get("failure")] if cand.get("failure") else [])
    _save_candidate(ctx, task, cand)
    if (cand.get("failure") or "").startswith("llm_") and rnd >= ctx.config.rounds:
        return _reject("llm_failure", f"revision call failed: {cand.get('detail', '')[:200]}", round=rnd)
    return Command(goto="check", update={"candidates": [cand], "round": rnd})


def _filter_summary(res: FilterResult) -> dict[str, Any]:
    return {
        "verdict": res.verdict, "reason": res.reason, "pass_rate": res.pass_rate,
        "answered": res.answered, "requested": res.requested, "stopped_early": res.stopped_early,
        "level_pass_rates": res.level_pass_rates, "level_counts": res.level_counts,
    }


async def filter_node(
    state: TaskState, runtime: Runtime[WorkflowContext]
) -> Command[Literal["commit", "reject"]]:
    """The solver's pass rate on the best candidate must lie in the band."""
    ctx = runtime.context
    t0 = time.perf_counter()
    task = _task(state)
    best = state.get("best") or {}
    code = best.get("code") or ""
    cfg = ctx.config

    async def solve(prompt: str) -> str:
        res = await ctx.llm.complete(
            "solver", [{"role": "user", "content": prompt}], tag=f"{task.id}|solve"
        )
        return res.text

    seed = int.from_bytes(hashlib.sha256(task.id.encode()).digest()[:4], "big")
    fcfg = FilterConfig(samples=cfg.samples, low=cfg.band_low, high=cfg.band_high, seed=seed,
                        solver_concurrency=cfg.llm_concurrency)
    async with ctx.sandbox_slots:
        res: FilterResult = await ctx.acceptance_filter(code, solve, config=fcfg, backend=ctx.backend)
    ctx.run.write_json(f"filter/{task_slug(task.id)}.json", res.model_dump(mode="json"))
    summary = _filter_summary(res)
    ctx.run.events.emit("filter", task.id, **summary)
    ctx.run.events.emit("node", task.id, node="filter", elapsed_s=round(time.perf_counter() - t0, 4))
    if res.accepted:
        return Command(goto="commit", update={"filter": summary})
    return _reject(res.verdict, f"filter: {res.reason}", filter=summary)


def _bootcamp_name(task: TaskDescription) -> str:
    slug = task.id.split("/", 1)[1]
    slug = re.sub(r"-[0-9a-f]{8}$", "", slug)
    return re.sub(r"[^a-z0-9_]+", "_", f"{task.source}_{slug}".lower()).strip("_")[:56]


async def commit(state: TaskState, runtime: Runtime[WorkflowContext]) -> Command[Literal["__end__"]]:
    """Write the accepted bootcamp into the library (idempotent when a node is replayed)."""
    ctx = runtime.context
    task = _task(state)
    best = state.get("best") or {}
    code = best.get("code") or ""
    filt = state.get("filter") or {}
    ref = _reference(task)
    cfg = ctx.config
    code_sha = hashlib.sha256(code.encode()).hexdigest()
    evidence = json.dumps(
        {"code": code_sha, "prompt": best.get("prompt_version"), "coder": cfg.coder.model,
         "solver": cfg.solver.model, "filter": filt}, sort_keys=True,
    )
    existing = ctx.library.has_task(task.source, task.id)
    if existing is not None and existing.code_sha256 == code_sha:
        name = existing.name  # replayed after a crash between commit and checkpoint
    else:
        replace_name = existing.name if (existing is not None and cfg.force) else None
        name = replace_name or ctx.library.unique_name(_bootcamp_name(task))
        try:
            ctx.library.commit(
                name=name, code=code, class_name=find_bootcamp_class(code), source=task.source,
                task_id=task.id, title=task.title, origin="generated",
                status="pending-review" if cfg.require_review else "accepted",
                reference_code=ref.code if ref else None, replace=replace_name is not None,
                pass_rate=filt.get("pass_rate"), samples=filt.get("answered"),
                level_pass_rates=filt.get("level_pass_rates", {}),
                levels=list(filt.get("level_pass_rates", {})),
                coder_model=cfg.coder.model, solver_model=cfg.solver.model,
                prompt_version=best.get("prompt_version"), run_id=ctx.run.run_id,
                content_hash=hashlib.sha256(evidence.encode()).hexdigest(),
            )
        except LibraryError as exc:
            return Command(goto="__end__", update={"status": "rejected", "reason_code": "commit_failed",
                                                    "reason": str(exc)})
    ctx.run.events.emit("commit", task.id, name=name, pass_rate=filt.get("pass_rate"))
    return Command(goto="__end__", update={"status": "accepted", "committed": name,
                                            "reason_code": "accepted", "reason": f"committed as {name}"})


async def reject(state: TaskState, runtime: Runtime[WorkflowContext]) -> dict[str, Any]:
    """End the task with the reason already in the state."""
    ctx = runtime.context
    ctx.run.events.emit("reject", state["task"]["id"], reason_code=state.get("reason_code"),
                        reason=state.get("reason"))
    return {"status": "rejected"}
