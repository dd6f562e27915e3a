"""GRPO with TRL on code rows: the model writes a program, the reward runs it against the row's
test suite in the sandbox.

    synth export --format code --out data/code
    python docs/recipes/grpo_trl_code.py data/code/train.jsonl Qwen/Qwen2.5-Coder-0.5B-Instruct grpo-code-out

The rows are the ones ``synth export --format code`` writes (``data_source`` ``code/<name>``, a
chat ``prompt`` asking for a program in a ```python block, ``reward_model.ground_truth`` the
test suite, ``extra_info``); a .jsonl or .parquet file. TRL passes every column to the reward
function, which takes the last fenced block of each completion and runs it on the suite's tests
in a fresh sandboxed runner from a warm pool (never in the trainer's process): 1.0 when every
test passes, else 0.0 (``fraction=True``: the share of tests passed). A suite judged by its
bootcamp's ``check_output`` asks the bootcamp's sandboxed worker pool. tests/training/test_grpo_code.py
runs this function with a tiny model for two steps.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

from synth.integrations.trl import bootcamp_reward_func

DEFAULTS: dict[str, Any] = {
    "num_generations": 8,  # programs per prompt; advantages are relative within this group
    "per_device_train_batch_size": 8,
    "max_completion_length": 1024,  # a whole program, with the model's words around it
    "logging_steps": 1,
}


def train(rows: str | Path, model: Any, tokenizer: Any = None,
          output_dir: str | Path = "grpo-code-out", callbacks: list[Any] | None = None, *,
          library: str | Path | None = None, fraction: bool = False, sandbox: str = "auto",
          **config: Any) -> GRPOTrainer:
    """Train ``model`` (a model or a model id) on the code rows in ``rows`` (.jsonl or
    .parquet), rewarded against ``library`` (default: the shipped one, whose module hashes the
    suites name) on the ``sandbox`` backend (auto: the strongest that runs here); ``config``
    is passed to ``GRPOConfig`` over :data:`DEFAULTS`."""
    kind = "parquet" if str(rows).endswith(".parquet") else "json"
    dataset = load_dataset(kind, data_files=str(rows), split="train")
    reward = bootcamp_reward_func(library, fraction=fraction, backend=sandbox)  # sandboxed
    args = GRPOConfig(output_dir=str(output_dir), **(DEFAULTS | config))
    trainer = GRPOTrainer(model=model, processing_class=tokenizer, reward_funcs=[reward],
                          args=args, train_dataset=dataset, callbacks=callbacks)
    try:
        trainer.train()
    finally:
        reward.close()  # stops the sandboxed program runners and scoring workers
    return trainer


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: python grpo_trl_code.py ROWS(.jsonl|.parquet) MODEL OUTPUT_DIR")
    train(sys.argv[1], sys.argv[2], output_dir=sys.argv[3]).save_model()
