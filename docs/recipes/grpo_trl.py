"""GRPO with TRL on bootcamp rows, scored by the bootcamps themselves.

    synth export --format hf --bootcamp code_output --out data
    python docs/recipes/grpo_trl.py data/hf HuggingFaceTB/SmolLM2-135M-Instruct grpo-out

The rows are the ones ``synth export`` writes (``data_source``, a chat ``prompt``,
``reward_model.ground_truth``, ``extra_info``); TRL passes every column to the reward function,
which scores each completion with its row's bootcamp in the sandbox's warm worker pool (the
trainer's process never imports the library's code). tests/training/test_grpo.py runs this
function with a tiny model for two steps.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from datasets import load_from_disk
from trl import GRPOConfig, GRPOTrainer

from synth.integrations.trl import bootcamp_reward_func

DEFAULTS: dict[str, Any] = {
    "num_generations": 8,  # completions per prompt; advantages are relative within this group
    "per_device_train_batch_size": 8,
    "max_completion_length": 512,
    "logging_steps": 1,
}


def train(dataset_dir: str | Path, model: Any, tokenizer: Any = None,
          output_dir: str | Path = "grpo-out", callbacks: list[Any] | None = None,
          **config: Any) -> GRPOTrainer:
    """Train ``model`` (a model or a model id) on the ``train`` split saved in ``dataset_dir``;
    ``config`` is passed to ``GRPOConfig`` over :data:`DEFAULTS`. Returns the trainer."""
    rows = load_from_disk(str(dataset_dir))["train"]
    reward = bootcamp_reward_func()  # the shipped library, sandboxed
    args = GRPOConfig(output_dir=str(output_dir), **(DEFAULTS | config))
    trainer = GRPOTrainer(model=model, processing_class=tokenizer, reward_funcs=[reward],
                          args=args, train_dataset=rows, callbacks=callbacks)
    try:
        trainer.train()
    finally:
        reward.close()  # stops the sandboxed scoring workers
    return trainer


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: python grpo_trl.py DATASET_DIR MODEL OUTPUT_DIR")
    train(sys.argv[1], sys.argv[2], output_dir=sys.argv[3]).save_model()
