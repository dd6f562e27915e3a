"""The judge step: an independent checker for the differential check, written by the ``judge``
model role from the task statement and example cases only -- never from the bootcamp's code.

    draft -> judge -> check ...    revise -> judge -> check ...

Before a round's check the node decides whether a (new) checker is needed:

* ``initial``: the task has none yet. Three example cases (identity JSON and rendered prompt)
  are drawn from the first candidate in the sandbox (``sample`` on its method server; the host
  never imports candidate code) and shown with the task statement.
* ``argued``: the coder's revision said ``CHECKER IS WRONG:`` with an argument, answering a
  differential finding. The checker is rewritten ONCE per task, with that argument and the
  evidence of both sides; then the gate runs again (on the coder's new module, or on the same
  one when the reply had none).
* ``format``: a revision's cases have other top-level fields than the checker was written for;
  it is rewritten for them (at most :data:`MAX_FORMAT_REGENERATIONS` times).

Every reply is vetted before use: extracted, linted (static ``checker`` mode), loaded in the
sandbox and run on the example cases (``check`` must return a bool, ``solve`` a str that its own
``check`` accepts, ``probes`` a list of str). A checker that fails is regenerated once with the
problem shown; if that fails too the task goes on without (a new) checker -- recorded in the
state and, loudly, in the event log (``judge`` events with a ``warning``).

Run folder: ``checkers/<task>/round_<k>.py`` (the checker used from round k's check on),
``round_<k>.json`` (its sha256, origin, model, prompt version, examples, every attempt),
``round_<k>.rejected_<j>.py`` (attempts that failed vetting) and ``verdicts.jsonl`` (the
differential verdict on each candidate checked with it; the full result is in the
candidate's ``.check.json``).
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

from synth.models.extract import _THINK_RE, MAX_CODE_CHARS, Extraction, _blocks, _parses
from synth.models.llm import LLMFailure
from synth.runs import task_slug
from synth.sandbox.base import Backend, SandboxUnavailableError
from synth.sandbox.methods import MethodServer, server_limits
from synth.sandbox.static import ALLOWED_IMPORTS, check_source, format_violations
from synth.serving.sampling import DEFAULT_LEVEL, CaseSampler, SampleError
from synth.tasks import TaskDescription
from synth.workflow.judge_program import CHECKER_MARK
from synth.workflow.state import (
    Candidate,
    CheckerExample,
    CheckerInfo,
    Dispute,
    TaskState,
    WorkflowContext,
)

__all__ = [
    "MAX_FORMAT_REGENERATIONS",
    "case_keys",
    "checker_dir",
    "draw_examples",
    "extract_checker",
    "judge",
    "vet_checker",
]

MAX_FORMAT_REGENERATIONS = 2
EXAMPLES = 3
#: attempts per checker: the first and, when it fails vetting, one regeneration
ATTEMPTS = 2
CALL_LIMIT_S = 2.0

_CHECK_DEF_RE = re.compile(r"^def\s+check\s*\(", re.MULTILINE)

Reason = Literal["initial", "argued", "format"]


# -- pure helpers ----------------------------------------------------------------------------


def extract_checker(text: str, finish_reason: str | None = None) -> Extraction:
    """The checker module in a judge reply: the last Python block defining ``check``."""
    if not isinstance(text, str) or not text.strip():
        return Extraction(failure="no_code", detail="the answer was empty")
    blocks, unterminated = _blocks(_THINK_RE.sub("", text))
    found = [b for lang, b in blocks if lang in ("", "python", "py", "python3") and _CHECK_DEF_RE.search(b)]
    if not found:
        if unterminated is not None and _CHECK_DEF_RE.search(unterminated):
            return Extraction(failure="truncated", blocks_found=len(blocks), detail=(
                "the code block was never closed" + (" (the answer hit the token limit)"
                if finish_reason == "length" else "") + "; write a shorter, complete module"))
        return Extraction(failure="no_code", blocks_found=len(blocks), detail=(
            "no ```python block defines a top-level function check(identity, answer); reply "
            "with the whole checker module in one ```python block"))
    code = found[-1].strip("\n") + "\n"
    if len(code) > MAX_CODE_CHARS:
        return Extraction(failure="too_large", blocks_found=len(blocks),
                          detail=f"the module has {len(code)} characters; the limit is {MAX_CODE_CHARS}")
    err = _parses(code)
    if err is not None:
        return Extraction(failure="syntax_error", blocks_found=len(blocks),
                          detail=f"SyntaxError at line {err.lineno}: {err.msg}")
    return Extraction(code=code, blocks_found=len(blocks))


def case_keys(examples: list[CheckerExample]) -> list[str]:
    """The top-level keys of the example identities (what a checker's code relies on)."""
    keys: set[str] = set()
    for ex in examples:
        case = json.loads(ex["case_text"])
        if isinstance(case, dict):
            keys.update(str(k) for k in case)
    return sorted(keys)


def checker_dir(ctx: WorkflowContext, task_id: str) -> Path:
    d = ctx.run.root / "checkers" / task_slug(task_id)
    d.mkdir(parents=True, exist_ok=True)
    return d


# -- sandboxed work (synchronous: one thread starts, uses and closes each server) -----------


def draw_examples(code: str, backend: Backend, seed: int, n: int = EXAMPLES
                  ) -> tuple[list[CheckerExample], list[str], str]:
    """(examples, reference answers, problem) from the candidate ``code`` in its own sandboxed
    method server: ``n`` cases spread over its levels. The reference answers stay on the host
    (vetting runs the checker on them; the judge model never sees them)."""
    sampler = CaseSampler(code, backend=backend, name="the candidate", call_limit_s=5.0)
    try:
        sampler.start()
        levels = sampler.levels or [DEFAULT_LEVEL]
        specs = [(levels[i % len(levels)], seed + i) for i in range(n)]
        rows = sampler.sample(specs, answers=True)
    except SampleError as exc:
        return [], [], exc.message[:500]
    except SandboxUnavailableError as exc:
        return [], [], f"sandbox: {exc}"[:500]
    finally:
        sampler.close()
    examples = [CheckerExample(level=r.level, seed=r.seed, case_text=r.case_text, prompt=r.prompt)
                for r in rows]
    return examples, [r.answer or "" for r in rows], ""


def _failed(what: str, reply: Any) -> str:
    tail = (reply.traceback or "").strip()[-1200:]
    return f"{what}: {reply.error or reply.outcome.value}" + (f"\n{tail}" if tail else "")


def vet_checker(code: str, examples: list[CheckerExample], answers: list[str],
                backend: Backend) -> tuple[str | None, dict[str, Any]]:
    """(problem, facts): None when ``code`` lints, loads in the sandbox and runs on every
    example; else what is wrong, written for the judge model. ``facts`` holds the functions it
    defines and its verdicts on the examples' reference answers (recorded, not judged here)."""
    violations = check_source(code, "checker")
    if violations:
        return (f"the static gate refused the checker ({len(violations)} violation(s)):\n"
                f"{format_violations(violations)}"), {}
    server = MethodServer(code, backend=backend, mode="checker", role="checker",
                          limits=server_limits(), label="judge")
    try:
        reply = server.start()
        if not reply.ok:
            return _failed("the checker did not load", reply), {}
        functions = reply.value.get("functions")
        if type(functions) is not list or "check" not in functions:
            return "the checker defines no top-level check(identity, answer)", {}
        verdicts: list[bool] = []
        for i, (ex, answer) in enumerate(zip(examples, answers, strict=True), 1):
            where = f"example {i} (level {ex['level']})"
            r = server.call("check", {"case_text": ex["case_text"], "answer": answer},
                            timeout_s=CALL_LIMIT_S)
            if not r.ok:
                return _failed(f"check() failed on {where}", r), {}
            if type(r.value) is not bool:
                return f"check() returned {str(r.value)[:100]} on {where}, not a bool", {}
            verdicts.append(r.value)
            if "solve" in functions:
                r = server.call("solve", {"case_text": ex["case_text"]}, timeout_s=CALL_LIMIT_S)
                if not r.ok:
                    return _failed(f"solve() failed on {where}", r), {}
                if type(r.value) is not str:
                    return f"solve() returned {str(r.value)[:100]} on {where}, not a str", {}
                r = server.call("check", {"case_text": ex["case_text"], "answer": r.value},
                                timeout_s=CALL_LIMIT_S)
                if not r.ok:
                    return _failed(f"check() failed on solve()'s answer to {where}", r), {}
                if r.value is not True:
                    return f"check() rejects solve()'s own answer on {where}", {}
            if "probes" in functions:
                r = server.call("probes", {"case_text": ex["case_text"]}, timeout_s=CALL_LIMIT_S)
                if not r.ok:
                    return _failed(f"probes() failed on {where}", r), {}
                if type(r.value) is not list:
                    return f"probes() returned {str(r.value)[:100]} on {where}, not a list of str", {}
        return None, {"functions": [str(f) for f in functions], "accepts_reference": verdicts}
    finally:
        server.close()


# -- the node ---------------------------------------------------------------------------------


def _task(state: TaskState) -> TaskDescription:
    return TaskDescription.model_validate(state["task"])


def _seed(task_id: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{task_id}|judge".encode()).digest()[:4], "big")


def _targets(cands: list[Candidate]) -> list[Candidate]:
    """Candidates to draw examples from: those the static gate accepts first, in order."""
    with_code = [c for c in cands if c.get("code")]
    clean = [c for c in with_code if not check_source(c.get("code") or "", "synth")]
    return clean + [c for c in with_code if c not in clean]


#: why a compiled candidate gets no independent checker
COMPILED_NO_CHECKER = ("compiled mode: the answer key is the output of the task's verified "
                       "reference program, compared token-wise by the contract, and the oracle "
                       "check runs that program itself; a model-written checker adds nothing")


def _compiled_against_verified(task: TaskDescription, cands: list[Candidate]) -> bool:
    """Every new candidate is compiled, leaves answer checking to the contract (no
    ``check_output`` of its own), and the task's embedded program is a verified one."""
    from synth.workflow.coder import compiled_program, model_part

    if cands and all(c.get("mode") == "function" for c in cands):
        return True  # the contract compares return values; nothing for a checker to add
    if not cands or compiled_program(task) is None:
        return False
    return all(c.get("mode") == "compiled" and "check_output" not in (model_part(c) or "")
               for c in cands)


def _need(state: TaskState) -> Reason | None:
    dispute = state.get("dispute")
    if dispute and dispute.get("status") == "pending":
        return "argued"
    if state.get("checker") is None:
        return None if state.get("judge_status") == "gave_up" else "initial"
    fresh = [c for c in state.get("candidates", []) if c.get("code") and not c.get("checked")
             and not c.get("reused")]
    if state.get("round", 0) > 0 and fresh and \
            state.get("format_regenerations", 0) < MAX_FORMAT_REGENERATIONS:
        return "format"
    return None


async def _draw(ctx: WorkflowContext, task: TaskDescription, cands: list[Candidate]
                ) -> tuple[list[CheckerExample], list[str], str]:
    problems: list[str] = []
    for c in cands:
        async with ctx.sandbox_slots:
            examples, answers, problem = await asyncio.to_thread(
                draw_examples, c.get("code") or "", ctx.backend, _seed(task.id))
        if examples:
            return examples, answers, ""
        problems.append(f"round {c.get('round')} candidate {c.get('index')}: {problem}")
    return [], [], "; ".join(problems) or "no candidate has code"


async def judge(state: TaskState, runtime: Runtime[WorkflowContext]) -> Command[Literal["check"]]:
    """Write (or rewrite) the independent checker, the input validator
    (:mod:`synth.workflow.input_validator`) and the answer key's solver
    (:mod:`synth.workflow.answer_key`) when they are needed; then the check."""
    from synth.workflow.answer_key import solver_step
    from synth.workflow.input_validator import validator_step

    done = await _checker_step(state, runtime)
    if not runtime.context.judge_checkers:
        return done
    more = await validator_step(state, runtime.context)
    more.update(await solver_step(state, runtime.context))
    if not more:
        return done
    update = done.update if isinstance(done.update, dict) else {}
    return Command(goto="check", update={**update, **more})


async def _checker_step(state: TaskState, runtime: Runtime[WorkflowContext]
                        ) -> Command[Literal["check"]]:
    """Write (or rewrite) the independent checker when one is needed."""
    ctx = runtime.context
    t0 = time.perf_counter()
    task = _task(state)
    rnd = state.get("round", 0)
    reason = _need(state) if ctx.judge_checkers else None
    if reason is None:
        return Command(goto="check")
    current = state.get("checker")
    emit = ctx.run.events.emit
    new = [c for c in state.get("candidates", []) if c.get("code") and not c.get("checked")]
    if reason == "initial" and _compiled_against_verified(task, new):
        emit("node", task.id, node="judge", round=rnd, reason=reason, action="not_needed",
             why=COMPILED_NO_CHECKER, elapsed_s=round(time.perf_counter() - t0, 4))
        return Command(goto="check", update={"judge_status": "compiled"})
    if reason == "format":
        new = [c for c in new if not c.get("reused")][:1]
    examples, answers, problem = await _draw(ctx, task, _targets(new))
    update: dict[str, Any] = {}
    if reason == "format":
        assert current is not None
        if not examples or case_keys(examples) == current.get("keys"):
            emit("node", task.id, node="judge", round=rnd, action="kept",
                 elapsed_s=round(time.perf_counter() - t0, 4))
            return Command(goto="check")
        update["format_regenerations"] = state.get("format_regenerations", 0) + 1
    if not examples:
        if reason == "argued" and current is not None:
            examples = list(current.get("examples") or [])  # the cases it was written for
            answers = []
        else:
            emit("judge", task.id, action="no_examples", round=rnd, reason=reason, problem=problem,
                 warning="no example case could be drawn from any candidate: no independent "
                 "checker this round (the gate runs without the differential check)")
            emit("node", task.id, node="judge", round=rnd, reason=reason, action="no_examples",
                 elapsed_s=round(time.perf_counter() - t0, 4))
            return Command(goto="check", update={"judge_status": "no_examples"})
    dispute = state.get("dispute") if reason == "argued" else None
    info, log = await _generate(ctx, task, rnd, reason, examples, answers, current, dispute)
    update["checker_log"] = [*state.get("checker_log", []), log]
    if dispute is not None:
        settled: Dispute = {**dispute, "status": "settled",
                            "checker_after": info["sha256"] if info else None}
        update["dispute"] = settled
    if info is not None:
        update["checker"] = info
        update["judge_status"] = "ready"
    elif current is None:
        update["judge_status"] = "gave_up"
    emit("node", task.id, node="judge", round=rnd, reason=reason,
         action="generated" if info else "gave_up", elapsed_s=round(time.perf_counter() - t0, 4))
    return Command(goto="check", update=update)


async def _generate(ctx: WorkflowContext, task: TaskDescription, rnd: int, reason: Reason,
                    examples: list[CheckerExample], answers: list[str],
                    current: CheckerInfo | None, dispute: Dispute | None
                    ) -> tuple[CheckerInfo | None, dict[str, Any]]:
    """Ask the judge model (at most :data:`ATTEMPTS` times); vet each reply; save the files."""
    emit = ctx.run.events.emit
    folder = checker_dir(ctx, task.id)
    spec = ctx.config.judge_spec
    attempts: list[dict[str, Any]] = []
    problem: str | None = None
    rejected: str | None = None
    version = ""
    for attempt in range(ATTEMPTS):
        text, version = ctx.prompts.render(
            "judge.j2", task=task, examples=examples, reason=reason,
            previous=(current or {}).get("code") if reason != "initial" else None,
            rejected=rejected, problem=problem, dispute=dispute, mark=CHECKER_MARK,
            allowed_imports=sorted(ALLOWED_IMPORTS - {"__future__"}),
        )
        try:
            res = await ctx.llm.complete("judge", [{"role": "user", "content": text}],
                                         tag=f"{task.id}|judge|{rnd}|{attempt}",
                                         prompt_version=version)
        except LLMFailure as exc:
            problem = f"the model call failed: llm_{exc.kind}: {exc.message[:300]}"
            attempts.append({"attempt": attempt, "problem": problem})
            emit("judge", task.id, action="attempt_rejected", round=rnd, reason=reason,
                 attempt=attempt, problem=problem)
            continue
        ex = extract_checker(res.text, res.finish_reason)
        code = ex.code
        facts: dict[str, Any] = {}
        if code is None:
            problem = ex.detail
        elif not answers:  # no fresh cases to run it on: lint and load only
            problem, facts = await _vet(ctx, code, [], [])
        else:
            problem, facts = await _vet(ctx, code, examples, answers)
        sha = hashlib.sha256(code.encode()).hexdigest() if code else None
        entry: dict[str, Any] = {"attempt": attempt, "sha256": sha, "problem": problem, **facts}
        attempts.append(entry)
        if problem is None and code is not None and sha is not None:
            path = folder / f"round_{rnd}.py"
            path.write_text(code, encoding="utf-8")
            info = CheckerInfo(
                code=code, sha256=sha, round=rnd, origin=reason,
                generation=int((current or {}).get("generation", 0)) + 1,
                path=str(path.relative_to(ctx.run.root)), keys=case_keys(examples),
                examples=examples, model=spec.model, prompt_version=version,
            )
            meta = {k: v for k, v in info.items() if k != "code"}
            log = {**meta, "task": task.id, "attempts": attempts, "status": "ready",
                   "dispute": dict(dispute) if dispute else None,
                   "replaces": (current or {}).get("sha256")}
            ctx.run.write_json(str((folder / f"round_{rnd}.json").relative_to(ctx.run.root)), log)
            emit("judge", task.id, action="generated", round=rnd, reason=reason,
                 checker_sha256=sha, path=info["path"], attempts=len(attempts),
                 functions=facts.get("functions"), model=spec.model)
            return info, {k: v for k, v in log.items() if k != "examples"}
        if code is not None:
            (folder / f"round_{rnd}.rejected_{attempt}.py").write_text(code, encoding="utf-8")
            rejected = code
        emit("judge", task.id, action="attempt_rejected", round=rnd, reason=reason,
             attempt=attempt, checker_sha256=sha, problem=(problem or "")[:500])
    kept = (current or {}).get("sha256")
    log = {"task": task.id, "round": rnd, "origin": reason, "status": "gave_up",
           "attempts": attempts, "model": spec.model, "prompt_version": version, "kept": kept}
    ctx.run.write_json(str((folder / f"round_{rnd}.json").relative_to(ctx.run.root)), log)
    emit("judge", task.id, action="gave_up", round=rnd, reason=reason, attempts=len(attempts),
         problem=(problem or "")[:500], kept=kept,
         warning=("the judge model gave no usable checker: " + (
             f"the earlier checker {kept[:12]} stays" if kept else
             "the task goes on WITHOUT an independent checker (no differential check)")))
    return None, log


async def _vet(ctx: WorkflowContext, code: str, examples: list[CheckerExample],
               answers: list[str]) -> tuple[str | None, dict[str, Any]]:
    async with ctx.sandbox_slots:
        return await asyncio.to_thread(vet_checker, code, examples, answers, ctx.backend)
