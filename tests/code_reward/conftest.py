"""Fixtures of the code reward's tests: a library with compiled, check_output and function
bootcamps (code_rows.toy_library), built once per session."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_rows import toy_library

from synth.library import Library


@pytest.fixture(scope="session")
def code_library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return toy_library(Path(tmp_path_factory.mktemp("code-library")))
