"""Shared fixtures. No test reaches a paid model endpoint: model traffic is refused here."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

# A global switch: any real model request in tests must fail loudly.
os.environ["OPENAI_BASE_URL"] = "http://127.0.0.1:9/never-a-real-endpoint"
os.environ.setdefault("OPENAI_API_KEY", "sk-test-never-sent")
# the CLI's rich consoles are made at import, and one made while COLUMNS is set keeps that width
# for good: pytest-xdist's workers run with COLUMNS=80, which then wraps every in-process CLI
# test's output whatever COLUMNS the test gives. Without it the width is read at each print.
os.environ.pop("COLUMNS", None)


@pytest.fixture
def repo() -> Path:
    return REPO


@pytest.fixture
def listener() -> Iterator[Any]:
    """A TCP listener on 127.0.0.1 that records every connection (the attacks' network probe:
    tests/helpers.py's Listener)."""
    from helpers import Listener

    lst = Listener()
    yield lst
    lst.close()
