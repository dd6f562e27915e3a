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
# pytest-xdist's workers run with COLUMNS=80, which would wrap the output of every in-process CLI
# test that gives no COLUMNS of its own (the CLI's consoles read the width at each print:
# synth/commands/console.py).
os.environ.pop("COLUMNS", None)


def pytest_configure(config: pytest.Config) -> None:
    """Name this test process (a pytest-xdist worker by its id) in the environment that every
    process it starts inherits: the leftover-process checks (tests/helpers.py) then leave
    other workers' and other test runs' processes alone."""
    from helpers import WORKER_VARIABLE

    worker = getattr(config, "workerinput", {}).get("workerid")
    os.environ[WORKER_VARIABLE] = f"{worker or 'main'}-{os.getpid()}"


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


# pytest-xdist (scripts/test.sh runs two workers): tests/xdist_groups.py makes each test file one
# unit of work (its module fixtures built once, on one worker) and hands the units out heaviest
# first. Workers sort their collections alike; the controller schedules by file.


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker (a serial run keeps the file order)
        from xdist_groups import order_by_weight

        order_by_weight(items)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") not in ("loadscope", "loadgroup"):
        return None
    from xdist_groups import make_scheduler

    return make_scheduler(config, log)
