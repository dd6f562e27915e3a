"""The nodes of a task's graph. Each is small, typed, and routes with ``Command``.

    draft -> judge -> check -> filter -> commit
                        |        \\-> steer -> judge -> check -> filter ...  (too easy / too hard)
                        |-> revise -> judge -> check ...
                        \\-> reject

The judge node (the independent checker) lives in :mod:`synth.workflow.judge`, the steer node
(difficulty steering) in :mod:`synth.workflow.steer`, the coder's prompts and call in
:mod:`synth.workflow.coder`.

Rounds: ``round`` numbers every coder step of a task (draft 0, then each revision or steering
round); the revision budget (``rounds``) counts revisions only, the steering budget
(``steer_rounds``) steering rounds only.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from filters.self_consistency import FilterConfig, FilterResult
from synth import compiled
from synth.gate import CheckConfig, CheckReport
from synth.library import (
    Calibration,
    LibraryError,
    endpoint_name,
    find_bootcamp_class,
    utc_now,
)
from synth.models.local import MODELS
from synth.runs import task_slug
from synth.tasks import TaskDescription
from synth.workflow import answer_key, input_validator
from synth.workflow.coder import (
    apply_repairs,
    ask_and_repair,
    assemble,
    declares_stress,
    earlier_rounds,
    embeds,
    model_part,
    prefix,
    reference,
    render,
    save_candidate,
    state_mode,
    task_mode,
)
from synth.workflow.deduplicate import commit_checked, statement_key
from synth.workflow.judge import COMPILED_NO_CHECKER, checker_dir
from synth.workflow.judge_program import CHECKER_MARK, VALIDATOR_MARK
from synth.workflow.repair import gate_errors, repair_from_errors
from synth.workflow.resize import SIZE_CHECKS, level_variants
from synth.workflow.state import Candidate, CheckerInfo, Steering, TaskState, WorkflowContext

#: failing checks named (with their reasons) per candidate in the earlier-rounds lines
KEY_FAILURES = 3
#: gate runs after a repair the gate's errors called for, per candidate
MAX_ERROR_REPAIRS = 2
#: the checks whose errors can call for a repair
EARLY_CHECKS = frozenset({"load", "construct", "generate"})
#: gate runs of rewritten LEVELS (:mod:`synth.workflow.resize`) per candidate, at most
MAX_SIZE_TRIALS = 5

# -- helpers ---------------------------------------------------------------------------------


def _task(state: TaskState) -> TaskDescription:
    return TaskDescription.model_validate(state["task"])


def _score(c: Candidate) -> tuple[int, int, int]:
    return (int(bool(c.get("passed"))), int(c.get("hard_passed", 0)), -int(c.get("index", 0)))


def _reject(code: str, reason: str, **update: Any) -> Command[Any]:
    return Command(goto="reject", update={"reason_code": code, "reason": reason, **update})


def revisions_used(state: TaskState) -> int:
    """Revision rounds so far: every round after the draft that was not a steering round."""
    return max(0, state.get("round", 0) - len(state.get("steering", [])))


def _pending_steer(state: TaskState) -> Steering | None:
    steering = state.get("steering", [])
    return steering[-1] if steering and steering[-1].get("verdict_after") is None else None


def _settle_steer(ctx: WorkflowContext, task: TaskDescription, state: TaskState, verdict: str,
                  rate: float | None = None, levels: dict[str, float] | None = None
                  ) -> list[Steering]:
    """The steering list with its pending round settled (and a ``steer`` result event)."""
    steering = list(state.get("steering", []))
    pending = _pending_steer(state)
    if pending is None:
        return steering
    done = Steering(**{**pending, "verdict_after": verdict, "pass_rate_after": rate,
                       "level_pass_rates_after": levels or {}})
    steering[-1] = done
    ctx.run.events.emit("steer", task.id, action="result", step=done.get("step"),
                        round=done.get("round"), verdict_before=done.get("verdict_before"),
                        pass_rate_before=done.get("pass_rate_before"), verdict_after=verdict,
                        pass_rate_after=rate, level_pass_rates_before=done.get("level_pass_rates_before"),
                        level_pass_rates_after=levels or {})
    return steering


# -- nodes ----------------------------------------------------------------------------------


async def draft(state: TaskState, runtime: Runtime[WorkflowContext]) -> Command[Literal["judge", "reject"]]:
    """Decide the task's mode; ask the code model for ``candidates`` modules in parallel."""
    ctx = runtime.context
    t0 = time.perf_counter()
    task = _task(state)
    mode, why = task_mode(ctx.config.mode, task)
    text, version = render(ctx, "draft.j2", task, mode)
    pre = prefix(ctx, mode)
    cands = await asyncio.gather(
        *[ask_and_repair(ctx, task, mode, text, version, f"draft|{i}", 0, i)
          for i in range(ctx.config.candidates)]
    )
    ctx.run.events.emit("node", task.id, node="draft", round=0, prompt_version=version, mode=mode,
                        mode_reason=why, prefix_sha256=pre.sha256, prefix_chars=len(pre.text),
                        task_chars=len(text), elapsed_s=round(time.perf_counter() - t0, 4),
                        candidates=len(cands), with_code=sum(1 for c in cands if c.get("code")),
                        failures=[c.get("failure") for c in cands if c.get("failure")],
                        repairs=sum(len(c.get("repairs") or []) for c in cands))
    update: dict[str, Any] = {"candidates": list(cands), "round": 0, "mode": mode}
    if all((c.get("failure") or "").startswith("llm_") for c in cands):
        return _reject("llm_failure", f"every draft call failed: {cands[0].get('detail', '')[:200]}",
                       **update)
    return Command(goto="judge", update={**update, "status": "running"})


def _key_failures(report: CheckReport) -> list[str]:
    return [f"{x.name} ({x.reason[:160]})" for x in report.failing[:KEY_FAILURES]]


async def _gate(ctx: WorkflowContext, task: TaskDescription, c: Candidate, with_checker: dict[str, Any],
                fail_fast: bool = False) -> CheckReport:
    """The gate on ``c``, with the task's evidence. ``fail_fast``: the suite ends at the first
    check that rejects (a trial that only has to pass, like a size repair's variant: its
    report is kept only when nothing rejects, and then every check ran)."""
    ref = reference(task, c.get("mode") or "full")
    with_checker = dict(with_checker)
    voters = answer_key.voters(task, c, with_checker.pop("solver", None))
    if voters:  # the answer key's other voters (the key check)
        with_checker["voters"] = voters
    if ref is not None and task.examples:  # the oracle compares render_stdin's shape with them
        with_checker = {**with_checker, "example_inputs": [e.input for e in task.examples]}
    if c.get("mode") == "function" and task.tests.check_code:
        # the inputs check reads the arguments of the task's own test calls too
        with_checker = {**with_checker, "function_tests": task.tests.check_code}
    if task.examples:
        # the inputs check reads the statement: a compiled module embeds this same text; a
        # full-mode module that defines render_stdin is checked against it too
        with_checker = {**with_checker, "task_text": compiled.task_text(task)}
    # the library's curriculum names, checked with the levels (a candidate named otherwise is
    # revised, not filtered and then refused by the library's commit)
    if fail_fast or ctx.curriculum:
        with_checker = {**with_checker,
                        "config": CheckConfig(fail_fast=fail_fast, level_names=ctx.curriculum)}
    async with ctx.sandbox_slots:
        report: CheckReport = await asyncio.to_thread(
            ctx.gate, c["code"] or "", reference=ref.code if ref else None,
            backend=ctx.backend, name=f"{task.id} round {c.get('round')}", **with_checker,
        )
    return report


def blocking(report: CheckReport) -> list[str]:
    """What keeps ``report``'s candidate out of the library: the gate's failing checks, and the
    library's own rule that the gate only reports (``instances``: a bootcamp with few different
    prompts is right, but not a generator)."""
    return [x.name for x in report.failing] + (["instances"] if report.few_instances else [])


def feedback(report: CheckReport) -> str:
    """The gate's feedback for the revise prompt, with the library's rule when it blocks."""
    text = report.feedback()
    few = report.few_instances
    if few is not None:
        text += f"\n\n## instances (the library's rule: the gate passed, the library does not take it)\n{few.reason}"
    return text


async def _gate_and_repair(ctx: WorkflowContext, task: TaskDescription, c: Candidate,
                           with_checker: dict[str, Any]) -> CheckReport:
    """The gate on ``c``; when it fails at load, construct or generate and the gate's errors
    call for a repair (:func:`~synth.workflow.repair.repair_from_errors`), the repaired code is
    checked again, at most :data:`MAX_ERROR_REPAIRS` times. Each report before a repair is kept
    as ``round_<k>_<i>.check.before_repair_<n>.json``."""
    report = await _gate(ctx, task, c, with_checker)
    for n in range(1, MAX_ERROR_REPAIRS + 1):
        if report.passed or not {x.name for x in report.failing} & EARLY_CHECKS:
            break
        own = model_part(c)
        fixed, repairs = repair_from_errors(own, gate_errors(report))
        if fixed == own or not repairs:
            break
        stem = f"round_{c.get('round', 0)}_{c.get('index', 0)}"
        (ctx.run.candidate_dir(task.id) / f"{stem}.check.before_repair_{n}.json").write_text(
            report.model_dump_json(indent=1), encoding="utf-8")
        failing = ", ".join(x.name for x in report.failing if x.name in EARLY_CHECKS)
        apply_repairs(ctx, task, c, fixed, repairs, f"errors: {failing}")
        report = await _gate(ctx, task, c, with_checker)
    failing_names = set(blocking(report))
    if failing_names and failing_names <= SIZE_CHECKS:
        report = await _resize(ctx, task, c, with_checker, report)
    return report


async def _resize(ctx: WorkflowContext, task: TaskDescription, c: Candidate,
                  with_checker: dict[str, Any], report: CheckReport) -> CheckReport:
    """The gate failed ``c`` only on sizes (:data:`SIZE_CHECKS`): gate the rewritten LEVELS of
    :func:`~synth.workflow.resize.level_variants` in turn (at most :data:`MAX_SIZE_TRIALS`) and
    keep the first that passes every check, as a ``levels`` repair; else ``report`` stands. A
    ``resize`` event says how many were tried either way. A variant's gate ends at its first
    rejecting check (``fail_fast``): most variants fail where the candidate did, early (the
    diversity check is sixth of the gate's checks), and a task whose reference program is slow
    paid the whole suite, oracle included, for each of them (5 variants, 330 s of one check)."""
    own = model_part(c)
    variants = level_variants(own, task.input_spec)[:MAX_SIZE_TRIALS]
    failing = ", ".join(blocking(report))
    for n, (fixed, repair) in enumerate(variants, 1):
        trial = Candidate(**c)
        if embeds(c.get("mode")):
            trial["model_code"] = fixed
            assemble(trial, task)
        else:
            trial["code"] = fixed
        if not trial.get("code"):
            continue
        trial_report = await _gate(ctx, task, trial, with_checker, fail_fast=True)
        if not blocking(trial_report):
            stem = f"round_{c.get('round', 0)}_{c.get('index', 0)}"
            (ctx.run.candidate_dir(task.id) / f"{stem}.check.before_resize.json").write_text(
                report.model_dump_json(indent=1), encoding="utf-8")
            apply_repairs(ctx, task, c, fixed, [repair], f"sizes: {failing}")
            ctx.run.events.emit("resize", task.id, round=c.get("round", 0),
                                index=c.get("index", 0), tried=n, passed=True, failing=failing)
            return trial_report
    ctx.run.events.emit("resize", task.id, round=c.get("round", 0), index=c.get("index", 0),
                        tried=len(variants), passed=False, failing=failing)
    return report


async def check(
    state: TaskState, runtime: Runtime[WorkflowContext]
) -> Command[Literal["filter", "revise", "reject"]]:
    """Run the quality gate on every new candidate; keep the best so far; route."""
    ctx = runtime.context
    t0 = time.perf_counter()
    task = _task(state)
    checker = state.get("checker")
    with_checker: dict[str, Any] = {"checker": checker["code"]} if checker else {}
    validator = state.get("validator")
    if validator:
        with_checker["validator"] = validator["code"]
    solver = state.get("key_solver")
    if solver:
        with_checker["solver"] = solver["code"]
    checked: list[Candidate] = []
    task_update: dict[str, Any] = {}
    for c in state.get("candidates", []):
        c = Candidate(**c)
        if c.get("code") and not c.get("checked"):
            if task_update and c.get("mode") == "compiled":
                assemble(c, task)  # a candidate of this round, written before the key changed
            report = await _gate_and_repair(ctx, task, c, with_checker)
            if not state.get("rekeyed") and "rekeyed" not in task_update:
                async def regate(new: TaskDescription, c: Candidate = c) -> CheckReport:
                    return await _gate_and_repair(ctx, new, c, with_checker)

                task, report, done = await answer_key.rekey(ctx, task, c, report, regate)
                if done is not None:  # a majority of the task's solutions replaced the key
                    task_update = {"task": task.model_dump(mode="json"), "rekeyed": [done]}
            stem = f"round_{c.get('round', 0)}_{c.get('index', 0)}"
            path = ctx.run.candidate_dir(task.id) / f"{stem}.check.json"
            path.write_text(report.model_dump_json(indent=1), encoding="utf-8")
            hard = [x for x in report.checks if x.hard]
            c["checked"] = True
            c["passed"] = not blocking(report)
            c["hard_passed"] = sum(1 for x in hard if x.status.value == "passed")
            c["hard_total"] = len(hard)
            c["failing"] = blocking(report)
            c["key_failures"] = _key_failures(report)
            c["feedback"] = feedback(report)
            c["infrastructure_error"] = report.infrastructure_error
            c["report_path"] = str(path.relative_to(ctx.run.root))
            c["engines"] = engines_of(report)
            c["differential"] = _differential(ctx, task, c, report, checker)
            c["differential_feedback"] = report.feedback(only={"differential"}, voice="judge")
            c["validator_feedback"] = input_validator.gate_evidence(ctx, task, c, report, validator)
            c["key"] = answer_key.summary(report)
            ctx.run.events.emit(
                "sandbox", task.id, node="check", backend=report.backend, passed=c["passed"],
                failing=c["failing"], elapsed_s=report.timings.get("total_s"), round=c.get("round"),
                infrastructure_error=report.infrastructure_error, differential=c["differential"],
                mode=c.get("mode"), key_verified_by=report.key_verified_by,
            )
        checked.append(c)
    prev = state.get("best")
    pool: list[Candidate] = checked + ([prev] if prev else [])
    best = max(pool, key=_score) if pool else None
    rnd = state.get("round", 0)
    kind = "draft" if rnd == 0 else ("steer" if any(c.get("steer") for c in checked) else "revise")
    history = [*state.get("history", []), {
        "round": rnd, "kind": kind,
        "candidates": [{"index": c.get("index"), "passed": c.get("passed", False),
                        "hard_passed": c.get("hard_passed", 0), "failing": c.get("failing", []),
                        "key_failures": c.get("key_failures", []), "failure": c.get("failure"),
                        "repairs": len(c.get("repairs") or [])} for c in checked],
    }]
    update: dict[str, Any] = {"candidates": checked, "best": best, "history": history,
                              **task_update}
    ctx.run.events.emit("node", task.id, node="check", round=rnd,
                        passed=bool(best and best.get("passed")),
                        elapsed_s=round(time.perf_counter() - t0, 4))
    if best is not None and best.get("passed"):
        why_not = answer_key.unverified(best, ctx.config)
        if why_not is not None:  # nothing but the task file speaks for the key
            return _reject("key_unverified", why_not, **update)
        return Command(goto="filter", update=update)
    if checked and all(c.get("infrastructure_error") for c in checked if c.get("code")) and any(
        c.get("code") for c in checked
    ):
        return _reject("sandbox_error", "the sandbox failed while checking (not the candidate's fault)",
                       **update)
    if revisions_used(state) < ctx.config.rounds:
        return Command(goto="revise", update=update)
    why = ", ".join((best or {}).get("failing") or []) or (best or {}).get("failure") or "no code"
    pending = _pending_steer(state)
    if pending is not None:  # a steered revision that never passed the gate again
        update["steering"] = _settle_steer(ctx, task, state, "gate_failed")
        before = pending.get("verdict_before") or "too_easy"
        rate = pending.get("pass_rate_before")
        return _reject(before, f"filter: {before.replace('_', ' ')} (pass rate "
                       f"{rate if rate is None else round(rate, 3)}); the steered revision did not "
                       f"pass the gate: {why}", **update)
    return _reject("gate_failed", f"no candidate passed the gate after {rnd + 1} round(s): {why}",
                   **update)


def _differential(ctx: WorkflowContext, task: TaskDescription, c: Candidate, report: CheckReport,
                  checker: CheckerInfo | None) -> dict[str, Any] | None:
    """The differential verdict on one candidate (None without a checker), also appended to the
    checker's ``verdicts.jsonl``; a checker the gate could not use is reported loudly."""
    result = report.get("differential")
    if checker is None or result is None:
        return None
    verdict = {"status": result.status.value, "finding": result.finding, "reason": result.reason,
               "notes": result.artifacts.get("checker_notes"),
               "checker_sha256": checker.get("sha256"), "checker_round": checker.get("round")}
    line = json.dumps({"round": c.get("round"), "index": c.get("index"),
                       "candidate_sha256": report.candidate_sha256, **verdict}, ensure_ascii=False)
    with (checker_dir(ctx, task.id) / "verdicts.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(line + "\n")
    if result.finding == "checker_broken":
        ctx.run.events.emit("judge", task.id, action="checker_broken", round=c.get("round"),
                            checker_sha256=checker.get("sha256"), problem=result.reason,
                            warning="the independent checker failed in the gate: this candidate "
                            "was checked without the differential check")
    return verdict


def repair_lines(c: Candidate) -> list[str]:
    """The repairs applied to a candidate, one line each, for the revise prompt."""
    out = []
    for r in c.get("repairs") or []:
        where = f" (line {r['line']})" if r.get("line") else ""
        out.append(f"{r.get('kind', 'repair')}{where}: {r.get('detail', '')}")
    return out


async def revise(state: TaskState, runtime: Runtime[WorkflowContext]) -> Command[Literal["judge", "reject"]]:
    """Show the code model its best candidate and the gate's evidence; get one revision. A reply
    that argues the checker is wrong (``CHECKER IS WRONG:``) sends the argument to the judge."""
    ctx = runtime.context
    t0 = time.perf_counter()
    task = _task(state)
    mode = state_mode(state)
    best = state.get("best") or {}
    rnd = state.get("round", 0) + 1
    revision = revisions_used(state) + 1
    disputed = "differential" in (best.get("failing") or []) and state.get("checker") is not None
    can_dispute = disputed and state.get("dispute") is None
    # the input validator rejected one of its inputs: the coder may hold the validator wrong
    vdisputed = bool(best.get("validator_feedback")) and state.get("validator") is not None
    can_vdispute = vdisputed and state.get("validator_dispute") is None
    earlier = earlier_rounds(state.get("history", []))
    if best.get("code"):
        text, version = render(
            ctx, "revise.j2", task, mode, code=model_part(best), failures=best.get("feedback", ""),
            repairs=repair_lines(best), earlier=earlier, round=revision, rounds=ctx.config.rounds,
            can_dispute=can_dispute, dispute_used=disputed and not can_dispute, mark=CHECKER_MARK,
            can_dispute_validator=can_vdispute, validator_mark=VALIDATOR_MARK,
            validator_dispute_used=vdisputed and not can_vdispute,
            # a compiled draft without STRESS: one line asks for it (code suites need it)
            ask_stress=mode == "compiled" and not declares_stress(model_part(best)),
        )
    else:
        text, version = render(
            ctx, "revise_extraction.j2", task, mode, detail=best.get("detail", "no code"),
            code=model_part(best), earlier=earlier, round=revision, rounds=ctx.config.rounds,
        )
    cand = await ask_and_repair(ctx, task, mode, text, version, f"revise|{rnd}", rnd, 0)
    update: dict[str, Any] = {"round": rnd}
    argument = cand.get("argument")
    vargument = cand.get("validator_argument")
    if ((argument and can_dispute) or (vargument and can_vdispute)) and not cand.get("code"):
        # an argument alone: the same module is checked again
        cand = Candidate(round=rnd, index=0, code=best.get("code"), failure=None, detail="",
                         prompt_version=best.get("prompt_version", version), argument=argument,
                         validator_argument=vargument, reused=True, mode=mode,
                         model_code=best.get("model_code"), repairs=list(best.get("repairs") or []))
    if argument and can_dispute:
        checker = state.get("checker") or {}
        update["dispute"] = {"round": rnd, "argument": argument, "status": "pending",
                             "evidence": best.get("differential_feedback", ""),
                             "checker_before": checker.get("sha256"), "checker_after": None}
        ctx.run.events.emit("judge", task.id, action="dispute", round=rnd,
                            checker_sha256=checker.get("sha256"), argument=argument[:1000],
                            with_code=not cand.get("reused"))
    elif argument:
        ctx.run.events.emit("judge", task.id, action="argument_ignored", round=rnd,
                            why="the checker was already rewritten once" if disputed
                            else "no differential finding to dispute")
    if vargument and can_vdispute:
        validator = state.get("validator") or {}
        update["validator_dispute"] = {
            "round": rnd, "argument": vargument, "status": "pending",
            "evidence": best.get("validator_feedback", ""),
            "checker_before": validator.get("sha256"), "checker_after": None}
        ctx.run.events.emit("validator", task.id, action="dispute", round=rnd,
                            validator_sha256=validator.get("sha256"), argument=vargument[:1000],
                            with_code=not cand.get("reused"))
    elif vargument:
        ctx.run.events.emit("validator", task.id, action="argument_ignored", round=rnd,
                            why="the validator was already rewritten once" if vdisputed
                            else "no validator_rejects_input finding to dispute")
    ctx.run.events.emit("node", task.id, node="revise", round=rnd, revision=revision,
                        prompt_version=version, task_chars=len(text),
                        elapsed_s=round(time.perf_counter() - t0, 4),
                        with_code=bool(cand.get("code")) and not cand.get("reused"),
                        failures=[cand.get("failure")] if cand.get("failure") else [],
                        argued=bool(update.get("dispute")), repairs=len(cand.get("repairs") or []),
                        argued_validator=bool(update.get("validator_dispute")))
    if cand.get("reused"):
        save_candidate(ctx, task, cand)
    if (cand.get("failure") or "").startswith("llm_") and revision >= ctx.config.rounds:
        return _reject("llm_failure", f"revision call failed: {cand.get('detail', '')[:200]}", round=rnd)
    return Command(goto="judge", update={"candidates": [cand], **update})


def engines_of(report: CheckReport) -> dict[str, str]:
    """The engines the gate's sandbox started for a candidate, name -> version (the load
    check's ``engines`` artifact, ``"gnugo: GNU Go 3.8, ..."``); what the record keeps so that
    its cases and scores can be reproduced with the same engine."""
    load = next((c for c in report.checks if c.name == "load"), None)
    text = load.artifacts.get("engines", "") if load is not None else ""
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(", "))):
        name, _, version = part.partition(": ")
        if name and version:
            out[name] = version
    return out


def _filter_summary(res: FilterResult) -> dict[str, Any]:
    return {
        "verdict": res.verdict, "reason": res.reason, "pass_rate": res.pass_rate,
        "answered": res.answered, "requested": res.requested, "stopped_early": res.stopped_early,
        "level_pass_rates": res.level_pass_rates, "level_counts": res.level_counts,
    }


STEERABLE = frozenset({"too_easy", "too_hard"})
#: the embedded models' names: a calibration by one of them says "embedded", not its loopback port
EMBEDDED = frozenset(m.alias for m in MODELS.values())


async def filter_node(
    state: TaskState, runtime: Runtime[WorkflowContext]
) -> Command[Literal["commit", "steer", "reject"]]:
    """The solver's pass rate on the best candidate must lie in the band; a too_easy or
    too_hard verdict earns a steering round while ``steer_rounds`` last."""
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

    async def chat(messages: list[dict[str, str]]) -> str:  # a multi-turn candidate's episodes
        res = await ctx.llm.complete("solver", messages, tag=f"{task.id}|solve")
        return res.text

    seed = int.from_bytes(hashlib.sha256(task.id.encode()).digest()[:4], "big")
    fcfg = FilterConfig(samples=cfg.samples, low=cfg.band_low, high=cfg.band_high, seed=seed,
                        solver_concurrency=cfg.llm_concurrency)
    async with ctx.sandbox_slots:
        res: FilterResult = await ctx.acceptance_filter(code, solve, config=fcfg, backend=ctx.backend,
                                                        chat=chat)
    steps = len(state.get("steering", []))
    data = res.model_dump(mode="json")
    ctx.run.write_json(f"filter/{task_slug(task.id)}.json", data)  # the task's last filter result
    if steps or res.verdict in STEERABLE:  # each result before and after steering, kept apart
        ctx.run.write_json(f"filter/steering/{task_slug(task.id)}.step_{steps}.json", data)
    summary = _filter_summary(res)
    ctx.run.events.emit("filter", task.id, round=best.get("round"), steer_step=steps, **summary)
    ctx.run.events.emit("node", task.id, node="filter", elapsed_s=round(time.perf_counter() - t0, 4))
    history = [dict(h) for h in state.get("history", [])]
    for h in history:
        if h.get("round") == best.get("round"):
            h["filter"] = {"verdict": res.verdict, "pass_rate": res.pass_rate}
    steering = _settle_steer(ctx, task, state, res.verdict, res.pass_rate, res.level_pass_rates)
    update: dict[str, Any] = {"filter": summary, "history": history, "steering": steering}
    if res.accepted and cfg.calibrate:
        return await _calibrate(ctx, task, code, solve, chat, update)
    if res.accepted:
        return Command(goto="commit", update=update)
    if res.verdict in STEERABLE and len(steering) < cfg.steer_rounds:
        return Command(goto="steer", update=update)
    after = f" after {len(steering)} steering round(s)" if steering else ""
    return _reject(res.verdict, f"filter: {res.reason}{after}", **update)


async def _calibrate(ctx: WorkflowContext, task: TaskDescription, code: str, solve: Any, chat: Any,
                     update: dict[str, Any]) -> Command[Literal["commit", "steer", "reject"]]:
    """``--calibrate K``: the accepted candidate's pass rate measured again on K answers, every
    one of them (no early stop; ``synth calibrate``'s seeds from 0), and committed only if that
    rate is in the band too. The record then carries this measurement, not the filter's."""
    cfg = ctx.config
    t0 = time.perf_counter()
    fcfg = FilterConfig(samples=cfg.calibrate, low=cfg.band_low, high=cfg.band_high, seed=0,
                        early_stop=False, solver_concurrency=cfg.llm_concurrency)
    async with ctx.sandbox_slots:
        res: FilterResult = await ctx.acceptance_filter(code, solve, config=fcfg,
                                                        backend=ctx.backend, chat=chat)
    ctx.run.write_json(f"filter/calibration/{task_slug(task.id)}.json", res.model_dump(mode="json"))
    failures = sum(1 for s in res.samples if s.outcome == "solver_error")
    ctx.run.events.emit("calibrate", task.id, verdict=res.verdict, pass_rate=res.pass_rate,
                        answered=res.answered, requested=res.requested,
                        level_pass_rates=res.level_pass_rates, solver_failures=failures,
                        elapsed_s=round(time.perf_counter() - t0, 4))
    if not res.accepted:
        return _reject(res.verdict, f"calibration on {cfg.calibrate} answers: {res.reason}",
                       **update)
    measured = Calibration(
        solver_model=cfg.solver.model, endpoint="embedded" if cfg.solver.model in EMBEDDED
        else endpoint_name(cfg.solver.base_url),
        temperature=cfg.solver.temperature, samples_requested=cfg.calibrate,
        samples_answered=res.answered, solver_failures=failures, seed=0, calibrated_at=utc_now())
    calibration = {**_filter_summary(res), "calibration": measured.model_dump(mode="json")}
    return Command(goto="commit", update={**update, "calibration": calibration})


def _bootcamp_name(task: TaskDescription) -> str:
    slug = task.id.split("/", 1)[1]
    slug = re.sub(r"-[0-9a-f]{8}$", "", slug)
    return re.sub(r"[^a-z0-9_]+", "_", f"{task.source}_{slug}".lower()).strip("_")[:56]


def _checker_rel(task: TaskDescription, name: str) -> str:
    return f"{task.source}/checkers/{name}.py"


def _checker_fields(state: TaskState, task: TaskDescription, name: str,
                    ctx: WorkflowContext) -> dict[str, Any]:
    """The library record's view of the differential check: the checker's hash and path in the
    library, and a flat summary of its verdict and history (also when there was no checker)."""
    checker = state.get("checker")
    best = state.get("best") or {}
    dispute = state.get("dispute") or {}
    log = state.get("checker_log", [])
    summary: dict[str, Any] = {
        "judge_model": ctx.config.judge_spec.model,
        "generations": sum(1 for e in log if e.get("status") == "ready"),
        "disputed": bool(dispute),
        "dispute_round": dispute.get("round"),
        "dispute_rewrote_checker": bool(dispute.get("checker_after")),
        "format_regenerations": state.get("format_regenerations", 0),
    }
    if not checker:
        why = {"gave_up": "the judge model gave no usable checker",
               "no_examples": "no example case could be drawn for the judge model",
               "compiled": COMPILED_NO_CHECKER}
        summary.update(status="no_checker", reason=why.get(state.get("judge_status", ""),
                                                            "the judge step did not run"))
        return {"differential": summary}
    verdict = best.get("differential") or {}
    summary.update(status=verdict.get("status"), finding=verdict.get("finding") or None,
                   reason=verdict.get("reason"), notes=verdict.get("notes"),
                   checker_round=checker.get("round"), checker_origin=checker.get("origin"),
                   checker_run_path=checker.get("path"))
    return {"checker_sha256": checker.get("sha256"), "checker_path": _checker_rel(task, name),
            "differential": summary}


def _level_samples(filt: dict[str, Any]) -> dict[str, int]:
    """Answers behind each level's rate, in the rates' (LEVELS) order."""
    counts = filt.get("level_counts") or {}
    return {lvl: int(counts[lvl]) for lvl in filt.get("level_pass_rates") or {} if lvl in counts}


async def commit(state: TaskState, runtime: Runtime[WorkflowContext]
                 ) -> Command[Literal["__end__", "reject"]]:
    """Write the accepted bootcamp into the library (idempotent when a node is replayed),
    unless it duplicates a bootcamp of its family there (:mod:`synth.workflow.deduplicate`)."""
    ctx = runtime.context
    task = _task(state)
    best = state.get("best") or {}
    code = best.get("code") or ""
    filt = state.get("filter") or {}
    # the record's rates: the --calibrate measurement when there is one, else the filter's
    measured: dict[str, Any] = state.get("calibration") or filt
    ref = reference(task, best.get("mode") or "full")
    cfg = ctx.config
    code_sha = hashlib.sha256(code.encode()).hexdigest()
    checker = state.get("checker")
    facts: dict[str, Any] = {"code": code_sha, "prompt": best.get("prompt_version"),
                             "coder": cfg.coder.model, "solver": cfg.solver.model, "filter": filt}
    if state.get("calibration"):  # the record's rates come from it
        facts["calibration"] = state.get("calibration")
    if checker:
        facts["checker"] = checker.get("sha256")
    validator = state.get("validator")
    if validator:
        facts["validator"] = validator.get("sha256")
    evidence = json.dumps(facts, sort_keys=True)
    existing = ctx.library.has_task(task.source, task.id)
    write_checker = checker is not None
    write_validator = validator is not None
    if existing is not None and existing.code_sha256 == code_sha:
        name = existing.name  # replayed after a crash between commit and checkpoint
        write_checker = checker is not None and existing.checker_sha256 == checker.get("sha256")
        write_validator = validator is not None and \
            existing.validator_sha256 == validator.get("sha256")
    else:
        replace_name = existing.name if (existing is not None and cfg.force) else None
        name = replace_name or ctx.library.unique_name(_bootcamp_name(task))
        checker_fields = _checker_fields(state, task, name, ctx)
        class_name = find_bootcamp_class(code)

        record_fields: dict[str, Any] = dict(
                name=name, code=code, class_name=class_name, source=task.source,
                task_id=task.id, title=task.title, origin="generated",
                status="pending-review" if cfg.require_review else "accepted",
                reference_code=ref.code if ref else None, replace=replace_name is not None,
                pass_rate=measured.get("pass_rate"), samples=measured.get("answered"),
                level_pass_rates=measured.get("level_pass_rates", {}),
                level_samples=_level_samples(measured),
                stopped_early=measured.get("stopped_early"),
                levels=list(measured.get("level_pass_rates", {})),
                calibration=measured.get("calibration"),
                coder_model=cfg.coder.model, solver_model=cfg.solver.model,
                prompt_version=best.get("prompt_version"), run_id=ctx.run.run_id,
                content_hash=hashlib.sha256(evidence.encode()).hexdigest(),
                mode=best.get("mode") or "full", engines=best.get("engines") or None,
                **checker_fields, **input_validator.record_fields(task, name, validator),
                **answer_key.record_fields(task, name, state, cfg),
                task_text_key=statement_key(task),
            )
        try:
            verdict = await commit_checked(ctx, task, code, class_name, record_fields,
                                           replace_name)
        except LibraryError as exc:
            return Command(goto="__end__", update={"status": "rejected", "reason_code": "commit_failed",
                                                    "reason": str(exc)})
        if verdict.duplicate_of is not None:
            return _reject("duplicate_of", verdict.reason())
    # through the library (atomic; idempotent when a replayed commit writes it again), so that
    # the Ray executor's one library writer does these writes too
    checker_rel = _checker_rel(task, name)
    if checker and write_checker:  # after the record: a commit that lost a race writes nothing
        ctx.library.write_file(checker_rel, checker.get("code") or "")
    elif checker is None and existing is not None and cfg.force and existing.name == name:
        ctx.library.remove_file(checker_rel)  # replaced by a bootcamp without a checker
    validator_rel = input_validator.library_path(task, name)
    if validator and write_validator:
        ctx.library.write_file(validator_rel, validator.get("code") or "")
    elif validator is None and existing is not None and cfg.force and existing.name == name:
        ctx.library.remove_file(validator_rel)
    record = ctx.library.has_task(task.source, task.id)  # (the Ray executor's proxy has it too)
    solver = state.get("key_solver") or {}
    solver_rel = answer_key.library_path(task, name)
    if record is not None and record.key_solver_path and \
            record.key_solver_sha256 == solver.get("sha256"):
        ctx.library.write_file(solver_rel, solver.get("code") or "")
    elif cfg.force and existing is not None and existing.name == name and \
            (record is None or not record.key_solver_path):
        ctx.library.remove_file(solver_rel)
    ctx.run.events.emit("commit", task.id, name=name, pass_rate=measured.get("pass_rate"),
                        checker_sha256=(checker or {}).get("sha256"),
                        validator_sha256=(validator or {}).get("sha256"))
    return Command(goto="__end__", update={"status": "accepted", "committed": name,
                                            "reason_code": "accepted", "reason": f"committed as {name}"})


async def reject(state: TaskState, runtime: Runtime[WorkflowContext]) -> dict[str, Any]:
    """End the task with the reason already in the state."""
    ctx = runtime.context
    ctx.run.events.emit("reject", state["task"]["id"], reason_code=state.get("reason_code"),
                        reason=state.get("reason"))
    return {"status": "rejected"}
