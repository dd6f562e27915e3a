"""The state of one task's thread (JSON-serialisable: it is checkpointed) and the run context."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from filters.self_consistency import run_filter
from synth.gate import run_checks
from synth.library import Library
from synth.llm import LLMClient
from synth.prompts import Prompts
from synth.runs import Run, RunConfig
from synth.sandbox.base import Backend

TaskStatus = Literal["running", "accepted", "rejected"]


class Candidate(TypedDict, total=False):
    """One candidate module and what the gate said about it."""

    round: int
    index: int
    code: str | None
    failure: str | None  # extraction or model-call failure kind, when there is no code
    detail: str
    prompt_version: str
    checked: bool
    passed: bool
    hard_passed: int
    hard_total: int
    failing: list[str]
    feedback: str
    infrastructure_error: bool
    report_path: str


class TaskState(TypedDict, total=False):
    task: dict[str, Any]  # TaskDescription, as JSON
    round: int
    candidates: list[Candidate]  # the current round's
    best: Candidate | None  # best so far, by hard checks passed
    history: list[dict[str, Any]]  # one summary per round
    filter: dict[str, Any] | None  # FilterResult summary
    status: TaskStatus
    reason_code: str
    reason: str
    committed: str | None  # bootcamp name in the library


@dataclass
class Budget:
    limit_usd: float | None
    llm: LLMClient

    @property
    def exhausted(self) -> bool:
        return self.limit_usd is not None and self.llm.total_cost_usd >= self.limit_usd


@dataclass
class WorkflowContext:
    """Run-scoped dependencies handed to every node (never checkpointed)."""

    config: RunConfig
    run: Run
    llm: LLMClient
    library: Library
    exemplar_library: Library
    backend: Backend
    prompts: Prompts
    sandbox_slots: asyncio.Semaphore
    budget: Budget
    #: the gate and the filter; replaceable only to benchmark orchestration alone
    gate: Callable[..., Any] = run_checks
    acceptance_filter: Callable[..., Any] = run_filter
    extra: dict[str, Any] = field(default_factory=dict)
