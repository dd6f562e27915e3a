"""The acceptance filter: a solver model's pass rate on a candidate must lie in a band.

The solver answers K prompts drawn from the candidate over its LEVELS (round-robin), in a
sandboxed method server (:func:`sample_prompts`); each response is scored by the candidate's
own ``verify_score`` in the sandbox's warm worker pool. Neither runs in this process.
Verdicts:

* ``accepted``       pass rate in [low, high];
* ``too_easy``       pass rate above ``high`` (nothing left to learn);
* ``too_hard``       pass rate below ``low`` (no learning signal);
* ``verifier_error`` a verification raised, timed out or ran out of memory: the bootcamp
  cannot be trusted, whatever the rate;
* ``sample_error``   the candidate could not produce K prompts in the sandbox;
* ``solver_error``   too many solver calls failed to say anything about the rate.

The filter stops as soon as the verdict can no longer change (all K answers are not needed when
the band is already decided), cancelling the outstanding solver calls.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from synth.sampling import DEFAULT_LEVEL, CaseSampler, SampleError
from synth.sandbox import get_backend
from synth.sandbox.base import Backend, Limits, Outcome, SandboxUnavailableError
from synth.sandbox.kit import derive_seed
from synth.sandbox.pool import WorkerPool, validate_score

Verdict = Literal[
    "accepted", "too_easy", "too_hard", "verifier_error", "sample_error", "solver_error"
]
SAMPLE_BATCH = 64
Solve = Callable[[str], Awaitable[str]]


class FilterConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    samples: int = Field(default=64, ge=1, le=4096)
    low: float = Field(default=0.03, ge=0.0, le=1.0)
    high: float = Field(default=0.85, ge=0.0, le=1.0)
    seed: int = 0
    early_stop: bool = True
    max_solver_failure_rate: float = Field(default=0.25, ge=0.0, le=1.0)
    solver_concurrency: int = Field(default=16, ge=1, le=1024)
    pool_size: int = Field(default=2, ge=1, le=64)
    verify_timeout_s: float = Field(default=5.0, gt=0.0, le=300.0)
    sample_limits: Limits = Limits(wall_s=60, cpu_s=60, memory_mb=1024)


class SampleRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int
    level: str
    seed: int
    prompt_head: str
    response: str | None = None
    score: float | None = None
    outcome: str
    error: str = ""


class LevelStats(BaseModel):
    model_config = ConfigDict(extra="forbid")

    n: int = 0
    passed: float = 0.0

    @property
    def rate(self) -> float:
        return self.passed / self.n if self.n else 0.0


class FilterResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    verdict: Verdict
    reason: str
    pass_rate: float | None = None
    answered: int = 0
    requested: int = 0
    stopped_early: bool = False
    level_pass_rates: dict[str, float] = Field(default_factory=dict)
    level_counts: dict[str, int] = Field(default_factory=dict)
    samples: list[SampleRecord] = Field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return self.verdict == "accepted"


def decided(passed: float, answered: int, k: int, low: float, high: float) -> Verdict | None:
    """The verdict if the remaining ``k - answered`` answers can no longer change it."""
    lo = passed / k  # every remaining answer wrong
    hi = (passed + (k - answered)) / k  # every remaining answer right
    if lo > high:
        return "too_easy"
    if hi < low:
        return "too_hard"
    if lo >= low and hi <= high:
        return "accepted"
    return None


def sample_specs(levels: list[str], k: int, seed: int) -> list[tuple[str, int]]:
    """The filter's K ``(level, seed)`` specs: LEVELS round-robin (``default`` when there are
    none), seeds ``derive_seed(seed, "filter", i)``. Review draws the first ones too, so a
    reviewer sees the very cases the solver was asked first."""
    names = levels or [DEFAULT_LEVEL]
    return [(names[i % len(names)], derive_seed(seed, "filter", i)) for i in range(k)]


def sample_prompts(
    code: str, k: int, seed: int, backend: Backend | str, limits: Limits, answers: bool = False
) -> tuple[list[dict[str, Any]] | None, str]:
    """K (level, seed, identity, prompt[, answer]) items drawn by the candidate in a sandboxed
    method server (levels from its handshake, see :func:`sample_specs`; ``answers``: include
    ``reference_answer``). ``limits`` bound the server's life. Every value is validated on the
    host (:mod:`synth.sampling`); (None, why) when the candidate cannot give K valid items."""
    items: list[dict[str, Any]] = []
    try:
        with CaseSampler(code, backend=backend, limits=limits, name="the candidate",
                         label="synth-filter-sampler") as sampler:
            specs = sample_specs(sampler.levels, k, seed)
            for start in range(0, k, SAMPLE_BATCH):
                for sample in sampler.sample(specs[start : start + SAMPLE_BATCH], answers):
                    item: dict[str, Any] = {"level": sample.level, "seed": sample.seed,
                                            "identity": sample.case, "prompt": sample.prompt}
                    if answers:
                        item["answer"] = sample.answer
                    items.append(item)
    except SampleError as exc:
        where = "" if exc.position is None else f" (level {exc.level}, seed {exc.seed})"
        if exc.outcome is Outcome.ERROR:
            return None, f"the candidate raised while sampling{where}: {exc.message}"
        return None, f"sampling ended with {exc.outcome.value}{where}: {exc.message}"
    except SandboxUnavailableError as exc:
        return None, f"sampling ended with sandbox_error: {exc}"
    return items, ""


async def run_filter(
    code: str,
    solve: Solve,
    *,
    config: FilterConfig | None = None,
    backend: str | Backend = "auto",
) -> FilterResult:
    """Measure the solver's pass rate on ``code`` and decide (see the module docstring)."""
    cfg = config or FilterConfig()
    runner = get_backend(backend) if isinstance(backend, str) else backend
    items, why = await asyncio.to_thread(
        sample_prompts, code, cfg.samples, cfg.seed, runner, cfg.sample_limits
    )
    if items is None:
        return FilterResult(verdict="sample_error", reason=why, requested=cfg.samples)
    k = len(items)
    records: list[SampleRecord] = []
    levels: dict[str, LevelStats] = {}
    passed = 0.0
    answered = 0
    failures = 0
    verdict: Verdict | None = None
    stopped_early = False
    reason = ""
    sem = asyncio.Semaphore(cfg.solver_concurrency)

    async def ask(i: int) -> tuple[int, str | None, str]:
        async with sem:
            try:
                return i, await solve(items[i]["prompt"]), ""
            except Exception as exc:  # a failed solver call: counted, not scored
                return i, None, f"{type(exc).__name__}: {exc}"[:300]

    pool = await asyncio.to_thread(
        WorkerPool, code, size=cfg.pool_size, backend=runner, call_timeout_s=cfg.verify_timeout_s
    )
    tasks = [asyncio.create_task(ask(i)) for i in range(k)]
    try:
        for fut in asyncio.as_completed(tasks):
            i, response, err = await fut
            item = items[i]
            rec = SampleRecord(
                index=i, level=str(item["level"]), seed=int(item["seed"]),
                prompt_head=str(item["prompt"])[:300], response=response, outcome="solver_error",
                error=err,
            )
            records.append(rec)
            if response is None:
                failures += 1
                if failures > cfg.max_solver_failure_rate * k:
                    verdict, reason = "solver_error", f"{failures} of {k} solver calls failed: {err}"
                    break
                continue
            result = await asyncio.to_thread(pool.verify, response, item["identity"])
            rec.outcome = result.outcome.value
            if result.outcome is not Outcome.PASSED or result.score is None:
                rec.error = (result.error + "\n" + result.traceback)[-1500:]
                if result.outcome is Outcome.SANDBOX_ERROR:
                    verdict, reason = "verifier_error", f"sandbox failure while verifying: {result.error}"
                else:
                    verdict = "verifier_error"
                    reason = (
                        f"verify_score ended with {result.outcome.value} on a solver response "
                        f"(level {rec.level}, seed {rec.seed}): {result.error[:200]}"
                    )
                break
            score, why = validate_score(result.score)  # the pool's own rule, applied again
            if score is None:
                verdict = "verifier_error"
                reason = (f"invalid_score: {why} on a solver response "
                          f"(level {rec.level}, seed {rec.seed})")
                break
            rec.score = score
            answered += 1
            passed += score
            stats = levels.setdefault(rec.level, LevelStats())
            stats.n += 1
            stats.passed += score
            if cfg.early_stop and failures == 0 and answered < k:
                verdict = decided(passed, answered, k, cfg.low, cfg.high)
                if verdict is not None:
                    stopped_early = True
                    break
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(pool.close)
    rate = passed / answered if answered else None
    if verdict is None:
        if rate is None:
            verdict, reason = "solver_error", "no solver response could be scored"
        elif not 0.0 <= rate <= 1.0:  # NaN included: never inside the band
            verdict, reason = "verifier_error", f"invalid_score: the pass rate is {rate!r}"
        elif rate > cfg.high:
            verdict = "too_easy"
        elif rate < cfg.low:
            verdict = "too_hard"
        else:
            verdict = "accepted"
    if not reason:
        reason = (
            f"pass rate {rate:.3f} over {answered} answers"
            f"{' (stopped early: the verdict could no longer change)' if stopped_early else ''}; "
            f"band [{cfg.low}, {cfg.high}]"
        )
    records.sort(key=lambda r: r.index)
    return FilterResult(
        verdict=verdict,
        reason=reason,
        pass_rate=rate,
        answered=answered,
        requested=k,
        stopped_early=stopped_early,
        # in the bootcamp's LEVELS order (the order the specs visit them), not alphabetical
        level_pass_rates={lvl: round(levels[lvl].rate, 4)
                          for lvl in dict.fromkeys(str(it["level"]) for it in items)
                          if lvl in levels},
        level_counts={lvl: s.n for lvl, s in sorted(levels.items())},
        samples=records,
    )
