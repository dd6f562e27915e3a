"""The state of one task's thread (JSON-serialisable: it is checkpointed) and the run context."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from filters.self_consistency import run_filter
from synth.gate import run_checks
from synth.library import Library
from synth.models.llm import LLMClient
from synth.models.prompts import Prompts
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
    argument: str | None  # the coder's "CHECKER IS WRONG:" argument, if its reply had one
    reused: bool  # the best code again, re-checked after the checker was rewritten
    differential: dict[str, Any] | None  # the differential check's verdict, with a checker
    differential_feedback: str  # that check's evidence as the revise prompt shows it
    mode: Literal["full", "compiled", "function"]  # how it was written (compiled: reference embedded)
    model_code: str | None  # compiled mode: the part the model wrote (after repairs)
    repairs: list[dict[str, Any]]  # deterministic repairs applied before or between gate runs
    repaired_path: str  # the repaired module in the run folder, when there were repairs
    key_failures: list[str]  # "check: reason" of the first failing checks (earlier-rounds lines)
    steer: int  # the steering round (1..steer_rounds) that asked for it, 0 for draft/revise
    engines: dict[str, str]  # engines its gate run started, name -> version (ENGINES)
    validator_argument: str | None  # the coder's "VALIDATOR IS WRONG:" argument, if any
    validator_feedback: str  # the inputs check's evidence when the validator rejected an input
    key: dict[str, Any] | None  # the key check's verdict (synth.workflow.answer_key.summary)


class CheckerExample(TypedDict):
    """One case drawn from a candidate in the sandbox, as the judge model sees it."""

    level: str
    seed: int
    case_text: str  # canonical JSON of the identity
    prompt: str


class CheckerInfo(TypedDict, total=False):
    """The independent checker in use (written by the judge role)."""

    code: str
    sha256: str
    round: int  # written before this round's check
    origin: Literal["initial", "argued", "format"]
    generation: int  # 1 for the first checker of the task, +1 per rewrite
    path: str  # relative to the run folder
    keys: list[str]  # top-level keys of the identities it was written for
    examples: list[CheckerExample]
    model: str
    prompt_version: str


class JudgeProgramInfo(TypedDict, total=False):
    """A program the judge role wrote, in use (:mod:`synth.workflow.judge_program`)."""

    code: str
    sha256: str
    round: int  # written before this round's check
    origin: Literal["initial", "argued"]
    generation: int  # 1 for the first program of its kind for the task, +1 per rewrite
    path: str  # relative to the run folder
    model: str
    prompt_version: str


class ValidatorInfo(JudgeProgramInfo, total=False):
    """The input validator in use (``validate(stdin) -> None | str``, written by the judge role
    from the statement and its example inputs)."""


class SolverInfo(JudgeProgramInfo, total=False):
    """The judge role's solver program in use: a second voter on a compiled task's answer key
    when the task has no other independent solution (:mod:`synth.workflow.answer_key`)."""


class Dispute(TypedDict, total=False):
    """The coder's argument that the checker is wrong, and what became of it."""

    round: int
    argument: str
    evidence: str  # the differential evidence the coder answered
    status: Literal["pending", "settled"]
    checker_before: str  # sha256 (of the validator, in a validator dispute)
    checker_after: str | None


class Steering(TypedDict, total=False):
    """One difficulty-steering round: the filter verdict before and after."""

    step: int  # 1 .. steer_rounds
    round: int  # the round of the steered candidate
    verdict_before: str  # too_easy | too_hard
    pass_rate_before: float | None
    level_pass_rates_before: dict[str, float]
    verdict_after: str | None  # a filter verdict, or gate_failed; None while pending
    pass_rate_after: float | None
    level_pass_rates_after: dict[str, float]


class TaskState(TypedDict, total=False):
    task: dict[str, Any]  # TaskDescription, as JSON
    round: int
    candidates: list[Candidate]  # the current round's
    best: Candidate | None  # best so far, by hard checks passed
    history: list[dict[str, Any]]  # one summary per round
    filter: dict[str, Any] | None  # FilterResult summary
    #: --calibrate: the K-answer measurement of the accepted candidate (FilterResult summary
    #: and its Calibration record), which the commit writes instead of the filter's rates
    calibration: dict[str, Any] | None
    status: TaskStatus
    reason_code: str
    reason: str
    committed: str | None  # bootcamp name in the library
    checker: CheckerInfo | None  # the independent checker in use, if any
    checker_log: list[dict[str, Any]]  # every generation and attempt (no code: see the run folder)
    judge_status: Literal["ready", "no_examples", "gave_up", "compiled"]
    dispute: Dispute | None  # the one dispute a task may raise
    format_regenerations: int
    mode: Literal["full", "compiled", "function"]  # decided once, at the draft
    steering: list[Steering]  # the difficulty-steering rounds so far
    validator: ValidatorInfo | None  # the input validator in use, if any
    validator_status: Literal["ready", "gave_up", "not_applicable"]
    validator_log: list[dict[str, Any]]  # every generation and attempt (no code)
    validator_dispute: Dispute | None  # the one validator dispute a task may raise
    key_solver: SolverInfo | None  # the judge's solver voting on the answer key, if any
    key_solver_status: Literal["ready", "gave_up", "not_needed"]
    key_solver_log: list[dict[str, Any]]  # every generation and attempt (no code)
    key_solver_dispute: Dispute | None  # the one re-examination the solver gets
    rekeyed: list[dict[str, Any]]  # answer keys replaced by a majority of the task's solutions


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
    #: False skips the judge step (no checker): only to benchmark orchestration alone
    judge_checkers: bool = True
    #: the library's curriculum (:attr:`synth.library.Manifest.curriculum`), read once when the
    #: context is made: the level names every gate call of the run checks
    curriculum: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
