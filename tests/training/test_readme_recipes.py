"""The training page's recipes (docs/training.md, linked from the README) are the files the
training tests run, byte for byte."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _blocks(lang: str) -> list[str]:
    text = (REPO / "docs" / "training.md").read_text("utf-8")
    return [m.group(1) for m in re.finditer(rf"^```{lang}\n(.*?)^```$", text, re.S | re.M)]


@pytest.mark.parametrize(("recipe", "lang", "test"), [
    ("docs/recipes/grpo_trl.py", "python", "tests/training/test_grpo.py"),
    ("docs/recipes/verl_reward.yaml", "yaml", "tests/training/test_verl.py"),
])
def test_the_training_page_quotes_the_recipe_the_test_runs(recipe: str, lang: str, test: str):
    text = (REPO / recipe).read_text("utf-8")
    assert text in _blocks(lang), f"docs/training.md does not quote {recipe} as it is"
    assert Path(recipe).name in (REPO / test).read_text("utf-8"), f"{test} does not use {recipe}"
