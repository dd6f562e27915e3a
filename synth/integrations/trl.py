"""Reward functions for TRL's ``GRPOTrainer`` (part of issue 13; the training smoke test is not
written yet).

    from synth.integrations.trl import bootcamp_reward_func
    reward = bootcamp_reward_func()                       # the shipped library, sandboxed
    trainer = GRPOTrainer(model=..., reward_funcs=[reward], train_dataset=rows, ...)

TRL calls a reward function as ``f(prompts=..., completions=..., **columns)``, every dataset column
a list with one value per completion. The rows ``synth export`` writes carry ``data_source``
(``bootcamp/<name>``) and ``reward_model`` (``{"style": "rule", "ground_truth": <case JSON>}``); a
flat ``ground_truth`` column works as well. A completion may be a string or, for conversational
datasets, a list of messages (the assistant's ``content`` is scored; several assistant messages are
joined). Each completion is scored by its row's bootcamp with :func:`synth.training.reward.make_compute_score`
-- in the sandbox's warm pool unless ``trust_library_code=True`` -- so a verifier that raises, hangs
or returns an invalid score is logged with the response head, counted in
:data:`synth.training.reward.FINDINGS`, and scores 0.0, never silently and never crashing the trainer.

Code rows (``synth export --format code``: ``data_source`` ``code/<name>``, the ground truth a
test suite) are scored the same way by :mod:`synth.training.code_reward`: the completion's last
```python block runs against the suite in sandboxed program runners (``runners``; ``fraction=True``
for the share of tests passed instead of all-or-nothing); ``docs/recipes/grpo_trl_code.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from synth.training.reward import RewardDataError, make_compute_score

__all__ = ["bootcamp_reward_func", "completion_text"]


def completion_text(completion: Any) -> str | None:
    """The text TRL hands over for one completion: a str, or the assistant messages' content of
    a conversational completion (None when there is no text to score)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if isinstance(completion, Sequence):
        parts = [m.get("content") for m in completion
                 if isinstance(m, dict) and m.get("role", "assistant") == "assistant"]
        texts = [p for p in parts if isinstance(p, str)]
        return "\n".join(texts) if texts else None
    return None


def _ground_truth(i: int, columns: dict[str, Any]) -> Any:
    if "ground_truth" in columns:
        return columns["ground_truth"][i]
    if "reward_model" in columns:
        spec = columns["reward_model"][i]
        if isinstance(spec, dict) and "ground_truth" in spec:
            return spec["ground_truth"]
    raise RewardDataError("the dataset has neither a ground_truth nor a reward_model column "
                          "(the columns `synth export` writes)")


def bootcamp_reward_func(library: Path | str | None = None, *, trust_library_code: bool = False,
                         **pool_options: Any) -> Callable[..., list[float]]:
    """A GRPOTrainer reward function over ``library`` (default: the shipped one); the options
    are :func:`synth.training.reward.make_compute_score`'s."""
    score = make_compute_score(library, trust_library_code=trust_library_code, **pool_options)

    def bootcamp_reward(prompts: Any = None, completions: Sequence[Any] | None = None,
                        **columns: Any) -> list[float]:
        if completions is None:
            raise TypeError("bootcamp_reward needs the completions TRL passes")
        if "data_source" not in columns:
            raise RewardDataError("the dataset has no data_source column (`synth export` rows)")
        sources = columns["data_source"]
        extras = columns.get("extra_info") or [None] * len(completions)
        out: list[float] = []
        for i, completion in enumerate(completions):
            text = completion_text(completion)
            if text is None:
                out.append(0.0)
                continue
            out.append(float(score(sources[i], text, _ground_truth(i, columns), extras[i])))
        return out

    bootcamp_reward.__name__ = "bootcamp_reward"  # TRL logs rewards under the function's name
    bootcamp_reward.close = score.close  # type: ignore[attr-defined]
    return bootcamp_reward
