"""The rollout loop of multi-turn bootcamps: play one episode with any OpenAI-compatible model.

A multi-turn bootcamp (``synth.bootcamp.MultiTurnBootcamp``) is an environment: ``reset``
gives the first observation, each ``step`` the next one and the score so far. This loop drives
it from trusted code, with the bootcamp in a sandboxed method server (never imported here) and
the model behind the official ``openai`` client::

    import asyncio, openai
    from synth.serving.rollout import rollout

    client = openai.AsyncOpenAI(base_url="http://127.0.0.1:8080/v1", api_key="none")
    result = asyncio.run(rollout("mastermind", identity, client, model="my-model"))
    result.score          # the episode's final score, in [0, 1]
    result.transcript()   # every observation, response, action and reward

``identity`` is an exported row's ``reward_model.ground_truth`` (the case's JSON, a str or the
parsed dict); ``synth export`` marks such rows ``extra_info.multi_turn``. Each turn:

1. the observation is sent as a user message after the conversation so far (``history="full"``,
   the default) or alone (``history="last"``: every observation states the game so far);
2. the action is the text of the model's last ``<answer>...</answer>`` -- the contract's own
   ``extract_output``, run here -- or ``""`` when it gave none (the bootcamp scores that by its
   rules: it never ends the loop);
3. ``step(state, action)`` in the sandbox; its reply is validated here
   (:func:`synth.serving.sampling.parse_step`: the reward a finite float in [0, 1], the state a JSON
   dict), and the loop ends when the episode is done or after ``MAX_TURNS`` steps.

The state never leaves this process but as the JSON passed to the next ``step``; the model
sees only observations. Many rollouts of one bootcamp can share one :class:`EpisodeEnv` (one
sandbox session at a time; not thread-safe: one episode at a time per env). The session is
replaced by a fresh one after a random, small number of calls (:data:`EPISODE_LIFE`, drawn
anew for each session): an environment honest for its first N steps cannot wait production
out, because the gate's episode consistency check (:mod:`synth.gate.episode_consistency`)
sends one process more calls than that. A model call's failure
propagates (``openai`` exceptions); a bootcamp that breaks the contract raises
:class:`RolloutError` naming the turn.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from synth.bootcamp import ANSWER_CLOSE, BaseBootcamp
from synth.sandbox.base import Backend, Outcome, SandboxUnavailableError
from synth.sandbox.kit import canonical
from synth.sandbox.methods import MethodServer, server_limits
from synth.sandbox.pool import engine_scaled_life, worker_life
from synth.serving.sampling import (
    EpisodeStep,
    multi_turn_info,
    parse_action,
    parse_case,
    parse_reset,
    parse_step,
)
from synth.text.utf8 import escape_surrogates

__all__ = ["EPISODE_LIFE", "EpisodeEnv", "RolloutError", "RolloutResult", "Turn", "episode_life",
           "reference_episode", "replay", "replay_transcript", "rollout", "score_transcript"]

#: The calls (reset, step, reference_policy) one environment process serves before a fresh one
#: replaces it, drawn anew for each process (:func:`synth.sandbox.pool.worker_life`): the range
#: of the scoring workers' (:data:`synth.sandbox.pool.WORKER_LIFE`). Steps are pure (the gate's
#: state_purity check), so a replacement mid-episode changes no reply; it costs one import
#: (~80 ms on the process backend) per few hundred calls.
EPISODE_LIFE = (200, 800)


def episode_life(code: str) -> tuple[int, int]:
    """The range of an environment process's life in calls for the module ``code``:
    :data:`EPISODE_LIFE`, shortened by the time factor of an engine it declares
    (:func:`synth.engines.time_factor`; a GNU Go step takes ~50 ms, so its processes serve
    10-40 calls). The gate's episode consistency stream exceeds the upper end."""
    return engine_scaled_life(EPISODE_LIFE, code)


class RolloutError(Exception):
    """The bootcamp could not play the episode (it did not load, is not multi-turn, or broke
    the contract at some turn)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn: what the model was shown and said, the action taken, and the step's reply."""

    observation: str
    response: str
    action: str
    reward: float
    done: bool


@dataclass
class RolloutResult:
    bootcamp: str
    identity: dict[str, Any]
    turns: list[Turn] = field(default_factory=list)
    messages: list[dict[str, str]] = field(default_factory=list)
    #: the final score: the last step's reward (0.0 when no step was taken)
    score: float = 0.0
    done: bool = False
    elapsed_s: float = 0.0

    @property
    def actions(self) -> list[str]:
        return [t.action for t in self.turns]

    def transcript(self) -> str:
        lines = []
        for n, turn in enumerate(self.turns, 1):
            lines += [f"--- turn {n}", f"observation: {turn.observation}",
                      f"response: {turn.response}",
                      f"action: {turn.action!r} -> reward {turn.reward:g}, done {turn.done}"]
        lines.append(f"score: {self.score:g} ({'done' if self.done else 'not done'})")
        return "\n".join(lines)


class EpisodeEnv:
    """One multi-turn bootcamp in a sandboxed method server, driven from this process: every
    reply validated. ``code`` is the module source (``EpisodeEnv.from_library(name)`` takes it,
    hash-checked, from the library). Each call is bounded by ``step_limit_s``, grown by the
    time factor of an engine the module declares (:func:`synth.engines.time_factor`, the
    gate's rule)."""

    def __init__(self, code: str, *, name: str = "bootcamp", class_name: str = "",
                 backend: str | Backend = "auto", step_limit_s: float = 5.0,
                 recycle_after: int | tuple[int, int] | None = None) -> None:
        from synth.engines import time_factor

        self.name = name
        self.step_limit_s = step_limit_s * time_factor(code)
        self.server = MethodServer(code, backend=backend, class_name=class_name,
                                   limits=server_limits(), label=f"rollout:{name}")
        self.max_turns = 0
        self.engines: list[str] = []
        #: calls a process serves before a fresh one replaces it: a number, or a range to draw
        #: from for each process (default :func:`episode_life` of the code)
        self.recycle_after = episode_life(code) if recycle_after is None else recycle_after
        self._life = worker_life(self.recycle_after)
        self._calls = 0
        #: how many times the process was replaced
        self.recycled = 0

    @classmethod
    def from_library(cls, name: str, *, library: Any = None, backend: str | Backend = "auto",
                     step_limit_s: float = 5.0) -> EpisodeEnv:
        from synth.library import Library

        lib = library if library is not None else Library()
        record, code = lib.checked_code(name)
        return cls(code, name=name, class_name=record.class_name, backend=backend,
                   step_limit_s=step_limit_s)

    def start(self) -> EpisodeEnv:
        reply = self.server.start()
        if not reply.ok:
            self.close()
            if reply.outcome is Outcome.SANDBOX_ERROR:
                raise SandboxUnavailableError(f"{self.name}: {reply.error}")
            raise RolloutError(f"{self.name} did not load in the sandbox: {reply.error}")
        try:
            declared = multi_turn_info(reply.value)
        except ValueError as exc:
            self.close()
            raise RolloutError(f"{self.name}: {exc}") from None
        if declared is None:
            self.close()
            raise RolloutError(f"{self.name} is not a multi-turn bootcamp (score its single "
                               "answers with synth.training.reward instead)")
        self.max_turns, self.engines = declared
        self._life, self._calls = worker_life(self.recycle_after), 0
        return self

    def close(self) -> None:
        self.server.close()

    def __enter__(self) -> EpisodeEnv:
        if not self.server.alive:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ask(self, method: str, params: dict[str, Any], what: str) -> Any:
        if self.server.alive and self._calls >= self._life:
            self.start()  # a fresh process (MethodServer.start closes the old session first)
            self.recycled += 1
        if not self.server.alive:
            self.start()
        self._calls += 1
        reply = self.server.call(method, params, timeout_s=self.step_limit_s)
        if not reply.ok:
            raise RolloutError(f"{self.name}: {what} failed ({reply.outcome.value}): "
                               f"{reply.error}")
        return reply.value

    def reset(self, identity: dict[str, Any] | str) -> EpisodeStep:
        try:
            case = json.loads(identity) if isinstance(identity, str) else identity
            text = canonical(case) if type(case) is dict else ""
            parse_case(text)
        except (ValueError, TypeError, RecursionError) as exc:
            raise RolloutError(f"{self.name}: the identity is not a case: {exc}") from None
        try:
            return parse_reset(self._ask("reset", {"case_text": text}, "reset"))
        except ValueError as exc:
            raise RolloutError(f"{self.name}: reset broke the contract: {exc}") from None

    def step(self, state: dict[str, Any], action: str, turn: int = 0) -> EpisodeStep:
        what = f"step (turn {turn})" if turn else "step"
        try:
            return parse_step(self._ask("step", {"state": state, "action": action}, what))
        except ValueError as exc:
            raise RolloutError(f"{self.name}: {what} broke the contract: {exc}") from None

    def policy(self, state: dict[str, Any], turn: int = 0) -> str:
        """The bootcamp's ``reference_policy`` action for ``state`` (validated: a bounded str)."""
        what = f"reference_policy (turn {turn})" if turn else "reference_policy"
        try:
            return parse_action(self._ask("policy", {"state": state}, what))
        except ValueError as exc:
            raise RolloutError(f"{self.name}: {what} broke the contract: {exc}") from None


def extract_action(response: str) -> str:
    """The action in a model's response: the contract's ``extract_output`` (the text of the
    last ``<answer>...</answer>``), ``""`` when there is none."""
    return BaseBootcamp.extract_output(response) or ""


async def rollout(
    bootcamp: str | EpisodeEnv,
    identity: dict[str, Any] | str,
    client: Any,
    model: str,
    *,
    history: Literal["full", "last"] = "full",
    system: str | None = None,
    max_turns: int | None = None,
    library: Any = None,
    backend: str | Backend = "auto",
    **create_kwargs: Any,
) -> RolloutResult:
    """Play one episode of ``bootcamp`` (a library name, or an :class:`EpisodeEnv` to reuse)
    from ``identity`` with ``model`` behind ``client`` (an ``openai.AsyncOpenAI``): see the
    module docstring. ``create_kwargs`` go to ``chat.completions.create`` (temperature,
    max_tokens, ...). ``max_turns`` may lower the bootcamp's MAX_TURNS, never raise it."""
    own = not isinstance(bootcamp, EpisodeEnv)
    env = EpisodeEnv.from_library(bootcamp, library=library, backend=backend) \
        if isinstance(bootcamp, str) else bootcamp
    t0 = time.monotonic()
    try:
        if not env.server.alive:
            env.start()
        start = env.reset(identity)
        parsed = identity if isinstance(identity, dict) else json.loads(identity)
        out = RolloutResult(bootcamp=env.name, identity=parsed)
        if system:
            out.messages.append({"role": "system", "content": system})
        limit = env.max_turns if max_turns is None else max(1, min(max_turns, env.max_turns))
        observation, state = start.observation or "", start.state
        for turn in range(1, limit + 1):
            out.messages.append({"role": "user", "content": observation})
            shown = out.messages if history == "full" else [
                *out.messages[:1 if system else 0], out.messages[-1]]
            reply = await client.chat.completions.create(model=model, messages=shown,
                                                         **create_kwargs)
            # a JSON "\ud800" escape gives a lone surrogate, which no writer (nor the
            # sandbox's reply) takes: kept as the text \udXXX, as synth.models.llm keeps it
            response = escape_surrogates(reply.choices[0].message.content or "")
            out.messages.append({"role": "assistant", "content": response})
            action = extract_action(response)
            step = env.step(state, action, turn)
            out.turns.append(Turn(observation, response, action, step.reward, step.done))
            out.score, out.done, state = step.reward, step.done, step.state
            if step.done:
                break
            observation = step.observation or ""
        out.elapsed_s = time.monotonic() - t0
        return out
    finally:
        if own:
            env.close()


def replay(env: EpisodeEnv, identity: dict[str, Any] | str, actions: list[str]) -> float:
    """The score of playing ``actions`` from ``identity``, in order, stopping once done (an
    independent replay of a rollout: no model, a fresh reset)."""
    current = env.reset(identity)
    score = 0.0
    for turn, action in enumerate(actions[: env.max_turns], 1):
        current = env.step(current.state, action, turn)
        score = current.reward
        if current.done:
            break
    return score


def reference_episode(env: EpisodeEnv, identity: dict[str, Any] | str) -> RolloutResult:
    """The episode the bootcamp's own ``reference_policy`` plays from ``identity``, turn by
    turn (what a reviewer replays): each turn's observation, the policy's action and the step's
    reply; ``response`` is the action in answer tags."""
    t0 = time.monotonic()
    start = env.reset(identity)
    parsed = identity if isinstance(identity, dict) else json.loads(identity)
    out = RolloutResult(bootcamp=env.name, identity=parsed)
    observation, state = start.observation or "", start.state
    for turn in range(1, env.max_turns + 1):
        action = env.policy(state, turn)
        step = env.step(state, action, turn)
        response = BaseBootcamp.wrap_answer(action)
        out.messages += [{"role": "user", "content": observation},
                         {"role": "assistant", "content": response}]
        out.turns.append(Turn(observation, response, action, step.reward, step.done))
        out.score, out.done, state = step.reward, step.done, step.state
        if step.done:
            break
        observation = step.observation or ""
    out.elapsed_s = time.monotonic() - t0
    return out


#: A transcript replay tries at most this many answer blocks as the end of one turn.
MAX_CANDIDATES_PER_TURN = 16
#: ... and at most ``2 * max_turns + this`` steps in all (a response full of answer blocks
#: cannot make the reward step the environment thousands of times).
EXTRA_REPLAY_STEPS = 16
_NON_SPACE = re.compile(r"\S")


def replay_transcript(
    reset: Callable[[], EpisodeStep],
    step: Callable[[dict[str, Any], str, int], EpisodeStep],
    max_turns: int,
    text: str,
) -> tuple[float, list[Turn]]:
    """Score a whole episode written as one text: a trainer's decoded multi-turn response, the
    model's turns with the environment's observations between them (or a single turn).

    The turns are recovered by replaying the episode from ``reset`` (trusted, pure steps): a
    turn ends at the answer block after which the observation that *its* action produces
    appears, with no other answer block in between; its action is that turn's last answer
    (the contract's ``extract_output`` of the turn, as the rollout loop reads it). When no
    later observation is found, the rest of the text is the last turn. An observation included
    at the start (the prompt) is skipped; text that ends right after an observation (the model
    never answered) ends the replay. Returns the score so far (the last step's reward, 0.0
    when no step was taken) and the turns; observations in the turns are the environment's.
    ``step(state, action, turn)`` results are cached per turn, so a one-answer-per-turn
    transcript costs one step per turn, and a replay takes at most ``2 * max_turns +``
    :data:`EXTRA_REPLAY_STEPS` steps whatever the text.

    Whatever the text, the score is the environment's own for the actions replayed (at most
    ``max_turns`` of them, in order): a response that writes the observations itself (it
    guessed them right) plays several turns in one, which is playing those moves."""
    start = reset()
    cursor = 0
    first = (start.observation or "").strip()
    if first:
        at = text.find(first)
        if at >= 0 and not text[:at].count(ANSWER_CLOSE):
            cursor = at + len(first)
    state, observation = start.state, start.observation or ""
    turns: list[Turn] = []
    score = 0.0
    budget = 2 * max_turns + EXTRA_REPLAY_STEPS
    for turn in range(1, max_turns + 1):
        if _NON_SPACE.search(text, cursor) is None:
            break
        tried: dict[str, EpisodeStep] = {}
        chosen: tuple[str, EpisodeStep, int, int] | None = None
        close = text.find(ANSWER_CLOSE, cursor)
        for _ in range(MAX_CANDIDATES_PER_TURN):
            if close < 0 or budget <= 1:  # keep one step for the last turn
                break
            end = close + len(ANSWER_CLOSE)
            action = BaseBootcamp.extract_output(text[cursor:end]) or ""
            if action not in tried:
                budget -= 1
            result = tried.get(action) or tried.setdefault(action, step(state, action, turn))
            following = (result.observation or "").strip()
            if not result.done and following:
                at = text.find(following, end)
                if at >= 0 and text.find(ANSWER_CLOSE, end, at) < 0:
                    chosen = (action, result, at, at + len(following))
                    break
            close = text.find(ANSWER_CLOSE, end)
        if chosen is None:  # the last turn of the text: all of the rest is the model's
            rest = text[cursor:]
            action = BaseBootcamp.extract_output(rest) or ""
            result = tried.get(action) or tried.setdefault(action, step(state, action, turn))
            turns.append(Turn(observation, rest, action, result.reward, result.done))
            score = result.reward
            break
        action, result, at, after = chosen
        turns.append(Turn(observation, text[cursor:at], action, result.reward, result.done))
        score = result.reward
        state, observation = result.state, result.observation or ""
        cursor = after
    return score, turns


def score_transcript(env: EpisodeEnv, identity: dict[str, Any] | str,
                     text: str) -> tuple[float, list[Turn]]:
    """:func:`replay_transcript` on a sandboxed :class:`EpisodeEnv` (started if it is not)."""
    if not env.server.alive:
        env.start()
    return replay_transcript(lambda: env.reset(identity), env.step, env.max_turns, text)
