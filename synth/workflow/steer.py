"""Difficulty steering: a too_easy / too_hard filter verdict earns one more revise round.

    filter --too_easy|too_hard--> steer -> judge -> check -> filter -> commit | steer | reject

The steer prompt (``steer.j2``, after the stable prefix) shows the module that passed the gate,
the overall and per-level pass rates, the band, and asks for stronger (too easy) or weaker (too
hard) LEVELS while keeping the verifier. The steered candidate goes through the judge, the gate
and the filter again; ``steer_rounds`` bounds the steering rounds of a task (0: a too_easy or
too_hard verdict rejects at once). A steered candidate that fails the gate is revised like any
other while revision rounds last; if it never passes again the task is rejected with the verdict
that started the steering.

Events: ``steer`` with ``action="asked"`` (step, round, the verdict, overall and per-level pass
rates before) and ``action="result"`` (the verdict and rates after, or ``gate_failed``).
"""

from __future__ import annotations

import time
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from synth.tasks import TaskDescription
from synth.workflow.coder import ask_and_repair, earlier_rounds, model_part, render, state_mode
from synth.workflow.state import Steering, TaskState, WorkflowContext


def level_rows(filt: dict[str, Any]) -> list[dict[str, Any]]:
    """(name, rate, count) per level, in the order the filter recorded them."""
    rates = filt.get("level_pass_rates") or {}
    counts = filt.get("level_counts") or {}
    return [{"name": name, "rate": float(rate), "count": int(counts.get(name, 0))}
            for name, rate in rates.items()]


async def steer(state: TaskState, runtime: Runtime[WorkflowContext]) -> Command[Literal["judge"]]:
    """Ask the code model for stronger or weaker LEVELS; the result is checked and filtered."""
    ctx = runtime.context
    t0 = time.perf_counter()
    task = TaskDescription.model_validate(state["task"])
    mode = state_mode(state)
    best = state.get("best") or {}
    filt = state.get("filter") or {}
    steering = list(state.get("steering", []))
    step = len(steering) + 1
    rnd = state.get("round", 0) + 1
    verdict = str(filt.get("verdict"))
    rate = filt.get("pass_rate")
    text, version = render(
        ctx, "steer.j2", task, mode, code=model_part(best), verdict=verdict,
        pass_rate=float(rate or 0.0), levels=level_rows(filt), answered=filt.get("answered", 0),
        earlier=earlier_rounds(state.get("history", [])), step=step, steps=ctx.config.steer_rounds,
    )
    cand = await ask_and_repair(ctx, task, mode, text, version, f"steer|{step}", rnd, 0)
    cand["steer"] = step
    record = Steering(step=step, round=rnd, verdict_before=verdict, pass_rate_before=rate,
                      level_pass_rates_before=dict(filt.get("level_pass_rates") or {}),
                      verdict_after=None, pass_rate_after=None, level_pass_rates_after={})
    ctx.run.events.emit("steer", task.id, action="asked", step=step, steps=ctx.config.steer_rounds,
                        round=rnd, verdict_before=verdict, pass_rate_before=rate,
                        level_pass_rates_before=record["level_pass_rates_before"],
                        band=[ctx.config.band_low, ctx.config.band_high],
                        with_code=bool(cand.get("code")), failure=cand.get("failure"))
    ctx.run.events.emit("node", task.id, node="steer", round=rnd, step=step, prompt_version=version,
                        task_chars=len(text), elapsed_s=round(time.perf_counter() - t0, 4),
                        with_code=bool(cand.get("code")),
                        failures=[cand.get("failure")] if cand.get("failure") else [],
                        repairs=len(cand.get("repairs") or []))
    # the module that was too easy or too hard is no longer the best: the steered one replaces it
    return Command(goto="judge", update={"candidates": [cand], "round": rnd, "best": None,
                                         "filter": None, "steering": [*steering, record]})
