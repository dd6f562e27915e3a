"""Multi-turn bootcamps in verl 0.9.1: whole episodes as one agent-loop trajectory (issue 15).

verl's multi-turn interface is the agent loop (``verl.experimental.agent_loop``): for each row
an ``AgentLoopWorker`` instantiates the loop registered under the row's ``agent_name`` (the
dataset column; ``actor_rollout_ref.rollout.agent.default_agent_loop`` when there is none) and
awaits ``run(sampling_params, **row)``, which returns an ``AgentLoopOutput``: the prompt's
token ids, the response's (every turn after the prompt), ``response_mask`` (1 on the model's
tokens, 0 on everything else) and their logprobs, and optionally ``reward_score``.
:class:`EpisodeAgentLoop`, registered as ``"synth_episode"``, plays an exported multi-turn
row's episode::

    synth export --format parquet --bootcamp mastermind --out data/episodes
    python -m verl.trainer.main_ppo --config-path "$PWD/docs/recipes" \\
        --config-name verl_multiturn actor_rollout_ref.model.path=<your model> \\
        actor_rollout_ref.rollout.name=vllm ...

``docs/recipes/verl_multiturn.yaml`` selects the loop (``default_agent_loop: synth_episode``)
and registers it in verl's agent-loop workers, which are Ray actors in other processes, by
``agent_loop_config_path`` (``docs/recipes/verl_agent_loops.yaml``: a list of ``{name,
_target_, <options>}``; the options -- ``library``, ``backend``, ``step_limit_s``, ``max_turns``
-- are this class's keyword arguments). For rows that mix single-turn and multi-turn
bootcamps, :func:`mark_export` writes the ``agent_name`` column into an export's files
(:func:`with_agent_names` for rows in memory): ``synth_episode`` on multi-turn rows,
``single_turn_agent`` on the others, which verl's reward loop then scores with
``synth.training.reward.compute_score`` as usual.

An episode: the prompt is the row's first observation (checked against the bootcamp's
``reset`` of the row's identity: a row whose prompt is not its episode's start raises
``ValueError``); the model (verl's own server, ``server_manager.generate``, with the trainer's
sampling parameters) answers the conversation so far; the action is its last
``<answer>...</answer>`` (``""`` when none, the contract's ``extract_output``); ``step`` runs
in a sandboxed :class:`synth.serving.rollout.EpisodeEnv` (one per bootcamp per worker process, reused
by every episode, closed at exit or by :func:`close_environments`; its calls run in a thread
so the worker's event loop keeps generating for other episodes); and the observation becomes
the next user message, tokenized by verl's Continuous Token builder (the tokenizer's chat
template; mask 0, logprob 0). The episode ends when the bootcamp says done, after the
bootcamp's ``MAX_TURNS`` (or ``max_turns`` / ``multi_turn.max_assistant_turns``, whichever is
lower), or when the response budget (``rollout.response_length``) is spent: each turn may
generate at most what is left of it, and an observation that would not leave room for another
answer is not appended. ``reward_score`` is the episode's final score (the last step's reward,
computed in the sandbox and validated), so verl calls no reward function for these rows;
``extra_fields`` carry ``turn_scores`` (each step's reward), ``episode_actions``,
``episode_done``, ``episode_error``, ``episode_bootcamp`` and ``reward_extra_info``
(``{"acc": score}``, the shape verl's naive reward manager gives single-turn rows, so that a
batch can mix both).

A bootcamp that breaks the contract (:class:`~synth.serving.rollout.RolloutError`: it does not load,
is not multi-turn, or a reset or step raised, hung or returned something that is not a valid
reply) is a defect of the library, not of the model, and must neither stop training nor teach
the model anything. verl 0.9.1 has no per-sample "unscorable": a ``None`` reward_score sends
the row to the reward function, and a batch with one missing score gets no ``rm_scores`` at
all. So the episode scores ``0.0`` and its whole ``response_mask`` is 0: its tokens carry no
loss (verl's loss aggregation excludes fully masked sequences), only its group's baseline
sees the 0. It is logged at ERROR with its evidence (bootcamp, row, identity head, the turn
and the error, the actions so far), counted in :data:`FINDINGS`, and its ``episode_error``
says why. A data error (a row that is not a multi-turn row, a bootcamp the library does not
hold, a prompt that is not the episode's start) raises, and so does a machine that cannot run
the sandbox (:class:`~synth.sandbox.base.SandboxUnavailableError`).
"""

from __future__ import annotations

import asyncio
import atexit
import json
import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import (
    AgentLoopBase,
    AgentLoopMetrics,
    AgentLoopOutput,
    register,
)
from verl.utils.profiler import simple_timer
from verl.utils.rollout_trace import rollout_trace_op

from synth.integrations.trl_multiturn import _row_episode
from synth.serving.rollout import EpisodeEnv, RolloutError, extract_action

__all__ = ["AGENT_NAME", "FINDINGS", "SINGLE_TURN_AGENT", "EpisodeAgentLoop",
           "close_environments", "mark_export", "with_agent_names"]

log = logging.getLogger(__name__)

#: The name this agent loop is registered under (the rows' ``agent_name``).
AGENT_NAME = "synth_episode"
#: verl's own single-turn agent loop, for the rows of single-turn bootcamps.
SINGLE_TURN_AGENT = "single_turn_agent"

#: bootcamp name -> episodes not scored because the bootcamp broke the contract (this process)
FINDINGS: Counter[str] = Counter()

T = TypeVar("T")


class _SharedEnv:
    """One started :class:`EpisodeEnv`, its calls serialised (episodes interleave on it: every
    call carries its episode's state)."""

    def __init__(self, env: EpisodeEnv) -> None:
        self.env = env
        self.lock = threading.Lock()

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        with self.lock:
            return fn(*args)


_ENVS: dict[tuple[str, str, str, float], _SharedEnv] = {}
_ENVS_LOCK = threading.Lock()


def _shared_env(name: str, library: str | None, backend: str, step_limit_s: float) -> _SharedEnv:
    from synth.library import Library

    lib = Library(library) if library is not None else Library()
    key = (str(lib.root), name, backend, float(step_limit_s))
    with _ENVS_LOCK:
        shared = _ENVS.get(key)
        if shared is None:
            env = EpisodeEnv.from_library(name, library=lib, backend=backend,
                                          step_limit_s=step_limit_s).start()
            shared = _ENVS[key] = _SharedEnv(env)
        return shared


def close_environments() -> None:
    """Stop every sandboxed environment this process started (also run at exit)."""
    with _ENVS_LOCK:
        shared = list(_ENVS.values())
        _ENVS.clear()
    for item in shared:
        with item.lock:
            item.env.close()


atexit.register(close_environments)


@register(AGENT_NAME)
class EpisodeAgentLoop(AgentLoopBase):
    """verl agent loop playing a multi-turn bootcamp's episode: see the module docstring.

    ``library`` (a library folder; default the shipped one), ``backend`` (the sandbox) and
    ``step_limit_s`` (each reset/step call's limit) choose the environment; ``max_turns`` may
    lower the bootcamp's ``MAX_TURNS``, never raise it."""

    def __init__(self, *args: Any, library: str | None = None, backend: str = "auto",
                 step_limit_s: float = 5.0, max_turns: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.library = None if library is None else str(library)
        self.backend = str(backend)
        self.step_limit_s = float(step_limit_s)
        self.max_turns = max_turns
        self.response_length = int(self.rollout_config.response_length)
        self.max_assistant_turns = self.rollout_config.multi_turn.max_assistant_turns

    @rollout_trace_op
    async def run(self, sampling_params: dict[str, Any], priority: int = 0,
                  **kwargs: Any) -> AgentLoopOutput:
        found = _row_episode(kwargs)
        if found is None:
            raise ValueError(
                f"agent loop {AGENT_NAME!r} got a row that is not a multi-turn bootcamp's "
                f"({kwargs.get('data_source')!r}): give single-turn rows agent_name "
                f"{SINGLE_TURN_AGENT!r} (synth.integrations.verl_multiturn.mark_export)")
        name, identity = found
        messages: list[dict[str, Any]] = [dict(m) for m in kwargs["raw_prompt"]]
        shown = len(messages)
        request_id = uuid4().hex
        tokenizer: Any = self.tokenizer
        metrics: dict[str, Any] = {}
        runtime = await self.ct_build_initial_tokens(messages)
        mask: list[int] = []
        logprobs: list[float] | None = [] if sampling_params.get("logprobs") else None
        actions: list[str] = []
        rewards: list[float] = []
        score, done, error, turn = 0.0, False, "", 0
        try:
            with simple_timer("tool_calls", metrics):
                env = await asyncio.to_thread(_shared_env, name, self.library, self.backend,
                                              self.step_limit_s)
                start = await asyncio.to_thread(env.call, env.env.reset, identity)
            _check_prompt(name, messages, start.observation or "")
            limit = min(x for x in (env.env.max_turns, self.max_turns, self.max_assistant_turns)
                        if x)
            state = start.state
            while turn < limit and len(mask) < self.response_length:
                turn += 1
                params = dict(sampling_params, max_tokens=self.response_length - len(mask))
                with simple_timer("generate_sequences", metrics):
                    out = await self.server_manager.generate(
                        request_id=request_id, prompt_ids=runtime, sampling_params=params,
                        priority=int(priority))
                if out.num_preempted is not None:
                    metrics["num_preempted"] = metrics.get("num_preempted", 0) + out.num_preempted
                if logprobs is not None and not out.log_probs:
                    logprobs = None  # the server gave none this turn: verl recomputes them
                merged, mask, logprobs = await self.ct_merge_assistant_token(
                    runtime, out.token_ids, mask, logprobs,
                    assistant_logprobs=out.log_probs if logprobs is not None else None)
                runtime = merged.token_ids
                text = tokenizer.decode(out.token_ids, skip_special_tokens=True)
                messages.append({"role": "assistant", "content": text})
                action = extract_action(text)
                with simple_timer("tool_calls", metrics):
                    step = await asyncio.to_thread(env.call, env.env.step, state, action, turn)
                actions.append(action)
                rewards.append(step.reward)
                score, done, state = step.reward, step.done, step.state
                if done or turn >= limit or len(mask) >= self.response_length:
                    break
                previous = list(messages)
                messages.append({"role": "user", "content": step.observation or ""})
                merged, grown, grown_logprobs = await self.ct_merge_context_msg(
                    previous, messages, runtime, mask, logprobs)
                if len(grown) >= self.response_length:  # no room left for another answer
                    messages.pop()
                    break
                runtime, mask, logprobs = merged.token_ids, grown, grown_logprobs
        except RolloutError as exc:
            FINDINGS[name] += 1
            score, error = 0.0, str(exc)
            info = kwargs.get("extra_info") or {}
            log.error(
                "bootcamp %s broke the contract at turn %d; the episode scores 0.0 and is not "
                "trained on (%d so far): %s\nrow: index %s, seed %s, level %s\nidentity: %s\n"
                "actions so far: %r", name, turn, FINDINGS[name], exc, info.get("index"),
                info.get("seed"), info.get("level"), identity[:300], actions)
            mask = [0] * len(mask)
        # verl counts the prompt as one turn, then every message the episode appended
        num_turns = 1 + len(messages) - shown
        return self._output(runtime, mask, logprobs, metrics, name, score, done, error,
                            actions, rewards, num_turns)

    def _output(self, runtime: list[int], mask: list[int], logprobs: list[float] | None,
                metrics: dict[str, Any], name: str, score: float, done: bool, error: str,
                actions: list[str], rewards: list[float], num_turns: int) -> AgentLoopOutput:
        cut = len(runtime) - len(mask)
        prompt_ids, response_ids = runtime[:cut], runtime[cut:]
        if not response_ids:  # nothing played: verl needs a token to put the score on
            eos = getattr(self.tokenizer, "eos_token_id", None)
            response_ids, mask = [int(eos if eos is not None else 0)], [0]
            logprobs = [0.0] if logprobs is not None else None
        n = self.response_length
        output = AgentLoopOutput(
            prompt_ids=prompt_ids,
            response_ids=response_ids[:n],
            response_mask=mask[:n],
            response_logprobs=logprobs[:n] if logprobs is not None else None,
            reward_score=float(score),
            num_turns=num_turns,
            metrics=AgentLoopMetrics(**metrics),
            extra_fields={},
        )
        output.extra_fields.update({
            "turn_scores": list(rewards),
            "tool_rewards": [],
            "reward_extra_info": {"acc": float(score)},
            "episode_bootcamp": name,
            "episode_actions": list(actions),
            "episode_done": bool(done),
            "episode_error": error,
        })
        return output


def _check_prompt(name: str, messages: list[dict[str, Any]], observation: str) -> None:
    users = [m.get("content") for m in messages if m.get("role") == "user"]
    shown = users[-1] if users and isinstance(users[-1], str) else ""
    if observation.strip() not in shown:
        raise ValueError(
            f"the row's prompt is not the start of its {name} episode (the bootcamp's reset "
            f"says {observation[:120]!r}): export the rows again with `synth export` from the "
            "library the trainer plays")


def with_agent_names(rows: Iterable[Mapping[str, Any]], *, multi_turn: str = AGENT_NAME,
                     single_turn: str = SINGLE_TURN_AGENT) -> list[dict[str, Any]]:
    """``rows`` (exported rows) with verl's ``agent_name`` column: ``multi_turn`` on the rows
    of multi-turn bootcamps (``extra_info.multi_turn``), ``single_turn`` on the others."""
    out = []
    for row in rows:
        info = row.get("extra_info") or {}
        multi = isinstance(info, Mapping) and bool(info.get("multi_turn"))
        out.append({**row, "agent_name": multi_turn if multi else single_turn})
    return out


def mark_export(path: Path | str, **names: str) -> list[Path]:
    """Write the ``agent_name`` column (:func:`with_agent_names`) into an export's files, in
    place: ``path`` is a ``train``/``test`` ``.parquet`` or ``.jsonl`` file, or the export's
    folder (every such file in it and its subfolders: the Ray executor's shards too). Returns
    the files rewritten (an empty split has no rows to mark and is left as it is)."""
    root = Path(path)
    files = [root] if root.is_file() else sorted(
        p for p in root.rglob("*") if p.suffix in (".parquet", ".jsonl") and p.is_file()
        and not p.name.startswith(".")) if root.is_dir() else []
    if not files:
        raise FileNotFoundError(f"no .parquet or .jsonl export files at {root}")
    done = []
    for file in files:
        tmp = file.with_name(f".{file.name}.tmp")
        if file.suffix == ".parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pq.read_table(file)
            if table.num_rows == 0:  # an empty split (written without columns): nothing to mark
                continue
            marked = with_agent_names(({"extra_info": x} for x in
                                       table.column("extra_info").to_pylist()), **names)
            if "agent_name" in table.column_names:
                table = table.drop_columns(["agent_name"])
            table = table.append_column(
                "agent_name", pa.array([r["agent_name"] for r in marked], pa.string()))
            pq.write_table(table, tmp, compression="zstd")
        elif file.suffix == ".jsonl":
            lines = file.read_text(encoding="utf-8").splitlines()
            rows = with_agent_names((json.loads(x) for x in lines if x.strip()), **names)
            tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                           encoding="utf-8")
        else:
            raise ValueError(f"{file}: not a .parquet or .jsonl export file")
        tmp.replace(file)
        done.append(file)
    return done
