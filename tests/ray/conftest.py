"""The Ray tests share one real local cluster: a head and a worker node on loopback, started by
:class:`cluster.LocalRayCluster` (``ray start``) for the first Ray test and stopped after the
last one of this folder (not at the end of a whole-suite run: its idle servers would run
through every later test), with a check that none of its processes is left. The tests need
the ``ray`` extra."""

from __future__ import annotations

from pathlib import Path

import pytest

# ray.actor, not ray: without the extra, `import ray` would find this folder (tests/ is on
# sys.path) as a namespace package
try:
    import ray.actor  # noqa: F401
except ImportError:
    from helpers import missing_extra

    missing_extra("ray", "the Ray tests need the ray extra: pip install -e '.[ray]'")

# pytest puts this folder on sys.path (it is no package)
from cluster import LocalRayCluster, summary

HERE = Path(__file__).resolve().parent
_running: list[LocalRayCluster] = []


@pytest.fixture
def ray_cluster() -> LocalRayCluster:
    """The running two-node cluster, this process connected to it as the driver (started on
    first use). A test that kills the worker node restarts it before it ends."""
    if not _running:
        cluster = LocalRayCluster().start()
        try:
            cluster.connect()
        except BaseException:
            cluster.stop()
            raise
        print(f"\nlocal Ray cluster at {cluster.address}: {summary(cluster)}")
        _running.append(cluster)
    return _running[0]


def _stop() -> None:
    while _running:
        _running.pop().stop()  # raises ClusterError naming any process of the cluster left


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After the last test of this folder (the next one is elsewhere, or none)."""
    if nextitem is None or HERE not in Path(nextitem.path).resolve().parents:
        _stop()


def pytest_sessionfinish(session: pytest.Session) -> None:
    _stop()
