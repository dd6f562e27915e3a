"""The Ray tests share one real local cluster: a head and a worker node on loopback, started
once per session by :class:`cluster.LocalRayCluster` (``ray start``) and stopped at the end with
a check that none of its processes is left. The tests need the ``ray`` extra."""

from __future__ import annotations

from collections.abc import Iterator

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


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[LocalRayCluster]:
    """The running two-node cluster, this process connected to it as the driver. A test that
    kills the worker node restarts it before it ends (``restart_worker``)."""
    cluster = LocalRayCluster().start()
    try:
        cluster.connect()
        print(f"\nlocal Ray cluster at {cluster.address}: {summary(cluster)}")
        yield cluster
    finally:
        cluster.stop()  # raises ClusterError naming any process of the cluster left
