"""The TRL adapter (synth.integrations.trl_multiturn) plays full Mastermind episodes of exported
rows, called the way TRL 1.16's GRPOTrainer calls a ``rollout_func`` and its reward functions
(``_generate`` then ``_calculate_rewards``), with a scripted model: the bootcamp's own reference
policy (asked of a separate sandbox) on some episodes, garbage on others. Every reward equals
an independent replay of the episode's actions in a fresh sandbox."""

from __future__ import annotations

import itertools
import json
from typing import Any

import psutil
import pytest

from synth.export import ExportConfig, export
from synth.integrations.trl_multiturn import (
    Generation,
    MultiTurnRollout,
    episode_reward_func,
    multi_turn_rollout_func,
)
from synth.rollout import EpisodeEnv, extract_action, replay

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


def _children() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("export") / "out"
    export(ExportConfig(out=out, bootcamps=["mastermind"], per_bootcamp=6, test_per_bootcamp=0,
                        seed=11, sandbox="process"))
    found = [json.loads(line) for line in (out / "train.jsonl").read_text().splitlines()]
    assert found and all(r["extra_info"]["multi_turn"] for r in found)
    return found


def test_adapter_plays_full_episodes_scored_like_a_replay(rows: list[dict[str, Any]]) -> None:
    before = _children()
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
    assert _children() <= before, "a sandbox process outlived the adapter"


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
