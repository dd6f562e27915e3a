"""Calibration: a bootcamp's per-level pass rates measured properly, with their uncertainty.

The acceptance filter stops as soon as its verdict is decided, so the rates it leaves in a
library record can rest on one or two answers per level. :func:`measure` runs the very same
machinery (:func:`filters.self_consistency.run_filter`: K prompts drawn over LEVELS round-robin
in a sandboxed method server, every answer scored by the bootcamp's own ``verify_score`` in the
sandbox's warm pool) with early stopping off, and summarises it per level with a 95% Wilson
interval. :func:`write_calibration` writes a clean measurement into the record
(:meth:`synth.library.Library.set_calibration`).

A measurement that cannot be trusted -- ``verify_score`` raised, timed out or gave an invalid
score; the bootcamp could not draw K cases; more solver calls failed than the filter tolerates --
carries a :class:`Finding` with its evidence and must not be written.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from filters.self_consistency import (
    Chat,
    FilterConfig,
    FilterResult,
    SampleRecord,
    Solve,
    run_filter,
)
from synth.library import BootcampRecord, Calibration, Library, utc_now
from synth.sandbox.base import Backend
from synth.training.curriculum import wilson_interval

FindingKind = Literal["verifier_error", "sample_error", "solver_error", "sandbox_error"]


class LevelMeasure(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: str
    answers: int
    passed: float
    rate: float
    low: float
    high: float


class Finding(BaseModel):
    """Why a measurement is not written, with the evidence."""

    model_config = ConfigDict(extra="forbid")

    kind: FindingKind
    reason: str
    level: str | None = None
    seed: int | None = None
    prompt_head: str = ""
    response: str | None = None
    error: str = ""
    solver_failures: int = 0


class CalibrationResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    verdict: str = Field(description="the filter's verdict at this K (band [low, high])")
    reason: str
    band: tuple[float, float]
    requested: int
    answered: int
    solver_failures: int
    pass_rate: float | None
    low: float | None = None
    high: float | None = None
    levels: list[LevelMeasure] = Field(default_factory=list)
    finding: Finding | None = None
    calibration: Calibration
    answers: list[SampleRecord] = Field(default_factory=list, exclude=True, description=
                                        "every answer: level, seed, prompt head, response, score "
                                        "(the evidence; `synth calibrate --answers-out`)")

    @property
    def ok(self) -> bool:
        return self.finding is None


def _finding(res: FilterResult, failures: int) -> Finding | None:
    if res.verdict == "sample_error":
        return Finding(kind="sample_error", reason=res.reason)
    if res.verdict == "solver_error":
        last = next((s for s in reversed(res.samples) if s.outcome == "solver_error"), None)
        return Finding(kind="solver_error", reason=res.reason, solver_failures=failures,
                       level=last.level if last else None, seed=last.seed if last else None,
                       prompt_head=last.prompt_head if last else "", error=last.error if last else "")
    if res.verdict != "verifier_error":
        return None
    # the sample the filter stopped at: scored by the sandbox but without a valid score
    bad = next((s for s in res.samples if s.outcome != "solver_error" and s.score is None), None)
    kind: FindingKind = "sandbox_error" if bad is not None and bad.outcome == "sandbox_error" \
        else "verifier_error"
    if bad is None:
        return Finding(kind=kind, reason=res.reason)
    return Finding(kind=kind, reason=res.reason, level=bad.level, seed=bad.seed,
                   prompt_head=bad.prompt_head, response=bad.response, error=bad.error)


def summarise(res: FilterResult, calibration: Calibration, band: tuple[float, float]) -> CalibrationResult:
    """Per-level answers, rates and Wilson intervals of a filter result (LEVELS order)."""
    failures = sum(1 for s in res.samples if s.outcome == "solver_error")
    sums: dict[str, list[float]] = {}
    for s in sorted(res.samples, key=lambda r: r.index):
        if s.score is not None:
            sums.setdefault(s.level, []).append(s.score)
    levels = []
    for lvl, scores in sums.items():
        lo, hi = wilson_interval(sum(scores), len(scores))
        levels.append(LevelMeasure(level=lvl, answers=len(scores), passed=sum(scores),
                                   rate=sum(scores) / len(scores), low=lo, high=hi))
    total = sum(m.passed for m in levels)
    lo_all, hi_all = wilson_interval(total, res.answered) if res.answered else (None, None)
    calibration = calibration.model_copy(update={"samples_answered": res.answered,
                                                 "solver_failures": failures})
    return CalibrationResult(
        verdict=res.verdict, reason=res.reason, band=band, requested=res.requested,
        answered=res.answered, solver_failures=failures, pass_rate=res.pass_rate,
        low=lo_all, high=hi_all, levels=levels, finding=_finding(res, failures),
        calibration=calibration, answers=sorted(res.samples, key=lambda r: r.index),
    )


async def measure(
    code: str,
    solve: Solve,
    *,
    samples: int,
    seed: int,
    solver_model: str,
    endpoint: str,
    temperature: float | None = None,
    backend: str | Backend = "auto",
    solver_concurrency: int = 16,
    chat: Chat | None = None,
) -> CalibrationResult:
    """Ask ``solve`` all ``samples`` prompts of ``code`` (no early stop) and summarise; a
    multi-turn bootcamp plays ``samples`` whole episodes (``chat``: the solver over the
    conversation so far)."""
    cfg = FilterConfig(samples=samples, seed=seed, early_stop=False,
                       solver_concurrency=solver_concurrency)
    calibration = Calibration(solver_model=solver_model, endpoint=endpoint, temperature=temperature,
                              samples_requested=samples, samples_answered=0, seed=seed,
                              calibrated_at=utc_now())
    res = await run_filter(code, solve, config=cfg, backend=backend, chat=chat)
    return summarise(res, calibration, (cfg.low, cfg.high))


def write_calibration(library: Library, name: str, code_sha256: str,
                      result: CalibrationResult) -> BootcampRecord:
    """Write a clean measurement into ``name``'s record (:meth:`Library.set_calibration`:
    atomic, under the library's lock, refused if the code is no longer ``code_sha256``)."""
    if result.finding is not None or result.pass_rate is None:
        raise ValueError("a measurement with a finding is never written")
    return library.set_calibration(
        name,
        code_sha256=code_sha256,
        pass_rate=result.pass_rate,
        samples=result.answered,
        level_pass_rates={m.level: round(m.rate, 4) for m in result.levels},
        level_samples={m.level: m.answers for m in result.levels},
        calibration=result.calibration,
    )
