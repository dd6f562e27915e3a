"""verl 0.9.1, for real, on code rows (the format of ``synth export --format code``, built here
by tests/code_rows.py from the shipped library's compiled bootcamps), configured by
``docs/recipes/verl_code.yaml`` composed with Hydra as verl's trainer composes it:

* the rows load with verl's ``RLHFDataset`` (the trainer's ``create_rl_dataset``) and collate
  into a ``DataProto`` that carries data_source / reward_model / extra_info to the reward;
* verl's ``get_custom_reward_fn`` loads ``compute_score`` with the recipe's ``reward_kwargs``
  and scores right, wrong and missing programs as the direct run of the suite does
  (tests/code_rows.direct_score), all-or-nothing, and the share passed with ``fraction: true``;
* ``main_ppo --cfg job`` composes the recipe from the command line;
* verl's agent loop (a stand-in LLM server in place of vLLM) hands the programs to verl's reward
  loop, whose token-level reward is the direct run's score on each response's last token, and
  the sandboxed program runners are gone afterwards.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from code_rows import build_suite, code_row, direct_score, fenced
from helpers import SMOLLM2_GGUF, assert_no_leftovers, missing_extra, pids_with, smollm2_dir

from synth.library import Library
from synth.sandbox import get_backend
from synth.training import reward

VERL_VERSION = "0.9.1"
REPO = Path(__file__).resolve().parents[2]
RECIPE = REPO / "docs" / "recipes" / "verl_code.yaml"
LOYAL = "codecontests_06_c_divisors_loyal_to_their_digits"
BULBS = "codecontests_16_f_bulbs_without_long_glows"
RESPONSE_LENGTH = 256
RUNNER = "synth-code-runner"
PROGRAMS = {
    LOYAL: ("n = int(input())\nc = 0\nd = 1\nwhile d * d <= n:\n    if n % d == 0:\n"
            "        for x in {d, n // d}:\n            c += x % sum(map(int, str(x))) == 0\n"
            "    d += 1\nprint(c)\n"),
    BULBS: ("MOD = 10**9 + 7\nn, k = map(int, input().split())\ndp = [1] + [0] * (k - 1)\n"
            "for _ in range(n):\n    dp = [sum(dp) % MOD] + dp[:-1]\nprint(sum(dp) % MOD)\n"),
}
pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def verl() -> Any:
    try:
        import verl
    except ImportError as exc:
        message = (f"VERL TEST SKIPPED: verl does not import ({exc}); install it with the train "
                   "extra: SYNTH_EXTRAS=dev,local,train bash scripts/setup.sh")
        warnings.warn(message, stacklevel=2)
        missing_extra("train", message)
    assert verl.__version__ == VERL_VERSION
    return verl


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Code rows as parquet files (train: 2 rows of each bootcamp, test: 1 of each)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = tmp_path_factory.mktemp("verl-code")
    library = Library()
    for split, seeds in (("train", (0, 1)), ("test", (2,))):
        rows = [code_row(build_suite(library, name, {"easy": 2, "hard": 2}, seed=seed,
                                     examples=[("24\n", "8")] if name == LOYAL else ()),
                         index=i, split=split, statement=f"{name} (seed {seed})")
                for i, (name, seed) in enumerate((n, s) for n in PROGRAMS for s in seeds)]
        pq.write_table(pa.Table.from_pylist(rows), out / f"{split}.parquet")
    return out


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from transformers import AutoConfig, AutoTokenizer

    src = smollm2_dir()
    out = tmp_path_factory.mktemp("smollm2")
    AutoTokenizer.from_pretrained(src, gguf_file=SMOLLM2_GGUF).save_pretrained(out)
    config = AutoConfig.from_pretrained(src, gguf_file=SMOLLM2_GGUF)
    config.architectures = ["LlamaForCausalLM"]
    config.save_pretrained(out)
    return out


@pytest.fixture(autouse=True)
def _datasets_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import datasets

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-datasets")


def _compose(exported: Path, *overrides: str) -> Any:
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(RECIPE.parent), version_base=None):
        return compose(RECIPE.stem, overrides=[
            f"data.train_files={exported / 'train.parquet'}",
            f"data.val_files={exported / 'test.parquet'}", *overrides])


def _rows(path: Path) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pylist()


def _suite(row: dict[str, Any]) -> dict[str, Any]:
    return json.loads(row["reward_model"]["ground_truth"])


def _responses(row: dict[str, Any]) -> list[str]:
    """A right program, a wrong one (right on some inputs only), and no program."""
    right = PROGRAMS[row["extra_info"]["bootcamp"]]
    first = _suite(row)["tests"][-1]
    wrong = f"import sys\nif sys.stdin.read() == {first['stdin']!r}:\n    print({first['expected']!r})\n"
    return [f"Counting divisors.\n{fenced(right)}", fenced(wrong), "I cannot write this."]


def test_code_rows_load_with_verls_rlhf_dataset(verl, exported, model_dir):
    from verl import DataProto
    from verl.trainer.ppo.utils import create_rl_dataset
    from verl.utils import hf_tokenizer
    from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn

    config = _compose(exported)
    tokenizer = hf_tokenizer(str(model_dir))
    rows = _rows(exported / "train.parquet")
    ds = create_rl_dataset(config.data.train_files, config.data, tokenizer, None)
    assert type(ds) is RLHFDataset and len(ds) == len(rows) == 4
    items = [ds[i] for i in range(len(ds))]
    for row, item in zip(rows, items, strict=True):
        assert item["raw_prompt"] == row["prompt"]
        for key in ("data_source", "reward_model", "extra_info", "ability"):
            assert item[key] == row[key], key
    batch = DataProto.from_single_dict(collate_fn(items))
    assert list(batch.non_tensor_batch["data_source"]) == [r["data_source"] for r in rows]
    assert list(batch.non_tensor_batch["reward_model"]) == [r["reward_model"] for r in rows]


def test_recipe_reward_scores_code_rows_as_the_direct_run(verl, exported):
    from verl.trainer.ppo.reward import get_custom_reward_fn

    config = _compose(exported)
    assert dict(config.reward.custom_reward_function.reward_kwargs) == {"fraction": False}
    every = get_custom_reward_fn(config)
    share = get_custom_reward_fn(_compose(
        exported, "reward.custom_reward_function.reward_kwargs.fraction=true"))
    assert every is not None and share is not None
    backend = get_backend("process")
    library = Library()
    rows = _rows(exported / "train.parquet") + _rows(exported / "test.parquet")
    findings = sum(reward.FINDINGS.values())
    before = pids_with(RUNNER)
    got, want = [], []
    try:
        for row in rows:
            for text in _responses(row):
                kwargs = {"data_source": row["data_source"], "solution_str": text,
                          "ground_truth": row["reward_model"]["ground_truth"],
                          "extra_info": row["extra_info"]}
                got.append((every(**kwargs), share(**kwargs)))
                want.append((direct_score(backend, library, _suite(row), text),
                             direct_score(backend, library, _suite(row), text, fraction=True)))
    finally:
        scorer = every.args[0].__globals__["_DEFAULT"]
        if scorer is not None:
            scorer.close()
    assert got == want
    assert (1.0, 1.0) in want and (0.0, 0.0) in want
    assert any(0.0 < f < 1.0 for _, f in want)  # the partly right programs
    assert sum(reward.FINDINGS.values()) == findings
    assert_no_leftovers(RUNNER, grace_s=5, before=before)


def test_main_ppo_composes_the_code_recipe(verl, exported):
    import yaml

    res = subprocess.run(
        [sys.executable, "-m", "verl.trainer.main_ppo", "--config-path", str(RECIPE.parent),
         "--config-name", RECIPE.stem, f"data.train_files={exported / 'train.parquet'}",
         "--cfg", "job"], capture_output=True, text=True, timeout=300, cwd=REPO)
    assert res.returncode == 0, res.stderr[-3000:]
    job = yaml.safe_load(res.stdout)
    assert job["reward"]["custom_reward_function"] == {
        "path": "pkg://synth.training.reward", "name": "compute_score",
        "reward_kwargs": {"fraction": False}}
    assert job["data"]["max_response_length"] == 2048


class _LLMServer:
    def __init__(self, tokenizer: Any, responses: dict[str, str]) -> None:
        self.tokenizer = tokenizer
        self.responses = responses

    async def generate(self, *, prompt_ids: list[int], **_: Any) -> Any:
        from verl.workers.rollout.replica import TokenOutput

        text = self.tokenizer.decode(prompt_ids)
        (response,) = [r for p, r in self.responses.items() if p in text]
        ids = self.tokenizer.encode(response, add_special_tokens=False)
        return TokenOutput(token_ids=[*ids, self.tokenizer.eos_token_id], stop_reason="completed")


class _InProcessActor:
    def __init__(self, target: Any) -> None:
        self._target = target

    def __getattr__(self, name: str) -> SimpleNamespace:
        return SimpleNamespace(remote=getattr(self._target, name))


def test_verl_agent_loop_and_reward_loop_reward_code_rows(verl, exported, model_dir, monkeypatch):
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
    picked = [_responses(row)[i % 3] for i, row in enumerate(rows)]
    backend = get_backend("process")
    want = [direct_score(backend, Library(), _suite(r), t) for r, t in zip(rows, picked,
                                                                          strict=True)]
    assert 1.0 in want and 0.0 in want

    scorer = reward.RewardFunction(backend="process")
    monkeypatch.setattr(reward, "_DEFAULT", scorer)
    server = _LLMServer(tokenizer, {r["prompt"][0]["content"]: t
                                    for r, t in zip(rows, picked, strict=True)})

    async def rollout() -> Any:
        reward_worker = RewardLoopWorker(config)
        agent_worker = AgentLoopWorker(config, llm_client=server,
                                       reward_loop_worker_handles=[_InProcessActor(reward_worker)])
        return await agent_worker.generate_sequences(batch)

    before = pids_with(RUNNER)
    try:
        output = asyncio.run(rollout())
    finally:
        scorer.close()
    assert_no_leftovers(RUNNER, grace_s=5, before=before)
    batch = batch.union(output)
    reward_tensor, _ = extract_reward(batch)
    prompt_length = batch.batch["prompts"].shape[1]
    for i, (text, score) in enumerate(zip(picked, want, strict=True)):
        mask = batch.batch["attention_mask"][i].bool()
        assert tokenizer.decode(batch.batch["responses"][i][mask[prompt_length:]]).startswith(
            text[:20])
        last = int(mask[prompt_length:].sum()) - 1
        assert reward_tensor[i, last].item() == score
        assert reward_tensor[i].sum().item() == score
