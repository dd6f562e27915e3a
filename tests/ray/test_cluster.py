"""The local cluster itself: two live nodes, loopback only, no usage stats, and a kill and a
restart of the worker node that leave nothing behind."""

from __future__ import annotations

import json
import os
import time

import ray
from cluster import LOOPBACK, LocalRayCluster, alive_node_ids, host_of


@ray.remote(num_cpus=1)
def _where() -> tuple[str, int, int]:
    time.sleep(0.5)  # long enough that SPREAD must use both nodes
    return ray.get_runtime_context().get_node_id(), os.getpid(), os.getsid(0)


def test_two_nodes_on_loopback_only(ray_cluster: LocalRayCluster):
    assert alive_node_ids() == {ray_cluster.head.node_id, ray_cluster.worker.node_id}
    assert {n["NodeManagerAddress"] for n in ray.nodes() if n["Alive"]} == {"127.0.0.1"}
    spread = ray.get([_where.options(scheduling_strategy="SPREAD").remote() for _ in range(4)])
    assert {node for node, _, _ in spread} == alive_node_ids()
    # a task runs in its node's session: that is what scopes the cluster's stop
    for node, _, session in spread:
        assert session == next(n.session for n in ray_cluster.nodes if n.node_id == node)
    socks = ray_cluster.sockets()
    names = {name for name, _, _ in socks}
    assert {"gcs_server", "raylet"} <= names, socks
    listening = [(name, local) for name, local, remote in socks if not remote]
    assert listening and all(host_of(local) in LOOPBACK for _, local in listening), listening
    talking = [(name, remote) for name, _, remote in socks if remote]
    assert all(host_of(remote) in LOOPBACK for _, remote in talking), talking


def test_usage_stats_are_off(ray_cluster: LocalRayCluster):
    # what the head recorded for the cluster: the fields it adds only when usage stats are on
    # are missing (Ray's internal key-value store, as its usage library writes it)
    from ray.experimental.internal_kv import _internal_kv_get

    metadata = json.loads(_internal_kv_get(b"CLUSTER_METADATA", namespace=b"cluster"))
    assert "ray_version" in metadata and "os" not in metadata, metadata
    # and every process that could report runs with usage stats disabled and no RAY_ADDRESS
    names = ("gcs_server", "raylet", "python", "python3")
    servers = [p for p in ray_cluster.processes() if p.name in names]
    assert len([p for p in servers if p.name in ("gcs_server", "raylet")]) == 3
    for proc in servers:
        with open(f"/proc/{proc.pid}/environ", "rb") as f:
            env = f.read().split(b"\0")
        assert b"RAY_USAGE_STATS_ENABLED=0" in env, proc
        assert not [v for v in env if v.startswith(b"RAY_ADDRESS=")], proc


def test_kill_and_restart_the_worker_node(ray_cluster: LocalRayCluster):
    old = ray_cluster.worker
    t0 = time.monotonic()
    dead = ray_cluster.kill_worker()
    declared_dead_s = time.monotonic() - t0
    assert dead is old and dead.node_id not in alive_node_ids()
    assert not [p for p in ray_cluster.processes() if p.session == dead.session]
    new = ray_cluster.restart_worker()
    assert new.node_id != old.node_id
    assert alive_node_ids() == {ray_cluster.head.node_id, new.node_id}
    print(f"\nworker node declared dead {declared_dead_s:.1f}s after kill; "
          f"restarted in {new.start_s:.1f}s")
    spread = ray.get([_where.options(scheduling_strategy="SPREAD").remote() for _ in range(4)])
    assert new.node_id in {node for node, _, _ in spread}
