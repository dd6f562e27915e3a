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

A multi-turn candidate (``MultiTurnBootcamp``) is measured by whole episodes: each of the K
cases is played to the end by the solver -- the first observation is the prompt, each response's
answer (the contract's ``extract_output``; ``""`` when none) is the action, ``step`` runs in a
sandboxed method server (:class:`synth.serving.rollout.EpisodeEnv`, ``pool_size`` of them shared by the
episodes: a step is a pure function of its JSON state, so any server can take any step) and its
observation is the next user message -- and the episode's final score is the answer's score.
``chat`` (the conversation so far -> the response) gives the solver the whole conversation;
without it ``solve`` sees each observation alone. A step that breaks the contract on a solver
action (raises, hangs, returns an invalid reward or state) is a ``verifier_error`` with the
turn, the action and the message; a solver call that fails mid-episode is a failed solver call.
Each record keeps its episode turn by turn (``SampleRecord.episode``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from synth.sandbox import get_backend
from synth.sandbox.base import Backend, Limits, Outcome, SandboxUnavailableError
from synth.sandbox.kit import derive_seed
from synth.sandbox.pool import WorkerPool, validate_score
from synth.serving.sampling import DEFAULT_LEVEL, CaseSampler, SampleError

Verdict = Literal[
    "accepted", "too_easy", "too_hard", "verifier_error", "sample_error", "solver_error"
]
SAMPLE_BATCH = 64
Solve = Callable[[str], Awaitable[str]]
Chat = Callable[[list[dict[str, str]]], Awaitable[str]]
#: How much of an observation or response an episode record keeps.
EPISODE_TEXT_CHARS = 4000


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


class EpisodeTurn(BaseModel):
    """One turn of a solver's episode on a multi-turn candidate (texts cut to
    :data:`EPISODE_TEXT_CHARS`)."""

    model_config = ConfigDict(extra="forbid")

    observation: str
    response: str
    action: str
    reward: float
    done: bool


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
    #: multi-turn candidates: the solver's episode, turn by turn (None for single-turn ones)
    episode: list[EpisodeTurn] | None = None
    #: multi-turn candidates: the case's identity (JSON text), from which the episode replays
    identity: str | None = None


class LevelStats(BaseModel):
    model_config = ConfigDict(extra="forbid")

    n: int = 0
    passed: float = 0.0

    @property
    def rate(self) -> float:
        return self.passed / self.n if self.n else 0.0


class _Tally:
    """The filter's running count: scores in, per level, and the early verdict."""

    def __init__(self, cfg: FilterConfig, k: int) -> None:
        self.cfg, self.k = cfg, k
        self.levels: dict[str, LevelStats] = {}
        self.passed = 0.0
        self.answered = self.failures = 0
        self.stopped_early = False

    def add(self, level: str, score: float) -> Verdict | None:
        """Count one scored answer; the verdict when it can no longer change (early stop)."""
        self.answered += 1
        self.passed += score
        stats = self.levels.setdefault(level, LevelStats())
        stats.n += 1
        stats.passed += score
        if self.cfg.early_stop and self.failures == 0 and self.answered < self.k:
            verdict = decided(self.passed, self.answered, self.k, self.cfg.low, self.cfg.high)
            if verdict is not None:
                self.stopped_early = True
                return verdict
        return None


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
    host (:mod:`synth.serving.sampling`); (None, why) when the candidate cannot give K valid items."""
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
                    if sampler.max_turns is not None:
                        item["max_turns"] = sampler.max_turns
                    items.append(item)
    except SampleError as exc:
        where = "" if exc.position is None else f" (level {exc.level}, seed {exc.seed})"
        if exc.outcome is Outcome.ERROR:
            return None, f"the candidate raised while sampling{where}: {exc.message}"
        return None, f"sampling ended with {exc.outcome.value}{where}: {exc.message}"
    except SandboxUnavailableError as exc:
        return None, f"sampling ended with sandbox_error: {exc}"
    return items, ""


class _Played:
    """A solver's episode: its turns, and either its score or why it has none."""

    def __init__(self) -> None:
        self.turns: list[EpisodeTurn] = []
        self.score: float | None = None
        self.solver_error = ""
        self.env_error = ""


class _Episodes:
    """The sandboxed environments of a multi-turn candidate, shared by the filter's episodes
    (any server takes any step: a step is a pure function of its JSON state)."""

    def __init__(self, code: str, runner: Backend, size: int, step_limit_s: float) -> None:
        from synth.serving.rollout import EpisodeEnv

        self.envs = [EpisodeEnv(code, name="the candidate", backend=runner,
                                step_limit_s=step_limit_s) for _ in range(size)]
        self.free: asyncio.Queue[Any] = asyncio.Queue()
        self.started = False

    async def call(self, method: str, *args: Any) -> Any:
        env = await self.free.get()
        call = asyncio.ensure_future(asyncio.to_thread(getattr(env, method), *args))
        try:
            return await asyncio.shield(call)
        except asyncio.CancelledError:  # the thread cannot be cut off: let it end (the step
            await asyncio.wait([call])   # limit bounds it) before the server may be closed
            raise
        finally:
            self.free.put_nowait(env)

    async def start(self) -> None:
        for env in self.envs:
            await asyncio.to_thread(env.start)
            self.free.put_nowait(env)
        self.started = True

    def close(self) -> None:
        for env in self.envs:
            env.close()


def _cut(text: str) -> str:
    return text if len(text) <= EPISODE_TEXT_CHARS else text[:EPISODE_TEXT_CHARS] + " [...]"


async def _play(envs: _Episodes, item: dict[str, Any], solve: Solve, chat: Chat | None) -> _Played:
    """One episode of the solver from ``item``'s identity (see the module docstring)."""
    from synth.serving.rollout import RolloutError, extract_action

    out = _Played()
    try:
        current = await envs.call("reset", item["identity"])
    except RolloutError as exc:
        out.env_error = f"reset: {exc}"
        return out
    observation, state = current.observation or "", current.state
    messages: list[dict[str, str]] = []
    for turn in range(1, int(item["max_turns"]) + 1):
        messages.append({"role": "user", "content": observation})
        try:
            response = await (chat(list(messages)) if chat is not None else solve(observation))
        except Exception as exc:  # a failed solver call: counted, not scored
            out.solver_error = f"turn {turn}: {type(exc).__name__}: {exc}"[:300]
            return out
        if not isinstance(response, str):
            out.solver_error = f"turn {turn}: the solver returned a {type(response).__name__}"
            return out
        messages.append({"role": "assistant", "content": response})
        action = extract_action(response)
        try:
            current = await envs.call("step", state, action, turn)
        except RolloutError as exc:
            out.env_error = f"turn {turn}, action {action[:80]!r}: {exc}"
            out.turns.append(EpisodeTurn(observation=_cut(observation), response=_cut(response),
                                         action=_cut(action), reward=0.0, done=False))
            return out
        out.turns.append(EpisodeTurn(observation=_cut(observation), response=_cut(response),
                                     action=_cut(action), reward=current.reward, done=current.done))
        out.score, state = current.reward, current.state
        if current.done:
            break
        observation = current.observation or ""
    if out.score is None:
        out.score = 0.0
    return out


async def run_filter(
    code: str,
    solve: Solve,
    *,
    config: FilterConfig | None = None,
    backend: str | Backend = "auto",
    chat: Chat | None = None,
) -> FilterResult:
    """Measure the solver's pass rate on ``code`` and decide (see the module docstring).
    ``chat``: for multi-turn candidates, the solver over the conversation so far."""
    cfg = config or FilterConfig()
    runner = get_backend(backend) if isinstance(backend, str) else backend
    items, why = await asyncio.to_thread(
        sample_prompts, code, cfg.samples, cfg.seed, runner, cfg.sample_limits
    )
    if items is None:
        return FilterResult(verdict="sample_error", reason=why, requested=cfg.samples)
    if items and items[0].get("max_turns"):
        return await _run_episodes(code, items, solve, chat, cfg, runner)
    k = len(items)
    records: list[SampleRecord] = []
    tally = _Tally(cfg, k)
    verdict: Verdict | None = None
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
                tally.failures += 1
                if tally.failures > cfg.max_solver_failure_rate * k:
                    verdict = "solver_error"
                    reason = f"{tally.failures} of {k} solver calls failed: {err}"
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
            verdict = tally.add(rec.level, score)
            if verdict is not None:
                break
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(pool.close)
    return _result(cfg, items, records, tally, verdict, reason)


async def _run_episodes(code: str, items: list[dict[str, Any]], solve: Solve, chat: Chat | None,
                        cfg: FilterConfig, runner: Backend) -> FilterResult:
    """The filter over whole episodes of a multi-turn candidate (see the module docstring)."""
    k = len(items)
    records: list[SampleRecord] = []
    tally = _Tally(cfg, k)
    verdict: Verdict | None = None
    reason = ""
    sem = asyncio.Semaphore(cfg.solver_concurrency)
    envs = _Episodes(code, runner, cfg.pool_size, cfg.verify_timeout_s)

    async def play(i: int) -> tuple[int, _Played]:
        async with sem:
            return i, await _play(envs, items[i], solve, chat)

    tasks: list[asyncio.Task[tuple[int, _Played]]] = []
    try:
        try:
            await envs.start()
        except Exception as exc:  # RolloutError, SandboxUnavailableError
            return FilterResult(verdict="sample_error", requested=k,
                                reason=f"the candidate's environment did not start: {exc}"[:500])
        tasks = [asyncio.create_task(play(i)) for i in range(k)]
        for fut in asyncio.as_completed(tasks):
            i, ep = await fut
            item = items[i]
            last = ep.turns[-1].response if ep.turns else None
            rec = SampleRecord(index=i, level=str(item["level"]), seed=int(item["seed"]),
                               prompt_head=str(item["prompt"])[:300], response=last,
                               outcome="solver_error", error=ep.solver_error, episode=ep.turns,
                               identity=json.dumps(item["identity"], sort_keys=True))
            records.append(rec)
            if ep.solver_error:
                tally.failures += 1
                if tally.failures > cfg.max_solver_failure_rate * k:
                    verdict = "solver_error"
                    reason = f"{tally.failures} of {k} solver episodes failed: {ep.solver_error}"
                    break
                continue
            if ep.env_error or ep.score is None:
                rec.outcome, rec.error = "error", ep.env_error[-1500:]
                verdict = "verifier_error"
                reason = (f"the environment broke the contract on a solver episode (level "
                          f"{rec.level}, seed {rec.seed}): {ep.env_error[:300]}")
                break
            rec.outcome, rec.score = "passed", ep.score
            verdict = tally.add(rec.level, ep.score)
            if verdict is not None:
                break
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(envs.close)
    return _result(cfg, items, records, tally, verdict, reason)


def _result(cfg: FilterConfig, items: list[dict[str, Any]], records: list[SampleRecord],
            tally: _Tally, verdict: Verdict | None, reason: str) -> FilterResult:
    levels, answered, stopped_early = tally.levels, tally.answered, tally.stopped_early
    rate = tally.passed / answered if answered else None
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
    k = len(items)
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
