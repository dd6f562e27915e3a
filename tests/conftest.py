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


# pytest-xdist (`SYNTH_TEST_WORKERS=2 bash scripts/test.sh` runs `-n 2 --dist loadgroup
# --no-loadscope-reorder`): each test file is one group, so a module's shared fixtures are built
# once, on one worker; these folders are one group each (one Ray cluster, one local model server
# at a time). Groups are handed out heaviest first, by the seconds in tests/weights.json (per
# group, from a run's --junitxml; a group not in it comes last), so that no long group starts
# at the end.
ONE_GROUP_FOLDERS = ("ray", "smoke")
WEIGHTS = REPO / "tests" / "weights.json"


def _group_of(item: pytest.Item) -> str:
    rel = Path(str(item.path)).resolve().relative_to(REPO / "tests")
    if rel.parts[0] in ONE_GROUP_FOLDERS:
        return rel.parts[0]
    return rel.with_suffix("").as_posix()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if getattr(config.option, "dist", "no") != "loadgroup":
        return
    import json

    weights: dict[str, float] = json.loads(WEIGHTS.read_text()) if WEIGHTS.exists() else {}
    groups = {id(item): _group_of(item) for item in items}
    for item in items:
        item.add_marker(pytest.mark.xdist_group(groups[id(item)]))
    # a group's tests are next to each other in collection order, and the sort is stable
    items.sort(key=lambda item: -weights.get(groups[id(item)], 0.0))
