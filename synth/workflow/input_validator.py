"""The judge role's input validator: ``validate(stdin) -> None | str``, written from the task
statement and its example inputs only -- never from a generator or a candidate.

Part of the judge step (:func:`synth.workflow.judge.judge` calls :func:`validator_step` after
the checker): before a round's check the step decides whether a (new) validator is needed:

* ``initial``: the task has none yet and one applies -- a new candidate is compiled against a
  verified reference program, or it is a full-mode module that defines ``render_stdin`` -- and
  the task has example inputs (:func:`applies`);
* ``argued``: the coder's revision said ``VALIDATOR IS WRONG:`` with an argument, answering a
  ``validator_rejects_input`` finding. The validator is rewritten ONCE per task with that
  argument and the gate's evidence; then the gate runs again.

Every reply is vetted before use: extracted, linted (the checker's static rules and a top-level
``validate``), and run in the sandbox on every example input, which it must accept
(:func:`synth.gate.validator.examples_rejected`). A validator that fails is regenerated once
with the problem shown (the rejected examples and reasons); if that fails too, the task goes on
without (a new) validator, said loudly in the event log (``validator`` events with a ``warning``).

The check node passes the validator to the gate (``validator=``) for every candidate of the task;
the gate runs it on every generated case's stdin (:mod:`synth.gate.inputs`).

Run folder: ``candidates/<task>/validator.py`` (the validator in use), ``validator_round_<k>.py``
(the one written before round k's check), ``validator_round_<k>.json`` (its sha256, origin,
model, prompt version, every attempt) and ``validator_round_<k>.rejected_<j>.py``.
"""

from __future__ import annotations

import re
import time
from typing import Any, Literal, cast

from synth import compiled
from synth.gate.calls import Failure
from synth.gate.validator import broken, examples_rejected, static_problems
from synth.models.extract import _THINK_RE, MAX_CODE_CHARS, Extraction, _blocks, _parses
from synth.sandbox.base import Backend, SandboxUnavailableError
from synth.sandbox.static import ALLOWED_IMPORTS
from synth.tasks import TaskDescription
from synth.workflow.judge_program import ProgramRequest, ask_for_program
from synth.workflow.state import Candidate, Dispute, TaskState, ValidatorInfo, WorkflowContext

__all__ = ["applies", "extract_validator", "statement_read_whole", "validator_step",
           "vet_validator"]

#: attempts per validator: the first and, when it fails vetting, one regeneration
ATTEMPTS = 2
_VALIDATE_DEF_RE = re.compile(r"^def\s+validate\s*\(", re.MULTILINE)
_RENDER_STDIN_RE = re.compile(r"^\s+def\s+render_stdin\s*\(", re.MULTILINE)

Reason = Literal["initial", "argued"]


def extract_validator(text: str, finish_reason: str | None = None) -> Extraction:
    """The validator module in a judge reply: the last Python block defining ``validate``."""
    if not isinstance(text, str) or not text.strip():
        return Extraction(failure="no_code", detail="the answer was empty")
    blocks, unterminated = _blocks(_THINK_RE.sub("", text))
    found = [b for lang, b in blocks
             if lang in ("", "python", "py", "python3") and _VALIDATE_DEF_RE.search(b)]
    if not found:
        if unterminated is not None and _VALIDATE_DEF_RE.search(unterminated):
            return Extraction(failure="truncated", blocks_found=len(blocks), detail=(
                "the code block was never closed" + (" (the answer hit the token limit)"
                if finish_reason == "length" else "") + "; write a shorter, complete module"))
        return Extraction(failure="no_code", blocks_found=len(blocks), detail=(
            "no ```python block defines a top-level function validate(stdin); reply with the "
            "whole validator module in one ```python block"))
    code = found[-1].strip("\n") + "\n"
    if len(code) > MAX_CODE_CHARS:
        return Extraction(failure="too_large", blocks_found=len(blocks),
                          detail=f"the module has {len(code)} characters; the limit is {MAX_CODE_CHARS}")
    err = _parses(code)
    if err is not None:
        return Extraction(failure="syntax_error", blocks_found=len(blocks),
                          detail=f"SyntaxError at line {err.lineno}: {err.msg}")
    return Extraction(code=code, blocks_found=len(blocks))


def vet_validator(code: str, examples: list[str], backend: Backend) -> str | None:
    """None when ``code`` lints, loads in the sandbox and accepts every example input; else
    what is wrong, written for the judge model."""
    problem = static_problems(code)
    if problem is not None:
        return problem
    try:
        rejected = examples_rejected(code, examples, backend)
    except Failure as f:
        return broken(f)
    except SandboxUnavailableError as exc:
        return f"the sandbox is unavailable: {exc}"[:500]
    if not rejected:
        return None
    shown = "\n\n".join(f"Example input {examples.index(ex) + 1}:\n```\n{ex[:1500]}\n```\n"
                        f"validate() returned: {reason}" for ex, reason in rejected[:5])
    return (f"it rejects {len(rejected)} of the {len(examples)} example inputs, which are legal "
            f"by definition:\n\n{shown}")


def applies(task: TaskDescription, cands: list[Candidate]) -> str | None:
    """None when the task gets an input validator; else why not. It does when it has example
    inputs and a new candidate is compiled against a verified reference program, or is a
    full-mode module that defines ``render_stdin``."""
    from synth.workflow.coder import compiled_program

    if not task.examples:
        return "the task has no example inputs"
    for c in cands:
        code = c.get("code") or ""
        if c.get("mode") == "compiled" and compiled_program(task) is not None:
            return None
        if c.get("mode") != "compiled" and _RENDER_STDIN_RE.search(code):
            return None
    return ("no candidate renders standard input (compiled against a verified reference "
            "program, or a module that defines render_stdin)")


def statement_read_whole(task: TaskDescription) -> bool:
    """Whether the statement's own input check (:func:`synth.statement.derive`, run by the
    gate's inputs check without a model) reads the Input section whole: a layout, and no
    sentence dropped or left unchecked."""
    from synth.gate.inputs import input_checker

    checker = input_checker(compiled.task_text(task))
    return bool(checker.layout and not checker.dropped and not checker.not_checked)


def _need(state: TaskState, task: TaskDescription, policy: str = "always"
          ) -> tuple[Reason | None, str]:
    dispute = state.get("validator_dispute")
    if dispute and dispute.get("status") == "pending":
        return "argued", ""
    if state.get("validator") is not None or state.get("validator_status") == "gave_up":
        return None, ""
    new = [c for c in state.get("candidates", []) if c.get("code") and not c.get("checked")]
    why = applies(task, new)
    if why is None and policy == "unread" and statement_read_whole(task):
        why = ("the statement's own input check reads the whole Input section (layout and "
               "every rule; the gate's inputs check runs it on every case); --validator always "
               "asks the judge anyway")
    return (None, why) if why else ("initial", "")


async def validator_step(state: TaskState, ctx: WorkflowContext) -> dict[str, Any]:
    """The state update of the judge step's validator part (empty when nothing changes)."""
    t0 = time.perf_counter()
    task = TaskDescription.model_validate(state["task"])
    rnd = state.get("round", 0)
    reason, why = _need(state, task, ctx.config.validator)
    emit = ctx.run.events.emit
    if reason is None:
        if why and state.get("validator_status") != "not_applicable":
            emit("validator", task.id, action="not_applicable", round=rnd, why=why)
            return {"validator_status": "not_applicable"}
        return {}
    current = state.get("validator")
    dispute = state.get("validator_dispute") if reason == "argued" else None
    info, log = await _generate(ctx, task, rnd, reason, current, dispute)
    update: dict[str, Any] = {"validator_log": [*state.get("validator_log", []), log]}
    if dispute is not None:
        settled: Dispute = {**dispute, "status": "settled",
                            "checker_after": info["sha256"] if info else None}
        update["validator_dispute"] = settled
    if info is not None:
        update["validator"] = info
        update["validator_status"] = "ready"
    elif current is None:
        update["validator_status"] = "gave_up"
    emit("validator", task.id, action="step", round=rnd, reason=reason,
         outcome="generated" if info else "gave_up", elapsed_s=round(time.perf_counter() - t0, 4))
    return update


async def _generate(ctx: WorkflowContext, task: TaskDescription, rnd: int, reason: Reason,
                    current: ValidatorInfo | None, dispute: Dispute | None
                    ) -> tuple[ValidatorInfo | None, dict[str, Any]]:
    """Ask the judge model for a validator (:func:`~synth.workflow.judge_program.ask_for_program`)."""
    examples = [e.input for e in task.examples]
    req = ProgramRequest(
        kind="validator", stem="validator", tag="validator", template="validator.j2",
        context={"task_text": compiled.task_text(task), "examples": examples,
                 "allowed_imports": sorted(ALLOWED_IMPORTS - {"__future__"})},
        extract=extract_validator,
        vet=lambda code: vet_validator(code, examples, ctx.backend),
        sha_field="validator_sha256", actions=("attempt_rejected", "generated", "gave_up"),
        gave_up=("input validator", "the task goes on WITHOUT an input validator (generated "
                 "inputs are checked against the statement's derived rules only)"),
        examples=len(examples), log_extra={"dispute": dict(dispute) if dispute else None},
        event_extra={"examples_accepted": len(examples)}, attempts=ATTEMPTS)
    info, log = await ask_for_program(ctx, task, rnd, reason, current, dispute, req)
    return cast("ValidatorInfo | None", info), log


# -- the check, revise and commit nodes' parts -------------------------------------------------


def gate_evidence(ctx: WorkflowContext, task: TaskDescription, c: Candidate, report: Any,
                  validator: ValidatorInfo | None) -> str:
    """The inputs check's evidence on ``c`` when the validator rejected one of its inputs (what
    a ``VALIDATOR IS WRONG:`` argument answers), else ""; a validator the gate could not use is
    reported loudly."""
    result = report.get("inputs") if validator is not None else None
    if result is None or validator is None:
        return ""
    if result.finding == "validator_broken":
        ctx.run.events.emit("validator", task.id, action="broken", round=c.get("round"),
                            validator_sha256=validator.get("sha256"), problem=result.reason[:500],
                            warning="the input validator failed in the gate: this candidate's "
                            "inputs were checked without it")
    if result.finding != "validator_rejects_input":
        return ""
    ctx.run.events.emit("validator", task.id, action="rejects_input", round=c.get("round"),
                        index=c.get("index"), validator_sha256=validator.get("sha256"),
                        reason=result.artifacts.get("validator_says", "")[:300])
    return str(report.feedback(only={"inputs"}))


def library_path(task: TaskDescription, name: str) -> str:
    """Where the library keeps a bootcamp's input validator (next to its checker)."""
    return f"{task.source}/validators/{name}.py"


def record_fields(task: TaskDescription, name: str,
                  validator: ValidatorInfo | None) -> dict[str, Any]:
    """The library record's fields of the input validator (none without one)."""
    if not validator:
        return {}
    return {"validator_sha256": validator.get("sha256"),
            "validator_path": library_path(task, name)}
