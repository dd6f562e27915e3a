"""Asking the judge role for a program (an input validator, a key solver): the one loop.

The judge model is asked at most ``attempts`` times; each reply is extracted, vetted in the
sandbox, and either kept (its files and a round log in the candidate's folder, a ``generated``
event) or rejected (the code kept as ``*.rejected_N.py`` and shown to the next attempt with the
problem). When no attempt gives a usable program the round log says ``gave_up`` and the event
carries a warning saying what the task goes on with. :mod:`synth.workflow.input_validator` and
:mod:`synth.workflow.answer_key` say what differs: :class:`ProgramRequest`.

A coder may hold the judge's program wrong: its reply then argues so after a marked line
(:data:`CHECKER_MARK`, :data:`VALIDATOR_MARK`), which :func:`parse_argument` reads.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from synth.models.extract import _THINK_RE, Extraction
from synth.models.llm import LLMFailure
from synth.sandbox.base import SandboxUnavailableError
from synth.tasks import TaskDescription
from synth.workflow.state import Dispute, JudgeProgramInfo, WorkflowContext

__all__ = ["CHECKER_MARK", "VALIDATOR_MARK", "ProgramRequest", "ask_for_program", "parse_argument"]


@dataclass
class ProgramRequest:
    """What one kind of judge-written program differs in."""

    kind: str  # the events' kind ("validator", "key")
    stem: str  # its files: <stem>.py, <stem>_round_N.py, <stem>_round_N.json
    tag: str  # the LLM call's tag part
    template: str  # the prompt
    context: dict[str, Any]  # the prompt's own variables (previous/rejected/problem/dispute added)
    extract: Callable[[str, str | None], Extraction]
    vet: Callable[[str], str | None]  # the problem with the code, or None (runs in a thread)
    sha_field: str  # the generated/rejected events' name for the program's sha256
    actions: tuple[str, str, str]  # the events' actions: rejected, generated, gave_up
    gave_up: tuple[str, str]  # the warning: what gave nothing, what the task goes on without
    examples: int  # how many examples it was vetted on (the round log's "examples")
    log_extra: dict[str, Any] = field(default_factory=dict)
    event_extra: dict[str, Any] = field(default_factory=dict)
    attempts: int = 2


async def ask_for_program(ctx: WorkflowContext, task: TaskDescription, rnd: int, reason: str,
                          current: JudgeProgramInfo | None, dispute: Dispute | None,
                          req: ProgramRequest) -> tuple[JudgeProgramInfo | None, dict[str, Any]]:
    """Ask the judge model (at most ``req.attempts`` times); vet each reply; save the files.
    (the program, its round log) or (None, the log of a round that gave up)."""
    emit = ctx.run.events.emit
    folder = ctx.run.candidate_dir(task.id)
    spec = ctx.config.judge_spec
    rejected_action, generated_action, gave_up_action = req.actions
    attempts: list[dict[str, Any]] = []
    problem: str | None = None
    rejected: str | None = None
    version = ""
    for attempt in range(req.attempts):
        text, version = ctx.prompts.render(
            req.template, **req.context,
            previous=(current or {}).get("code") if reason == "argued" else None,
            rejected=rejected, problem=problem, dispute=dispute)
        try:
            res = await ctx.llm.complete("judge", [{"role": "user", "content": text}],
                                         tag=f"{task.id}|{req.tag}|{rnd}|{attempt}",
                                         prompt_version=version)
        except LLMFailure as exc:
            problem = f"the model call failed: llm_{exc.kind}: {exc.message[:300]}"
            attempts.append({"attempt": attempt, "problem": problem})
            emit(req.kind, task.id, action=rejected_action, round=rnd, reason=reason,
                 attempt=attempt, problem=problem)
            continue
        ex = req.extract(res.text, res.finish_reason)
        code = ex.code
        if code is None:
            problem = ex.detail
        else:
            async with ctx.sandbox_slots:
                try:
                    problem = await asyncio.to_thread(req.vet, code)
                except SandboxUnavailableError as exc:
                    problem = f"the sandbox is unavailable: {exc}"[:500]
        sha = hashlib.sha256(code.encode()).hexdigest() if code else None
        attempts.append({"attempt": attempt, "sha256": sha, "problem": problem})
        if problem is None and code is not None and sha is not None:
            (folder / f"{req.stem}_round_{rnd}.py").write_text(code, encoding="utf-8")
            (folder / f"{req.stem}.py").write_text(code, encoding="utf-8")
            info = JudgeProgramInfo(
                code=code, sha256=sha, round=rnd, origin=reason,  # type: ignore[typeddict-item]
                generation=int((current or {}).get("generation", 0)) + 1,
                path=str((folder / f"{req.stem}.py").relative_to(ctx.run.root)),
                model=spec.model, prompt_version=version)
            log = {**{k: v for k, v in info.items() if k != "code"}, "task": task.id,
                   "attempts": attempts, "status": "ready", "examples": req.examples,
                   **req.log_extra, "replaces": (current or {}).get("sha256")}
            ctx.run.write_json(str((folder / f"{req.stem}_round_{rnd}.json")
                                   .relative_to(ctx.run.root)), log)
            emit(req.kind, task.id, action=generated_action, round=rnd, reason=reason,
                 **{req.sha_field: sha}, path=info["path"], attempts=len(attempts),
                 model=spec.model, **req.event_extra)
            return info, log
        if code is not None:
            (folder / f"{req.stem}_round_{rnd}.rejected_{attempt}.py").write_text(
                code, encoding="utf-8")
            rejected = code
        emit(req.kind, task.id, action=rejected_action, round=rnd, reason=reason,
             attempt=attempt, **{req.sha_field: sha}, problem=(problem or "")[:500])
    kept = (current or {}).get("sha256")
    log = {"task": task.id, "round": rnd, "origin": reason, "status": "gave_up",
           "attempts": attempts, "model": spec.model, "prompt_version": version, "kept": kept}
    ctx.run.write_json(str((folder / f"{req.stem}_round_{rnd}.json").relative_to(ctx.run.root)),
                       log)
    what, without = req.gave_up
    emit(req.kind, task.id, action=gave_up_action, round=rnd, reason=reason,
         attempts=len(attempts), problem=(problem or "")[:500], kept=kept,
         warning=(f"the judge model gave no usable {what}: " + (
             f"the earlier {what.split()[-1]} {kept[:12]} stays" if kept else without)))
    return None, log


# -- the coder's argument against a judge's program ------------------------------------------


#: The line a coder's reply starts its argument with when it holds the checker wrong.
CHECKER_MARK = "CHECKER IS WRONG:"
#: ... and when it holds the input validator wrong (:mod:`synth.workflow.input_validator`).
VALIDATOR_MARK = "VALIDATOR IS WRONG:"
MAX_ARGUMENT_CHARS = 4000
_MARK_RES = {mark: re.compile(r"^[ \t>#*_`-]*" + re.escape(mark[:-1]) + r"[ \t]*:[*_`]*[ \t]*",
                              re.MULTILINE | re.IGNORECASE)
             for mark in (CHECKER_MARK, VALIDATOR_MARK)}
_FENCE_LINE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})", re.MULTILINE)


def parse_argument(text: str, mark: str = CHECKER_MARK) -> str | None:
    """The argument after a line starting ``CHECKER IS WRONG:`` (or another ``mark``: up to
    the next code fence), or None when the reply has no such line or an empty argument.
    Reasoning sections (``<think>...``) do not count."""
    if not isinstance(text, str):
        return None
    visible = _THINK_RE.sub("", text)
    m = _MARK_RES[mark].search(visible)
    if m is None:
        return None
    rest = visible[m.end():]
    fence = _FENCE_LINE_RE.search(rest)
    argument = (rest[: fence.start()] if fence else rest).strip()
    return argument[:MAX_ARGUMENT_CHARS] or None
