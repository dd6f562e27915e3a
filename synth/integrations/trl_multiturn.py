"""Multi-turn bootcamps in TRL's ``GRPOTrainer``: whole episodes as one rollout (issue 15, part 6).

TRL 1.16's hook for custom and multi-turn generation is ``GRPOTrainer(rollout_func=...)``
(experimental): ``rollout_func(prompts, trainer)`` gets the process's slice of prompts -- the
dataset's ``prompt`` column, already repeated ``num_generations`` times by the trainer's sampler
-- and returns a dict with ``prompt_ids``, ``completion_ids`` and ``logprobs`` (one entry per
prompt), optionally ``env_mask`` (1 for the model's tokens, 0 for tokens the environment wrote:
only the model's are trained on); every other key is handed to the reward functions as a column::

    from synth.integrations.trl_multiturn import episode_reward_func, multi_turn_rollout_func

    rows = load_from_disk("data/hf")["train"]            # `synth export` rows, multi_turn marked
    rollout = multi_turn_rollout_func(rows)              # the trainer's own model plays
    trainer = GRPOTrainer(model=..., reward_funcs=[episode_reward_func()], train_dataset=rows,
                          rollout_func=rollout, args=GRPOConfig(...))
    try:
        trainer.train()
    finally:
        rollout.close()                                  # stops the sandboxed environments

Each prompt is an exported row's first observation; the adapter finds its row (first
observations name their episode, so they are distinct), resets the row's bootcamp in a sandboxed
:class:`synth.serving.rollout.EpisodeEnv` and plays the episode to the end: the model answers the
conversation so far, the action is its last ``<answer>...</answer>`` (``""`` when none), ``step``
runs in the sandbox and its observation becomes the next user message. The completion is the
whole conversation after the prompt, in the tokenizer's chat template: the model's turns
(``env_mask`` 1, their sampling logprobs when the generator gives them) and the environment's
observations between them (``env_mask`` 0, logprob 0.0). The episode's final score, computed by
the bootcamp's ``step`` in the sandbox, travels as the ``episode_score`` column, which
:func:`episode_reward_func` returns: the trainer's process never imports a bootcamp.

``generate`` may be any callable ``generate(messages) -> str | Generation`` (a scripted model,
an OpenAI-compatible client, vLLM); by default the trainer's model samples with its generation
config on the trainer's device (plain ``model.generate``: CPU works, slowly). An episode whose
bootcamp breaks the contract (:class:`~synth.serving.rollout.RolloutError`) gets the score ``None``,
which TRL treats as unscorable (no advantage), and is logged.
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from synth.sandbox.base import Backend
from synth.serving.rollout import EpisodeEnv, RolloutError, extract_action

__all__ = ["Episode", "Generation", "MultiTurnRollout", "episode_reward_func",
           "multi_turn_rollout_func"]

log = logging.getLogger(__name__)

Messages = list[dict[str, str]]


@dataclass(frozen=True, slots=True)
class Generation:
    """One model turn: its text, and (when the generator has them) the sampled token ids and
    their logprobs. Without ids the text is tokenized, and without logprobs the rollout returns
    ``logprobs=None`` (TRL then recomputes them)."""

    text: str
    token_ids: list[int] | None = None
    logprobs: list[float] | None = None


Generate = Callable[[Messages], "str | Generation"]


@dataclass
class Episode:
    """One played episode, and its tokens as TRL takes them."""

    bootcamp: str
    identity: dict[str, Any]
    messages: Messages
    actions: list[str] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    #: the final score (the last step's reward); None when the environment failed
    score: float | None = 0.0
    done: bool = False
    error: str = ""
    prompt_ids: list[int] = field(default_factory=list)
    completion_ids: list[int] = field(default_factory=list)
    env_mask: list[int] = field(default_factory=list)
    logprobs: list[float] | None = field(default_factory=list)


def _prompt_key(prompt: Any) -> str:
    """The text that names a row's episode: the last user message of a chat prompt."""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, Sequence):
        users = [m.get("content") for m in prompt if isinstance(m, Mapping)
                 and m.get("role") == "user"]
        if users and isinstance(users[-1], str):
            return users[-1]
    raise ValueError(f"not a prompt this adapter can play: {str(prompt)[:80]!r}")


def _as_messages(prompt: Any) -> Messages:
    if isinstance(prompt, str):
        return [{"role": "user", "content": prompt}]
    return [{"role": str(m["role"]), "content": str(m["content"])} for m in prompt]


def _row_episode(row: Mapping[str, Any]) -> tuple[str, str] | None:
    """(bootcamp, identity JSON) of an exported multi-turn row, None for a single-turn row."""
    info = row.get("extra_info") or {}
    if not (isinstance(info, Mapping) and info.get("multi_turn")):
        return None
    name = info.get("bootcamp") or str(row.get("data_source", "")).removeprefix("bootcamp/")
    spec = row.get("reward_model") or {}
    truth = spec.get("ground_truth") if isinstance(spec, Mapping) else None
    if truth is None:
        truth = row.get("ground_truth")
    if not name or truth is None:
        raise ValueError("a multi-turn row needs extra_info.bootcamp (or data_source) and "
                         "reward_model.ground_truth (the rows `synth export` writes)")
    return str(name), truth if isinstance(truth, str) else json.dumps(truth)


def _tokenizer_of(processing_class: Any) -> Any:
    return getattr(processing_class, "tokenizer", None) or processing_class


def _encode(tokenizer: Any, text: str) -> list[int]:
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    return [int(i) for i in ids]


def _render(tokenizer: Any, messages: Messages) -> str:
    return str(tokenizer.apply_chat_template(messages, tokenize=False,
                                             add_generation_prompt=True))


def trainer_generate(trainer: Any, tokenizer: Any, max_new_tokens: int | None = None) -> Generate:
    """Sample one turn with the trainer's model (its generation config, no gradients), returning
    the new tokens and their logprobs."""
    import torch
    from transformers import GenerationConfig

    model = trainer.accelerator.unwrap_model(trainer.model)
    base = getattr(trainer, "generation_config", None)
    config = copy.deepcopy(base) if base is not None else GenerationConfig(do_sample=True)
    config.max_new_tokens = max_new_tokens or getattr(trainer.args, "max_completion_length",
                                                      None) or 256
    config.output_scores = config.return_dict_in_generate = True
    stops = {int(t) for t in (getattr(trainer, "eos_token_ids", None)
                              or [tokenizer.eos_token_id]) if t is not None}

    def generate(messages: Messages) -> Generation:
        prompt = _encode(tokenizer, _render(tokenizer, messages))
        device = next(model.parameters()).device
        ids = torch.tensor([prompt], device=device)
        was_training = model.training
        model.eval()
        try:
            with torch.no_grad():
                out = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids),
                                     generation_config=config)
        finally:
            model.train(was_training)
        new = [int(t) for t in out.sequences[0, len(prompt):]]
        scores = [torch.log_softmax(s[0].float(), dim=-1) for s in out.scores]
        cut = next((k + 1 for k, t in enumerate(new) if t in stops), len(new))
        new = new[:cut]
        logprobs = [float(scores[k][t]) for k, t in enumerate(new)]
        return Generation(tokenizer.decode(new, skip_special_tokens=True), new, logprobs)

    return generate


class MultiTurnRollout:
    """A ``rollout_func`` for ``GRPOTrainer``: see the module docstring. ``rows`` are the
    training rows (exported multi-turn rows; single-turn ones are ignored); a prompt not among
    them is refused with ``KeyError``. One sandboxed :class:`EpisodeEnv` per bootcamp, started
    on first use and kept until :meth:`close`."""

    def __init__(self, rows: Iterable[Mapping[str, Any]], *, generate: Generate | None = None,
                 tokenizer: Any = None, max_turns: int | None = None,
                 max_new_tokens: int | None = None, library: Any = None,
                 backend: str | Backend = "auto", step_limit_s: float = 5.0) -> None:
        self.episodes: dict[str, tuple[str, str]] = {}
        for row in rows:
            found = _row_episode(row)
            if found is not None:
                self.episodes[_prompt_key(row["prompt"])] = found
        if not self.episodes:
            raise ValueError("no multi-turn rows (extra_info.multi_turn) to play")
        self.generate = generate
        self.tokenizer = tokenizer
        self.max_turns = max_turns
        self.max_new_tokens = max_new_tokens
        self.library = library
        self.backend = backend
        self.step_limit_s = step_limit_s
        self.envs: dict[str, EpisodeEnv] = {}
        self.last: list[Episode] = []  # the episodes of the last call, for inspection

    def env(self, name: str) -> EpisodeEnv:
        if name not in self.envs:
            self.envs[name] = EpisodeEnv.from_library(
                name, library=self.library, backend=self.backend,
                step_limit_s=self.step_limit_s).start()
        return self.envs[name]

    def close(self) -> None:
        for env in self.envs.values():
            env.close()
        self.envs.clear()

    def __enter__(self) -> MultiTurnRollout:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __call__(self, prompts: list[Any], trainer: Any = None) -> dict[str, Any]:
        tokenizer = self.tokenizer
        if tokenizer is None:
            if trainer is None:
                raise ValueError("a tokenizer (or the trainer) is needed to return token ids")
            tokenizer = _tokenizer_of(trainer.processing_class)
        generate = self.generate
        if generate is None:
            if trainer is None:
                raise ValueError("a generate callable (or the trainer) is needed to play")
            generate = trainer_generate(trainer, tokenizer, self.max_new_tokens)
        self.last = [self.play(prompt, generate, tokenizer) for prompt in prompts]
        have_logprobs = all(e.logprobs is not None for e in self.last)
        return {
            "prompt_ids": [e.prompt_ids for e in self.last],
            "completion_ids": [e.completion_ids for e in self.last],
            "logprobs": [e.logprobs for e in self.last] if have_logprobs else None,
            "env_mask": [e.env_mask for e in self.last],
            "episode_score": [e.score for e in self.last],
            "episode_done": [e.done for e in self.last],
            "episode_actions": [e.actions for e in self.last],
            "episode_bootcamp": [e.bootcamp for e in self.last],
            "episode_identity": [json.dumps(e.identity, sort_keys=True) for e in self.last],
        }

    def play(self, prompt: Any, generate: Generate, tokenizer: Any) -> Episode:
        """Play the episode of ``prompt`` to its end (or the turn cap)."""
        try:
            name, identity = self.episodes[_prompt_key(prompt)]
        except KeyError:
            raise KeyError(f"no multi-turn row has this prompt: {_prompt_key(prompt)[:80]!r}") \
                from None
        messages = _as_messages(prompt)
        ep = Episode(bootcamp=name, identity=json.loads(identity), messages=messages)
        rendered = _render(tokenizer, messages)
        ep.prompt_ids = _encode(tokenizer, rendered)
        try:
            env = self.env(name)
            start = env.reset(identity)
            limit = env.max_turns if self.max_turns is None else \
                max(1, min(self.max_turns, env.max_turns))
            state, observation = start.state, start.observation or ""
            for turn in range(1, limit + 1):
                reply = generate(list(messages))
                gen = reply if isinstance(reply, Generation) else Generation(str(reply))
                ids = gen.token_ids if gen.token_ids is not None else _encode(tokenizer, gen.text)
                self._append(ep, ids, 1, gen.logprobs)
                messages.append({"role": "assistant", "content": gen.text})
                action = extract_action(gen.text)
                step = env.step(state, action, turn)
                ep.actions.append(action)
                ep.rewards.append(step.reward)
                ep.score, ep.done, state = step.reward, step.done, step.state
                if step.done or turn == limit:
                    break
                observation = step.observation or ""
                messages.append({"role": "user", "content": observation})
                now = _render(tokenizer, messages)
                said = rendered + tokenizer.decode(ids, skip_special_tokens=False)
                if now.startswith(said):
                    between = now[len(said):]
                elif now.startswith(rendered + gen.text):
                    between = now[len(rendered) + len(gen.text):]
                else:  # a template that rewrites earlier turns: the new message alone
                    between = _render(tokenizer, messages[-1:])
                self._append(ep, _encode(tokenizer, between), 0, None)
                rendered = now
        except RolloutError as exc:
            log.warning("episode of %s not scored: %s", name, exc)
            ep.score, ep.error = None, str(exc)
        if not ep.completion_ids:  # TRL reads each completion's last token
            self._append(ep, [int(tokenizer.eos_token_id or 0)], 0, None)
        return ep

    @staticmethod
    def _append(ep: Episode, ids: list[int], mask: int, logprobs: list[float] | None) -> None:
        ep.completion_ids += ids
        ep.env_mask += [mask] * len(ids)
        if ep.logprobs is None:
            return
        if mask == 0:
            ep.logprobs += [0.0] * len(ids)
        elif logprobs is not None and len(logprobs) == len(ids):
            ep.logprobs += [float(x) for x in logprobs]
        else:
            ep.logprobs = None


def multi_turn_rollout_func(rows: Iterable[Mapping[str, Any]], **options: Any) -> MultiTurnRollout:
    """A ``rollout_func`` playing ``rows``' episodes; ``options`` are :class:`MultiTurnRollout`'s."""
    return MultiTurnRollout(rows, **options)


def episode_reward_func() -> Callable[..., list[float | None]]:
    """A GRPOTrainer reward function returning each episode's final score, as the sandboxed
    environment computed it (the ``episode_score`` column :class:`MultiTurnRollout` returns)."""

    def episode_reward(prompts: Any = None, completions: Sequence[Any] | None = None,
                       episode_score: Sequence[float | None] | None = None,
                       **columns: Any) -> list[float | None]:
        if episode_score is None:
            raise TypeError("episode_reward needs the episode_score column: pass "
                            "rollout_func=multi_turn_rollout_func(rows) to the trainer")
        return [None if s is None else float(s) for s in episode_score]

    episode_reward.__name__ = "episode_reward"
    return episode_reward
