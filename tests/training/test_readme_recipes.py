"""The training pages' recipes (docs/training.md and docs/code-rl.md, linked from the README) are
the files the training tests run, byte for byte."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _blocks(lang: str, page: str = "training.md") -> list[str]:
    text = (REPO / "docs" / page).read_text("utf-8")
    return [m.group(1) for m in re.finditer(rf"^```{lang}\n(.*?)^```$", text, re.S | re.M)]


@pytest.mark.parametrize(("recipe", "lang", "test", "page"), [
    ("docs/recipes/grpo_trl.py", "python", "tests/training/test_grpo.py", "training.md"),
    ("docs/recipes/verl_reward.yaml", "yaml", "tests/training/test_verl.py", "training.md"),
    ("docs/recipes/grpo_trl_code.py", "python", "tests/training/test_grpo_code.py", "code-rl.md"),
    ("docs/recipes/verl_code.yaml", "yaml", "tests/training/test_verl_code.py", "code-rl.md"),
])
def test_the_training_page_quotes_the_recipe_the_test_runs(recipe: str, lang: str, test: str,
                                                           page: str):
    text = (REPO / recipe).read_text("utf-8")
    assert text in _blocks(lang, page), f"docs/{page} does not quote {recipe} as it is"
    assert Path(recipe).name in (REPO / test).read_text("utf-8"), f"{test} does not use {recipe}"
