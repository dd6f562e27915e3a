"""How the suite is split between pytest-xdist workers (``scripts/test.sh`` runs ``-n 2 --dist
loadscope``): a test file is one unit of work, so its module fixtures are built once, on one
worker; a folder in :data:`ONE_GROUP_FOLDERS` is one unit (one Ray cluster, one local model
server at a time). Units are handed out heaviest first, by the seconds in ``tests/weights.json``,
so that no long unit starts at the end.

Why a scheduler of our own: xdist's ``loadgroup`` names a test's group by rewriting
``item._nodeid``, which pytest 9 no longer reads (a node's id is ``_id``), so every test became a
group of its own and a file's module fixtures were built on both workers. The scope here is read
from the node id itself, which no pytest version changes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent
ONE_GROUP_FOLDERS = ("ray", "smoke")
WEIGHTS = TESTS / "weights.json"


def unit_of(nodeid: str) -> str:
    """The unit of work of a node id (``tests/foundation/test_cli.py::test_x[a]``): its file,
    without the folder prefix and suffix (``foundation/test_cli``), or a whole folder of
    :data:`ONE_GROUP_FOLDERS` (``ray``). Ids relative to the rootdir or to ``tests/`` alike."""
    path = nodeid.split("::", 1)[0].split("@", 1)[0]
    parts = Path(path).parts
    if parts and parts[0] == "tests":
        parts = parts[1:]
    if parts and parts[0] in ONE_GROUP_FOLDERS:
        return parts[0]
    return Path(*parts).with_suffix("").as_posix() if parts else path


def weights() -> dict[str, float]:
    return json.loads(WEIGHTS.read_text()) if WEIGHTS.exists() else {}


def order_by_weight(items: list[pytest.Item], known: dict[str, float] | None = None) -> None:
    """Heaviest unit first (``known``: seconds per unit, by default tests/weights.json); a unit's
    tests stay together and in collection order (a unit not in the weights comes last). Every
    worker sorts alike, so their collections agree."""
    known = weights() if known is None else known
    index = {id(item): n for n, item in enumerate(items)}
    items.sort(key=lambda item: (-known.get(unit_of(item.nodeid), 0.0), unit_of(item.nodeid),
                                 index[id(item)]))


def make_scheduler(config: pytest.Config, log: Any) -> Any:
    from xdist.scheduler import LoadScopeScheduling

    class UnitScheduling(LoadScopeScheduling):
        """xdist's scope scheduling with :func:`unit_of` as the scope."""

        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

    return UnitScheduling(config, log)
