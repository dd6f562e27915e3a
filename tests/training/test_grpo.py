"""A real GRPO run: TRL's GRPOTrainer, on CPU, for two optimisation steps, through the recipe
docs/recipes/grpo_trl.py, on rows `synth export --format hf` wrote, rewarded by
bootcamp_reward_func (sandboxed scoring, the default).

The policy is a tiny random Llama over SmolLM2's tokenizer (tests/training/tiny_lm.py). A random
model would only write garbage that scores 0, so it is first warm-started (supervised, a few
seconds) to answer each prompt with its right answer or a wrong one at about even odds: the
completions the trainer samples then score 1 and 0 within one group, which is what GRPO learns
from. What the test shows:

1. every reward the trainer logged is the bootcamp's own ``verify_score`` of the completion the
   trainer generated, recomputed here with the class loaded in this process (not through the
   reward function under test), over a mix of right and wrong (some malformed) completions; the
   logged mean rewards are the means of the recomputed ones; each advantage has the sign of
   its score minus its group's mean (the scores are what the update used);
2. every weight tensor changed (AdamW without weight decay moves nothing when every advantage is
   zero, so this is the scores reaching the optimiser, not the optimiser merely running);
3. the trainer took exactly two optimisation steps, with the sandboxed reward workers alive
   during them and none left afterwards.
"""

from __future__ import annotations

import importlib.util
import json
import re
import statistics
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import huggingface_hub.constants
import pyarrow.parquet as pq
import pytest
import torch
from datasets import load_from_disk
from helpers import assert_no_leftovers, pids_with, processes_with
from tiny_lm import smollm2_tokenizer, tiny_llama, warm_start
from transformers import TrainerCallback

from synth.library import Library
from synth.training.export import ExportConfig, export

RECIPE = Path(__file__).resolve().parents[2] / "docs" / "recipes" / "grpo_trl.py"
BOOTCAMP = "code_output"  # the shortest prompts of the shipped library (~210 tokens)
WORKER = "synth-reward-worker"  # the label of the reward pool's sandboxed workers
SERVER = "synth-export-server"  # the label of export's method servers
STEPS = 2
GROUP = 8  # completions per prompt; one prompt per step

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing from a hub: the switches, and the constant huggingface_hub read at its import."""
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(var, "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)


def _recipe() -> ModuleType:
    spec = importlib.util.spec_from_file_location("grpo_trl_recipe", RECIPE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Steps(TrainerCallback):
    """Records, at the end of every optimisation step, the step and the live reward workers."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, int]] = []

    def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        self.seen.append((state.global_step, len(processes_with(WORKER))))


def _wrong(answer: str) -> str:
    """A wrong answer near the right one: the next integer, else the answer with junk appended."""
    return str(int(answer) + 1) if re.fullmatch(r"-?\d+", answer) else answer + "x"


def test_grpo_trains_on_exported_rows_with_the_bootcamps_rewards(tmp_path: Path) -> None:
    t0 = time.monotonic()
    workers_before, servers_before = pids_with(WORKER), pids_with(SERVER)
    data = tmp_path / "data"
    # one test row: an empty split saved by --format hf does not load back (datasets 5.2)
    export(ExportConfig(out=data, bootcamps=[BOOTCAMP], per_bootcamp=STEPS, test_per_bootcamp=1,
                        level="easy", format="hf", workers=1))
    rows = load_from_disk(str(data / "hf"))["train"]
    assert len(rows) == STEPS

    oracle = Library().load_bootcamp(BOOTCAMP)  # trusted, in this process: the judge of the test
    cases: dict[str, dict[str, Any]] = {}  # prompt text -> identity
    answers: dict[str, tuple[list[dict[str, Any]], str, str]] = {}  # -> (prompt, right, wrong)
    for row in rows:
        text = row["prompt"][-1]["content"]
        identity = json.loads(row["reward_model"]["ground_truth"])
        right = oracle.wrap_answer(oracle.reference_answer(identity))
        wrong = oracle.wrap_answer(_wrong(oracle.reference_answer(identity)))
        assert oracle.verify_score(right, identity) == 1.0
        assert oracle.verify_score(wrong, identity) == 0.0
        cases[text] = identity
        answers[text] = (row["prompt"], right, wrong)

    tokenizer = smollm2_tokenizer()
    model = tiny_llama(tokenizer, seed=0)
    losses = warm_start(model, tokenizer,
                        [(p, c) for p, right, wrong in answers.values() for c in (right, wrong)],
                        steps=80, lr=8e-3)
    assert losses[-1] < 0.15, losses[-5:]  # even odds cost ln 2 over ~9 tokens: 0.077

    weights_before = {n: p.detach().clone() for n, p in model.named_parameters()}
    steps = _Steps()
    out = tmp_path / "out"
    trainer = _recipe().train(
        data / "hf", model, tokenizer, out, callbacks=[steps],
        max_steps=STEPS, num_generations=GROUP, per_device_train_batch_size=GROUP,
        max_completion_length=16, learning_rate=2e-3, seed=0, log_completions=True,
        num_completions_to_print=0, report_to="none", use_cpu=True, bf16=False,
        activation_checkpointing=False, save_strategy="no")
    elapsed = time.monotonic() - t0
    print(f"export + warm start + {STEPS} GRPO steps: {elapsed:.1f} s")

    # (3) two optimisation steps, scored by live sandboxed workers; none left behind
    assert trainer.state.global_step == STEPS
    assert [step for step, _ in steps.seen] == list(range(1, STEPS + 1))
    assert all(live >= 1 for _, live in steps.seen), steps.seen
    assert_no_leftovers(WORKER, before=workers_before)
    assert_no_leftovers(SERVER, before=servers_before)

    # (1) the logged rewards are the bootcamp's scores of the logged completions
    logged = {e["step"]: e for e in trainer.state.log_history if "reward" in e}
    scores: list[float] = []
    signs: list[tuple[float, float]] = []  # (advantage, score - group mean)
    for step in range(1, STEPS + 1):
        table = pq.read_table(out / "completions" / f"completions_{step:05d}.parquet").to_pylist()
        assert len(table) == GROUP and {r["step"] for r in table} == {step}
        assert len({r["prompt"][-1]["content"] for r in table}) == 1  # one group per step
        recomputed = []
        for r in table:
            (message,) = r["completion"]
            assert message["role"] == "assistant"
            identity = cases[r["prompt"][-1]["content"]]
            recomputed.append(oracle.verify_score(message["content"], identity))
        assert [r["bootcamp_reward"] for r in table] == recomputed
        mean = statistics.fmean(recomputed)
        assert logged[step]["reward"] == pytest.approx(mean)
        assert logged[step]["rewards/bootcamp_reward/mean"] == pytest.approx(mean)
        signs += [(r["advantage"], score - mean) for r, score in zip(table, recomputed, strict=True)]
        scores += recomputed
    assert 1.0 in scores and 0.0 in scores, scores  # a mix, not all zeros
    for advantage, above in signs:
        if above == 0:
            assert advantage == pytest.approx(0.0, abs=1e-6)
        else:
            assert (advantage > 0) == (above > 0), signs
    assert any(advantage != 0 for advantage, _ in signs), "no group with a learning signal"

    # (2) every weight tensor changed (a zero advantage everywhere would have changed none)
    changed = [n for n, p in model.named_parameters() if not torch.equal(p.detach(), weights_before[n])]
    assert changed == list(weights_before)
    assert elapsed < 300, f"the smoke test took {elapsed:.0f} s"
