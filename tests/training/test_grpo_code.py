"""A real GRPO run on code rows: TRL's GRPOTrainer, on CPU, for two optimisation steps, through
the recipe docs/recipes/grpo_trl_code.py, rewarded by running each completion's program against
its row's test suite (bootcamp_reward_func, sandboxed program runners).

The rows (tests/code_rows.py, in the format of ``synth export --format code``) hold suites of a
task with several valid outputs, judged by its bootcamp's ``check_output`` in the bootcamp's
sandboxed worker pool. The policy is the tiny Llama of test_grpo.py, warm-started to answer each
prompt with a right program or a wrong one at about even odds. What the test shows, as
test_grpo.py does for answer rows:

1. every reward the trainer logged is the direct run's score of the completion the trainer
   generated (tests/code_rows.direct_score: its own extraction, a sandbox job per test, the
   bootcamp's verify_score loaded in this process), over a mix of right and wrong programs; the
   logged means are the recomputed means; each advantage has the sign of its score minus its
   group's mean;
2. every weight tensor changed;
3. exactly two optimisation steps, with the sandboxed program runners and scoring workers alive
   during them and none left afterwards.
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import huggingface_hub.constants
import pyarrow.parquet as pq
import pytest
import torch
from code_rows import build_suite, code_row, direct_score, toy_library
from helpers import assert_no_leftovers, pids_with, processes_with
from tiny_lm import smollm2_tokenizer, tiny_llama, warm_start
from transformers import TrainerCallback

from synth.sandbox import get_backend

RECIPE = Path(__file__).resolve().parents[2] / "docs" / "recipes" / "grpo_trl_code.py"
BOOTCAMP = "toy_two_summands"
RUNNER = "synth-code-runner"  # the label of the code reward's sandboxed program runners
WORKER = "synth-reward-worker"  # the label of the bootcamp's sandboxed scoring workers
STEPS = 2
GROUP = 8
RIGHT = "```python\nn = int(input())\nprint(n - 1, 1)\n```"
WRONG = "```python\nn = int(input())\nprint(n, 0)\n```"

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(var, "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)


@pytest.fixture(autouse=True)
def _datasets_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import datasets

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-datasets")


def _recipe() -> ModuleType:
    spec = importlib.util.spec_from_file_location("grpo_trl_code_recipe", RECIPE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Steps(TrainerCallback):
    def __init__(self) -> None:
        self.seen: list[tuple[int, int, int]] = []

    def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        self.seen.append((state.global_step, len(processes_with(RUNNER)),
                          len(processes_with(WORKER))))


def test_grpo_trains_on_code_rows_with_the_code_reward(tmp_path: Path) -> None:
    t0 = time.monotonic()
    runners_before, workers_before = pids_with(RUNNER), pids_with(WORKER)
    library = toy_library(tmp_path / "library")
    suites = [build_suite(library, BOOTCAMP, {"easy": 2, "hard": 2}, seed=seed)
              for seed in range(STEPS)]
    rows = [code_row(suite, index=i, statement=f"Two Summands (case set {i})")
            for i, suite in enumerate(suites)]
    data = tmp_path / "train.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))

    backend = get_backend("process")
    by_prompt = {row["prompt"][-1]["content"]: suite for row, suite in zip(rows, suites,
                                                                           strict=True)}
    for suite in suites:  # the direct run tells the two programs apart
        assert direct_score(backend, library, suite, RIGHT) == 1.0
        assert direct_score(backend, library, suite, WRONG) == 0.0

    tokenizer = smollm2_tokenizer()
    model = tiny_llama(tokenizer, seed=0)
    losses = warm_start(model, tokenizer, [(row["prompt"], c) for row in rows
                                           for c in (RIGHT, WRONG)], steps=100, lr=8e-3)
    assert losses[-1] < 0.15, losses[-5:]

    weights_before = {n: p.detach().clone() for n, p in model.named_parameters()}
    steps = _Steps()
    out = tmp_path / "out"
    trainer = _recipe().train(
        data, model, tokenizer, out, callbacks=[steps], library=library.root, sandbox="process",
        max_steps=STEPS, num_generations=GROUP, per_device_train_batch_size=GROUP,
        max_completion_length=32, learning_rate=2e-3, seed=0, log_completions=True,
        num_completions_to_print=0, report_to="none", use_cpu=True, bf16=False,
        activation_checkpointing=False, save_strategy="no")
    elapsed = time.monotonic() - t0
    print(f"rows + warm start + {STEPS} GRPO steps on code rows: {elapsed:.1f} s")

    # (3) two optimisation steps, with live sandboxed runners and workers; none left behind
    assert trainer.state.global_step == STEPS
    assert [step for step, _, _ in steps.seen] == list(range(1, STEPS + 1))
    assert all(runners >= 1 and workers >= 1 for _, runners, workers in steps.seen), steps.seen
    assert_no_leftovers(RUNNER, before=runners_before)
    assert_no_leftovers(WORKER, before=workers_before)

    # (1) the logged rewards are the direct run's scores of the logged completions
    logged = {e["step"]: e for e in trainer.state.log_history if "reward" in e}
    scores: list[float] = []
    signs: list[tuple[float, float]] = []
    for step in range(1, STEPS + 1):
        table = pq.read_table(out / "completions" / f"completions_{step:05d}.parquet").to_pylist()
        assert len(table) == GROUP and {r["step"] for r in table} == {step}
        assert len({r["prompt"][-1]["content"] for r in table}) == 1
        recomputed = []
        for r in table:
            (message,) = r["completion"]
            assert message["role"] == "assistant"
            suite = by_prompt[r["prompt"][-1]["content"]]
            recomputed.append(direct_score(backend, library, suite, message["content"]))
        assert [r["bootcamp_reward"] for r in table] == recomputed
        mean = statistics.fmean(recomputed)
        assert logged[step]["reward"] == pytest.approx(mean)
        assert logged[step]["rewards/bootcamp_reward/mean"] == pytest.approx(mean)
        signs += [(r["advantage"], s - mean) for r, s in zip(table, recomputed, strict=True)]
        scores += recomputed
    assert 1.0 in scores and 0.0 in scores, scores
    for advantage, above in signs:
        if above == 0:
            assert advantage == pytest.approx(0.0, abs=1e-6)
        else:
            assert (advantage > 0) == (above > 0), signs
    assert any(advantage != 0 for advantage, _ in signs)

    # (2) every weight tensor changed
    changed = [n for n, p in model.named_parameters()
               if not torch.equal(p.detach(), weights_before[n])]
    assert changed == list(weights_before)
    assert elapsed < 400, f"the smoke test took {elapsed:.0f} s"
