"""The answer key in the workflow: who votes on it, a judge-written solver where the task has
no second solution, a majority key, and what the record says.

A compiled bootcamp's answer key is the task's first verified reference program. The gate's
key check (:mod:`synth.gate.key`) runs the key's voters on the bootcamp's generated inputs:

* the task's other verified solutions (:func:`voters`; the source keeps several,
  :mod:`synth.sources.codecontests`);
* where the task has none (or always, with ``key_solver="always"``: several solutions from one
  hostile file can be written to agree, the judge's cannot), a **solver** the judge role writes
  from the statement and the examples alone (``prompts/key_solver.j2``; never from the
  reference program or a candidate), in the judge step (:func:`solver_step`): it must run as
  a plain program and reproduce every example's output (for a task with several right
  outputs, only run on them), else it is regenerated once; if that fails too, the task goes on
  without it, said loudly. When the solver is the one that disagrees with the key, it is
  re-examined ONCE with the evidence (``argued``), like the checker and the validator.

After the gate: when one side of a disagreement has the majority of the task's solutions (the
check's ``majority``: two or more that agree against the embedded key and outnumber it, or
the key and its supporters against fewer), the other side's references lose their
``verified`` flag in the task (:func:`outvoted`), so that compiled mode embeds a majority
solution and only that side votes; the candidate is assembled again and re-checked -- once per
task. The judge's solver is never outvoted: its dissent stands. A compiled candidate whose
key is not verified is never committed unless the run allows it (``allow_unverified_key``,
``synth run --allow-unverified-key``); the library record says how the key was verified
(``key_verified_by``), and keeps the solver when one voted (``solvers/<name>.py``).

Run folder: ``candidates/<task>/key_solver.py`` (the solver in use), ``key_solver_round_<k>.py``
and ``.json`` (its sha256, origin, model, prompt version, every attempt), and
``key_solver_round_<k>.rejected_<j>.py``.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal, cast

from synth import compiled
from synth.gate import CheckReport
from synth.gate.key import Voter, task_voters
from synth.gate.programs import run_program
from synth.models.extract import _THINK_RE, MAX_CODE_CHARS, Extraction, _blocks, _parses
from synth.runner import PROGRAM_MODULES
from synth.runs import RunConfig
from synth.sandbox.base import Backend
from synth.tasks import TaskDescription
from synth.workflow.judge_program import ProgramRequest, ask_for_program
from synth.workflow.state import Candidate, Dispute, SolverInfo, TaskState, WorkflowContext

__all__ = ["SOLVER_LABEL", "extract_solver", "outvoted", "record_fields", "solver_step",
           "summary", "unverified", "vet_solver", "voters"]

#: how the key check names the judge's solver
SOLVER_LABEL = "the judge's solver"
#: attempts per solver: the first and, when it fails vetting, one regeneration
ATTEMPTS = 2
#: seconds the solver may take on one example input while it is vetted
EXAMPLE_LIMIT_S = 5.0
_CHECK_OUTPUT_RE = re.compile(r"^\s+def\s+check_output\s*\(", re.MULTILINE)

Reason = Literal["initial", "argued"]


# -- voters ------------------------------------------------------------------------------------


def voters(task: TaskDescription, c: Candidate, solver: str | None) -> list[Voter]:
    """The programs that vote on ``c``'s answer key in the gate: the task's other verified
    solutions (not the key, not copies) and the judge's solver, if any. The oracle's reference
    program (the key, in compiled mode) is given to the gate apart."""
    from synth.workflow.coder import reference

    ref = reference(task, c.get("mode") or "full")
    key = compiled.embedded_program(c.get("code") or "") if c.get("mode") == "compiled" else None
    found, _ = task_voters(task, key if key is not None else (ref.code if ref else None))
    if solver:
        found.append(Voter(solver, SOLVER_LABEL, kind="solver"))
    return found


def summary(report: CheckReport) -> dict[str, Any] | None:
    """What the workflow keeps of the key check on a candidate (None when it did not run)."""
    check = report.get("key")
    if check is None:
        return None
    arts = check.artifacts
    try:
        majority = json.loads(arts["majority"]) if arts.get("majority") else None
    except ValueError:
        majority = None
    return {"status": check.status.value, "finding": check.finding or None,
            "verified": report.key_verified, "verified_by": arts.get("verified_by"),
            "voter": arts.get("voter"), "majority": majority, "reason": check.reason,
            "evidence": _evidence(arts.get("disagreements", ""))}


def _evidence(disagreements: str) -> str:
    """The solver's disagreements as the re-examination prompt shows them (inputs and both
    outputs; nothing else of the bootcamp)."""
    try:
        rows = json.loads(disagreements) if disagreements else []
    except ValueError:
        return ""
    shown = []
    for n, row in enumerate(r for r in rows if isinstance(r, dict)
                            and r.get("voter") == SOLVER_LABEL):
        shown.append(f"Input {n + 1}:\n```\n{str(row.get('stdin', ''))[:1500]}\n```\n"
                     f"Your program printed: {str(row.get('voter_output', ''))[:300]!r}\n"
                     f"The other program printed: {str(row.get('key_output', ''))[:300]!r}")
    return "\n\n".join(shown[:3])


def unverified(best: Candidate, config: RunConfig) -> str | None:
    """Why a passing compiled candidate may not be committed (its key is not verified and the
    run does not allow that), else None."""
    if best.get("mode") != "compiled" or config.allow_unverified_key:
        return None
    key = best.get("key") or {}
    if key.get("verified"):
        return None
    said = key.get("verified_by") or "the key check did not run"
    return (f"the answer key (the task's reference program) is not verified -- {said}; no "
            "second source of answers agrees with it on generated inputs (give the task "
            "another solution, or pass --allow-unverified-key to commit such bootcamps)")


# -- a majority key ----------------------------------------------------------------------------


def outvoted(task: TaskDescription, key: dict[str, Any] | None) -> TaskDescription | None:
    """``task`` with every verified solution outside the check's majority marked unverified
    (so compiled mode embeds a majority solution), or None when there is no majority or no
    majority solution could be embedded."""
    majority = set((key or {}).get("majority") or [])
    if not majority:
        return None
    refs = []
    for ref in task.references:
        sha = hashlib.sha256(ref.code.encode("utf-8")).hexdigest()
        refs.append(ref.model_copy(update={"verified": False})
                    if ref.verified and sha not in majority else ref)
    if refs == task.references:
        return None  # nothing to drop (the dissent is the judge's solver: it is not outvoted)
    new = task.model_copy(update={"references": refs})
    program = compiled.compiled_reference(new)
    if program is None or hashlib.sha256(program.encode("utf-8")).hexdigest() not in majority:
        return None
    return new


async def rekey(ctx: WorkflowContext, task: TaskDescription, c: Candidate, report: CheckReport,
                regate: Callable[[TaskDescription], Awaitable[CheckReport]],
                ) -> tuple[TaskDescription, CheckReport, dict[str, Any] | None]:
    """When the gate found a majority among the task's solutions on ``c``'s key: the task
    without the outvoted solutions (a majority key embedded), ``c`` assembled with it and
    checked again (its report), and what happened (for the state's ``rekeyed``); else
    everything unchanged and None."""
    from synth.workflow.coder import assemble

    new = outvoted(task, summary(report))
    if new is None or c.get("mode") != "compiled":
        return task, report, None
    before = compiled.embedded_program(c.get("code") or "") or ""
    stem = f"round_{c.get('round', 0)}_{c.get('index', 0)}"
    (ctx.run.candidate_dir(task.id) / f"{stem}.check.before_rekey.json").write_text(
        report.model_dump_json(indent=1), encoding="utf-8")
    assemble(c, new)
    after = compiled.embedded_program(c.get("code") or "") or ""
    check = report.get("key")
    done = {"round": c.get("round"), "index": c.get("index"),
            "outvoted_sha256": hashlib.sha256(before.encode()).hexdigest(),
            "key_sha256": hashlib.sha256(after.encode()).hexdigest(),
            "reason": (check.reason if check is not None else "")[:400]}
    ctx.run.events.emit("key", task.id, action="rekeyed", **done)
    if not c.get("code"):
        return new, report, done
    return new, await regate(new), done


# -- the judge's solver ------------------------------------------------------------------------


def extract_solver(text: str, finish_reason: str | None = None) -> Extraction:
    """The solver program in a judge reply: the last Python block."""
    if not isinstance(text, str) or not text.strip():
        return Extraction(failure="no_code", detail="the answer was empty")
    blocks, unterminated = _blocks(_THINK_RE.sub("", text))
    found = [b for lang, b in blocks if lang in ("", "python", "py", "python3") and b.strip()]
    if not found:
        if unterminated is not None and unterminated.strip():
            return Extraction(failure="truncated", blocks_found=len(blocks), detail=(
                "the code block was never closed" + (" (the answer hit the token limit)"
                if finish_reason == "length" else "") + "; write a shorter, complete program"))
        return Extraction(failure="no_code", blocks_found=len(blocks), detail=(
            "no ```python block; reply with the whole program in one ```python block"))
    code = found[-1].strip("\n") + "\n"
    if len(code) > MAX_CODE_CHARS:
        return Extraction(failure="too_large", blocks_found=len(blocks),
                          detail=f"the program has {len(code)} characters; the limit is {MAX_CODE_CHARS}")
    err = _parses(code)
    if err is not None:
        return Extraction(failure="syntax_error", blocks_found=len(blocks),
                          detail=f"SyntaxError at line {err.lineno}: {err.msg}")
    return Extraction(code=code, blocks_found=len(blocks))


def vet_solver(code: str, examples: list[tuple[str, str]], several: bool,
               backend: Backend) -> str | None:
    """None when ``code`` runs as a plain program and answers every example (with the
    expected output, unless the task accepts several); else what is wrong, for the judge."""
    problems = compiled.program_problems(code)
    if problems:
        return "the program breaks the rules: " + "; ".join(problems[:5])
    if not examples:
        return None
    runs = run_program(backend, code, [i for i, _ in examples], timeout_s=EXAMPLE_LIMIT_S,
                       memory_mb=512, role="solver")
    if runs.outputs is None:
        return runs.why("your program")
    for n, ((_, want), out) in enumerate(zip(examples, runs.outputs, strict=True), 1):
        if out["code"] is None:
            return f"it gave no answer within {EXAMPLE_LIMIT_S:g}s on example {n}"
        if out["code"] != 0:
            return (f"it failed on example {n} (exit status {out['code']}):\n"
                    f"{str(out['stderr']).strip()[-1200:]}")
        if not several and out["stdout"].split() != want.split():
            return (f"on example {n} it printed {out['stdout'].strip()[:300]!r}; the expected "
                    f"output is {want.strip()[:300]!r}")
    return None


def _examples(task: TaskDescription) -> list[tuple[str, str]]:
    if task.examples:
        return [(e.input, e.output) for e in task.examples]
    return [(t.input, t.output) for t in task.tests.public]


def _several(state: TaskState) -> bool:
    """A candidate defines check_output: the task accepts several right outputs."""
    from synth.workflow.coder import model_part

    cands = [*state.get("candidates", []), *([state["best"]] if state.get("best") else [])]
    return any(_CHECK_OUTPUT_RE.search(model_part(c) or "") for c in cands if c)


def _need(state: TaskState, task: TaskDescription, config: RunConfig
          ) -> tuple[Reason | None, str]:
    best = state.get("best") or {}
    key = best.get("key") or {}
    if state.get("key_solver") and key.get("finding") == "key_disagrees" and \
            key.get("voter") == SOLVER_LABEL and state.get("key_solver_dispute") is None:
        return "argued", ""
    if state.get("key_solver") is not None or state.get("key_solver_status") == "gave_up":
        return None, ""
    if state.get("mode") != "compiled":
        return None, "full mode: the bootcamp's own reference_answer is the key"
    program = compiled.compiled_reference(task)
    if program is None:
        return None, "the task has no verified reference program to embed"
    others, _ = task_voters(task, program)
    if others and config.key_solver == "auto":
        return None, f"the task has {len(others)} other independent solution(s) to vote"
    return "initial", ""


async def solver_step(state: TaskState, ctx: WorkflowContext) -> dict[str, Any]:
    """The state update of the judge step's solver part (empty when nothing changes)."""
    t0 = time.perf_counter()
    task = TaskDescription.model_validate(state["task"])
    rnd = state.get("round", 0)
    reason, why = _need(state, task, ctx.config)
    if reason is None:
        if why and state.get("key_solver_status") is None:
            ctx.run.events.emit("key", task.id, action="solver_not_needed", round=rnd, why=why)
            return {"key_solver_status": "not_needed"}
        return {}
    current = state.get("key_solver")
    best = state.get("best") or {}
    dispute: Dispute | None = None
    if reason == "argued":
        dispute = {"round": rnd, "argument": "", "status": "pending",
                   "evidence": (best.get("key") or {}).get("evidence") or "",
                   "checker_before": (current or {}).get("sha256", "")}
    info, log = await _generate(ctx, task, rnd, reason, current, dispute, _several(state))
    update: dict[str, Any] = {"key_solver_log": [*state.get("key_solver_log", []), log]}
    if dispute is not None:
        update["key_solver_dispute"] = {**dispute, "status": "settled",
                                        "checker_after": info["sha256"] if info else None}
    if info is not None:
        update["key_solver"] = info
        update["key_solver_status"] = "ready"
    elif current is None:
        update["key_solver_status"] = "gave_up"
    ctx.run.events.emit("key", task.id, action="solver_step", round=rnd, reason=reason,
                        outcome="generated" if info else "gave_up",
                        elapsed_s=round(time.perf_counter() - t0, 4))
    return update


async def _generate(ctx: WorkflowContext, task: TaskDescription, rnd: int, reason: Reason,
                    current: SolverInfo | None, dispute: Dispute | None, several: bool
                    ) -> tuple[SolverInfo | None, dict[str, Any]]:
    """Ask the judge model for a solver (:func:`~synth.workflow.judge_program.ask_for_program`)."""
    examples = _examples(task)
    req = ProgramRequest(
        kind="key", stem="key_solver", tag="key_solver", template="key_solver.j2",
        context={"task_text": compiled.task_text(task),
                 "examples": [{"input": i, "output": o} for i, o in examples],
                 "several": several, "modules": sorted(PROGRAM_MODULES)},
        extract=extract_solver,
        vet=lambda code: vet_solver(code, examples, several, ctx.backend),
        sha_field="solver_sha256",
        actions=("solver_rejected", "solver_generated", "solver_gave_up"),
        gave_up=("solver", "the answer key has no second voter (such a bootcamp is not "
                 "committed unless --allow-unverified-key)"),
        examples=len(examples), log_extra={"several_outputs": several}, attempts=ATTEMPTS)
    info, log = await ask_for_program(ctx, task, rnd, reason, current, dispute, req)
    return cast("SolverInfo | None", info), log


# -- the library record ------------------------------------------------------------------------


def library_path(task: TaskDescription, name: str) -> str:
    """Where the library keeps a bootcamp's key solver (next to its checker and validator)."""
    return f"{task.source}/solvers/{name}.py"


def record_fields(task: TaskDescription, name: str, state: TaskState,
                  config: RunConfig) -> dict[str, Any]:
    """The library record's fields of the answer key: how it was verified, and the solver
    that voted (when one did)."""
    best = state.get("best") or {}
    key = best.get("key") or {}
    said = key.get("verified_by")
    if said is None:
        said = "unverified: the key check did not run"
    if not key.get("verified") and best.get("mode") == "compiled" and config.allow_unverified_key:
        said += " (committed under --allow-unverified-key)"
    out: dict[str, Any] = {"key_verified_by": said[:400]}
    solver = state.get("key_solver")
    if solver and SOLVER_LABEL in said:
        out.update(key_solver_sha256=solver.get("sha256"),
                   key_solver_path=library_path(task, name))
    return out
