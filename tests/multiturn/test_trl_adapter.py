"""The TRL adapter (synth.integrations.trl_multiturn) plays full Mastermind episodes of exported
rows, called the way TRL 1.16's GRPOTrainer calls a ``rollout_func`` and its reward functions
(``_generate`` then ``_calculate_rewards``), with a scripted model: the bootcamp's own reference
policy (asked of a separate sandbox) on some episodes, garbage on others. Every reward equals
an independent replay of the episode's actions in a fresh sandbox. Then the real GRPOTrainer
(CPU, a tiny random Llama, the adapter's default generator) trains one step on episodes its
model plays."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import descendants, new_descendants

from synth.integrations.trl_multiturn import (
    Generation,
    MultiTurnRollout,
    episode_reward_func,
    multi_turn_rollout_func,
)
from synth.serving.rollout import EpisodeEnv, extract_action, replay
from synth.training.export import ExportConfig, export

GARBAGE = ["I would rather not play.", "<answer>purple</answer>", "<answer></answer>",
           "<answer>9 9 9 9 9 9 9</answer>"]


class CharTokenizer:
    """A tokenizer with a chat template, one token per character (TRL needs only these calls)."""

    eos_token_id = 0
    pad_token_id = 0

    def __call__(self, text: str, add_special_tokens: bool = False) -> dict[str, list[int]]:
        return {"input_ids": [ord(c) for c in text]}

    def decode(self, ids: list[int], skip_special_tokens: bool = False) -> str:
        return "".join(chr(i) for i in ids if i or not skip_special_tokens)

    def batch_decode(self, seqs: list[list[int]], skip_special_tokens: bool = False) -> list[str]:
        return [self.decode(s, skip_special_tokens) for s in seqs]

    def apply_chat_template(self, messages: list[dict[str, str]], tokenize: bool = False,
                            add_generation_prompt: bool = False) -> str:
        text = "".join(f"<{m['role']}>{m['content']}</{m['role']}>\n" for m in messages)
        return text + ("<assistant>" if add_generation_prompt else "")


class Scripted:
    """Plays episodes in turn by the modes given (cycled): ``ref`` answers with the bootcamp's
    reference policy for the state reached (replayed in its own sandbox from the row's identity
    and the conversation's answers), ``garbage`` with unusable answers."""

    def __init__(self, identities: dict[str, str], oracle: EpisodeEnv, modes: list[str]) -> None:
        self.identities, self.oracle = identities, oracle
        self.modes = itertools.cycle(modes)
        self.mode = ""
        self.played: list[str] = []  # the mode of each episode, in order
        self.calls = 0

    def __call__(self, messages: list[dict[str, str]]) -> Generation:
        self.calls += 1
        if len(messages) == 1:  # a new episode: its first observation only
            self.mode = next(self.modes)
            self.played.append(self.mode)
        answers = [m["content"] for m in messages if m["role"] == "assistant"]
        if self.mode == "garbage":
            return Generation(GARBAGE[len(answers) % len(GARBAGE)])
        state = self.oracle.reset(self.identities[messages[0]["content"]]).state
        for turn, answer in enumerate(answers, 1):
            state = self.oracle.step(state, extract_action(answer), turn).state
        reply = self.oracle.server.call("policy", {"state": state})
        assert reply.ok, reply.error
        return Generation(f"Consistent with the feedback so far.\n<answer>{reply.value}</answer>")




@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("export") / "out"
    export(ExportConfig(out=out, bootcamps=["mastermind"], per_bootcamp=6, test_per_bootcamp=0,
                        seed=11, sandbox="process"))
    found = [json.loads(line) for line in (out / "train.jsonl").read_text().splitlines()]
    assert found and all(r["extra_info"]["multi_turn"] for r in found)
    return found


def test_adapter_plays_full_episodes_scored_like_a_replay(rows: list[dict[str, Any]]) -> None:
    before = descendants()
    tokenizer = CharTokenizer()
    identities = {r["prompt"][-1]["content"]: r["reward_model"]["ground_truth"] for r in rows}
    num_generations = 2
    # what GRPOTrainer hands rollout_func: the rows' prompts, each repeated num_generations times
    inputs = [dict(r) for r in rows for _ in range(num_generations)]
    prompts = [x["prompt"] for x in inputs]
    with EpisodeEnv.from_library("mastermind", backend="process") as oracle:
        model = Scripted(identities, oracle, ["ref", "ref", "garbage"])
        rollout = multi_turn_rollout_func(rows, generate=model, tokenizer=tokenizer,
                                          backend="process")
        try:
            output = rollout(prompts, None)  # GRPOTrainer: self.rollout_func(prompts, self)
        finally:
            rollout.close()
    assert not rollout.envs

    # what GRPOTrainer._generate checks and takes
    assert {"prompt_ids", "completion_ids", "logprobs"} <= output.keys()
    n = len(prompts)
    assert all(len(output[k]) == n for k in output if k != "logprobs")
    assert output["logprobs"] is None  # the scripted model gives none: TRL recomputes them
    extra = {k: v for k, v in output.items()
             if k not in {"prompt_ids", "completion_ids", "logprobs"}}
    env_mask = extra.pop("env_mask")
    for prompt, ids, comp, mask, episode in zip(prompts, output["prompt_ids"],
                                                 output["completion_ids"], env_mask,
                                                 rollout.last, strict=True):
        assert ids == tokenizer(tokenizer.apply_chat_template(
            prompt, add_generation_prompt=True))["input_ids"]
        assert len(mask) == len(comp) and comp
        # the model's tokens are exactly its answers; the rest are the observations between
        said = [m["content"] for m in episode.messages if m["role"] == "assistant"]
        assert tokenizer.decode([t for t, k in zip(comp, mask, strict=True) if k]) == \
            "".join(said)
        # prompt + completion is the whole conversation in the chat template
        assert tokenizer.decode(ids + comp) == tokenizer.apply_chat_template(
            episode.messages[:-1], add_generation_prompt=True) + said[-1]
        assert len(said) == len(episode.actions) and episode.messages[0] == prompt[0]
    completions = [[{"role": "assistant", "content": c}]
                   for c in tokenizer.batch_decode(output["completion_ids"], True)]
    # GRPOTrainer: extra fields merged into the inputs, then every column to the reward function
    for i, inp in enumerate(inputs):
        for key, values in extra.items():
            inp[key] = values[i]
    columns = {k: [x[k] for x in inputs] for k in inputs[0] if k != "prompt"}
    reward = episode_reward_func()
    rewards = reward(prompts=prompts, completions=completions,
                     completion_ids=output["completion_ids"], trainer_state=None,
                     log_extra=None, log_metric=None, **columns)
    assert len(rewards) == n

    assert model.played == list(itertools.islice(itertools.cycle(["ref", "ref", "garbage"]), n))
    assert model.calls == sum(len(a) for a in output["episode_actions"])
    with EpisodeEnv.from_library("mastermind", backend="process") as fresh:
        for inp, score, mode in zip(inputs, rewards, model.played, strict=True):
            truth = inp["reward_model"]["ground_truth"]
            assert inp["episode_identity"] == json.dumps(json.loads(truth), sort_keys=True)
            assert inp["episode_done"] is True
            assert score == replay(fresh, truth, inp["episode_actions"])
            if mode == "ref":
                assert score == 1.0
            else:
                assert score == 0.0
                assert len(inp["episode_actions"]) == json.loads(truth)["max_guesses"]
    assert 0 < sum(m == "garbage" for m in model.played) < n
    assert new_descendants(before) == {}, "a sandbox process outlived the adapter"


def test_adapter_refuses_unknown_prompts_and_single_turn_rows(rows: list[dict[str, Any]]) -> None:
    with pytest.raises(ValueError, match="no multi-turn rows"):
        MultiTurnRollout([{"prompt": [{"role": "user", "content": "2+2?"}],
                           "extra_info": {"bootcamp": "game24"}}])
    with MultiTurnRollout(rows, generate=lambda m: "<answer>nope</answer>",
                          tokenizer=CharTokenizer(), backend="process", max_turns=2) as rollout:
        with pytest.raises(KeyError, match="no multi-turn row"):
            rollout([[{"role": "user", "content": "an unknown game"}]])
        out = rollout([rows[0]["prompt"]])
        assert len(out["episode_actions"][0]) == 2 and out["episode_done"] == [False]
        assert out["episode_score"] == [0.0] and out["env_mask"][0].count(1) == 2 * len(
            "<answer>nope</answer>")
    with pytest.raises(TypeError, match="episode_score"):
        episode_reward_func()(prompts=["x"], completions=["y"])


def test_grpo_trainer_trains_a_step_on_episodes_its_model_plays(
        rows: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real GRPOTrainer on CPU: a tiny random Llama plays two-turn episodes through the
    adapter's default generator (the trainer's model), one optimisation step."""
    for module in ("torch", "transformers", "trl", "datasets", "gguf"):
        pytest.importorskip(module)
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(var, "1")
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    from datasets import Dataset
    from training.tiny_lm import smollm2_tokenizer, tiny_llama
    from trl import GRPOConfig, GRPOTrainer

    before = descendants()
    data = Dataset.from_list(rows[:2])
    tokenizer = smollm2_tokenizer()
    rollout = multi_turn_rollout_func(rows, max_turns=2, max_new_tokens=8, backend="process")
    args = GRPOConfig(output_dir=str(tmp_path / "out"), max_steps=1, num_generations=2,
                      per_device_train_batch_size=2, max_completion_length=8, seed=0,
                      report_to="none", use_cpu=True, bf16=False, save_strategy="no",
                      logging_steps=1)
    trainer = GRPOTrainer(model=tiny_llama(tokenizer, seed=0), processing_class=tokenizer,
                          reward_funcs=[episode_reward_func()], args=args, train_dataset=data,
                          rollout_func=rollout)
    try:
        trainer.train()
    finally:
        rollout.close()
    assert trainer.state.global_step == 1
    assert len(rollout.last) == 2
    logged = [e for e in trainer.state.log_history if "reward" in e]
    with EpisodeEnv.from_library("mastermind", backend="process") as fresh:
        for episode in rollout.last:
            assert len(episode.actions) in (1, 2) and episode.score is not None
            assert episode.score == replay(fresh, episode.identity, episode.actions)
            model_tokens = sum(episode.env_mask)
            assert 0 < model_tokens <= 16 < len(episode.completion_ids)  # observations between
            assert episode.logprobs is not None
            assert len(episode.logprobs) == len(episode.completion_ids)
    assert logged[0]["reward"] == pytest.approx(sum(e.score or 0.0 for e in rollout.last) / 2)
    assert new_descendants(before) == {}, "a sandbox process outlived the trainer"
