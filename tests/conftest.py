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
