"""Fixtures of the `synth audit` tests (helpers: audit_helpers.py)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from audit_helpers import FAKEDEP, module_source, open_up, world_readable


@pytest.fixture
def library(tmp_path: Path) -> Callable[..., Path]:
    """``library("sum_fine", "anything_goes")``: a folder holding those modules."""

    def make(*names: str, folder: Path | None = None) -> Path:
        where = folder or tmp_path / "lib"
        where.mkdir(parents=True, exist_ok=True)
        for name in names:
            (where / f"{name}.py").write_text(module_source(name), encoding="utf-8")
        return where

    return make


@pytest.fixture
def fakedep_dir() -> Iterator[Path]:
    """A world-readable folder with the pure-Python package ``fakedep``."""
    folder = world_readable("synth-audit-dep-")
    (folder / "fakedep").mkdir()
    (folder / "fakedep" / "__init__.py").write_text(FAKEDEP, encoding="utf-8")
    open_up(folder)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
