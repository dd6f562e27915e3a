"""synth export --executor ray on the real two-node local cluster: the shards, read back and
sorted by ``row_id``, are the local export's rows of the same config, field by field and with
the same Arrow types (deduplication within and across splits included, and with a curriculum);
generation ran on both nodes and the splits came out as several shards; losing the worker node
midway changes no row; a raising bootcamp stops the export with the local export's error
(bootcamp, row, exception) and writes nothing; no sandbox process and no task of the export is
left running, and the CLI's flags do the same from a driver process of their own."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from cluster import LocalRayCluster, alive_node_ids
from helpers import TOY_COIN, TOY_FLAGGED, TOY_SUM, assert_no_leftovers, make_library, pids_with

from synth.library import Library
from synth.training.export import SERVER_LABEL, ExportConfig, ExportError, export
from synth.training.export_ray import ROW_ID, RayExportSummary, RayUnavailableError

SHIPPED = ("game24", "knights_knaves")
#: `synth` as the console script runs it, with the driver's connect made as the cluster's own
#: (Ray's rewrite of a loopback address to the routable one off: the cluster is loopback only)
CLI = """
import sys
import ray._private.services as services
services.resolve_ip_for_localhost = lambda host: host
from synth.cli import app
app(sys.argv[1:], prog_name="synth")
"""


@pytest.fixture(autouse=True)
def _no_usage_stats(monkeypatch: pytest.MonkeyPatch) -> None:
    """Usage stats off in this driver too, as on the cluster's nodes (Ray Data's collector)."""
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    """Two toys (TOY_COIN has three prompts: duplicates within and across splits) and two
    bootcamps of the shipped library, copied with their code."""
    shipped = Library()
    codes = {name: shipped.checked_code(name)[1] for name in SHIPPED}
    return make_library(tmp_path_factory.mktemp("lib") / "lib", coin=TOY_COIN, toy_sum=TOY_SUM,
                        **codes)


@pytest.fixture(scope="module")
def local_export(lib: Library, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """The local export of the default config of :func:`_configs` (its folder and summary),
    made once: the rows the Ray exports of that config are compared with."""
    local_cfg, _ = _configs(lib, tmp_path_factory.mktemp("local-export"))
    return local_cfg.out, export(local_cfg)


def _configs(lib: Library, out: Path, **kw: Any) -> tuple[ExportConfig, ExportConfig]:
    base = {"library": lib.root, "per_bootcamp": 300, "test_per_bootcamp": 60, "seed": 7,
            "format": "parquet", "chunk_size": 8, "sandbox": "process"} | kw
    return (ExportConfig(out=out / "local", **base),
            ExportConfig(out=out / "ray", executor="ray", **base))


def _ray_rows(folder: Path) -> tuple[pa.Schema, list[dict[str, Any]]]:
    """The shards of one split, sorted by row_id (which must be 0..n-1), without row_id."""
    table = pq.read_table(folder)
    rows = sorted(table.to_pylist(), key=lambda r: r[ROW_ID])
    assert [r.pop(ROW_ID) for r in rows] == list(range(len(rows)))
    return table.schema.remove(table.schema.get_field_index(ROW_ID)), rows


def _assert_same_rows(local: Path, ray: Path) -> int:
    n = 0
    for split in ("train", "test"):
        want = pq.read_table(local / f"{split}.parquet")
        schema, rows = _ray_rows(ray / split)
        assert schema.remove_metadata() == want.schema.remove_metadata(), split
        expected = want.to_pylist()
        assert len(rows) == len(expected), split
        for got, row in zip(rows, expected, strict=True):
            for key in row:  # field by field, for a readable failure
                assert got[key] == row[key], (split, row["extra_info"], key)
            assert got == row
        n += len(rows)
    return n


def _ray_processes(cluster: LocalRayCluster) -> list[tuple[int, str]]:
    """(pid, title) of the cluster's processes that Ray titles ``ray::...``: idle workers
    (``ray::IDLE``), workers running a task (``ray::_draw``, ``ray::_cut``, Ray Data's write
    tasks), actors and the node agents."""
    found = []
    for proc in cluster.processes():
        try:
            title = Path(f"/proc/{proc.pid}/cmdline").read_bytes().split(b"\0")[0].decode()
        except OSError:
            continue
        if title.startswith("ray::"):
            found.append((proc.pid, title))
    return found


def _assert_singletons(cluster: LocalRayCluster) -> None:
    """The actors left are Ray Data's detached ones, started once per cluster (stats, usage,
    autoscaling coordinator), one process each: an export leaves no actor of its own."""
    actors = [t for _, t in _ray_processes(cluster) if t.endswith("Actor")]
    assert len(actors) == len(set(actors)), actors
    assert set(actors) <= {"ray::_StatsActor", "ray::_UsageCollectionActor",
                           "ray::_AutoscalingCoordinatorActor"}, actors


def _assert_nothing_running(cluster: LocalRayCluster, before: set[int]) -> None:
    """No sandbox server of the export is left, and no Ray worker runs a task of it."""
    assert_no_leftovers(SERVER_LABEL, grace_s=10, before=before)
    deadline = time.monotonic() + 15
    while True:
        busy = [t for _, t in _ray_processes(cluster)
                if t != "ray::IDLE" and not t.endswith(("Actor", "Agent"))]
        if not busy or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert busy == [], busy


def test_ray_rows_are_the_local_rows(lib: Library, local_export: tuple[Path, Any], tmp_path: Path,
                                     ray_cluster: LocalRayCluster):
    before = pids_with(SERVER_LABEL)
    local_out, local = local_export
    _, ray_cfg = _configs(lib, tmp_path)
    t0 = time.perf_counter()
    summary = export(ray_cfg)
    elapsed = time.perf_counter() - t0
    assert isinstance(summary, RayExportSummary)
    n = _assert_same_rows(local_out, ray_cfg.out)
    assert n == local.rows["train"] + local.rows["test"] == summary.rows["train"] + summary.rows["test"]
    # the same survivors, so the same counts; the coin's duplicates were dropped, both kinds
    assert summary.per_bootcamp == local.per_bootcamp
    coin = summary.per_bootcamp["coin"]
    assert coin.dup_within_split > 0 and coin.dup_across_splits > 0 and coin.short_by > 0
    assert summary.duplicates_dropped == local.duplicates_dropped
    # spread: generation tasks ran on both nodes, blocks were cut on both, several shards
    nodes = alive_node_ids()
    assert set(summary.task_nodes) == nodes, summary.task_nodes
    assert set(summary.block_nodes) == nodes, summary.block_nodes
    assert len(summary.shards["train"]) > 1 and len(summary.shards["test"]) > 1, summary.shards
    assert sorted(p.name for p in (ray_cfg.out / "train").iterdir()) == summary.shards["train"]
    assert [p.name for p in ray_cfg.out.iterdir() if p.name.startswith(".")] == []
    shards = {split: len(names) for split, names in summary.shards.items()}
    print(f"\n{n} rows; local {local.elapsed_s:.2f}s, ray {elapsed:.2f}s ({summary.tasks} tasks "
          f"on {len(summary.task_nodes)} nodes, shards {shards})")
    _assert_nothing_running(ray_cluster, before)
    # an export into the same folder replaces the shards (it does not append to them)
    again = export(ray_cfg)
    assert sorted(p.name for p in (ray_cfg.out / "train").iterdir()) == again.shards["train"]
    _assert_same_rows(local_out, ray_cfg.out)
    _assert_nothing_running(ray_cluster, before)
    _assert_singletons(ray_cluster)


def test_curriculum_and_level_rows_are_the_local_rows(lib: Library, tmp_path: Path,
                                                      ray_cluster: LocalRayCluster):
    local_cfg, ray_cfg = _configs(lib, tmp_path / "c", per_bootcamp=150, test_per_bootcamp=20,
                                  curriculum=True)
    export(local_cfg)
    summary = export(ray_cfg)
    _assert_same_rows(local_cfg.out, ray_cfg.out)
    assert (ray_cfg.out / "curriculum.json").read_bytes() == (
        local_cfg.out / "curriculum.json").read_bytes()
    assert summary.curriculum is not None
    # one level only, and a split with no rows at all
    toys = make_library(tmp_path / "toys", toy_sum=TOY_SUM, coin=TOY_COIN)
    local_cfg, ray_cfg = _configs(toys, tmp_path / "l", level="hard", test_per_bootcamp=0,
                                  bootcamps=["toy_sum"])
    export(local_cfg)
    summary = export(ray_cfg)
    assert summary.rows == {"train": 300, "test": 0}
    assert list((ray_cfg.out / "test").iterdir()) == []
    _, rows = _ray_rows(ray_cfg.out / "train")
    assert rows == pq.read_table(local_cfg.out / "train.parquet").to_pylist()


def test_a_lost_worker_node_costs_only_time(lib: Library, local_export: tuple[Path, Any],
                                           tmp_path: Path, ray_cluster: LocalRayCluster):
    """The worker node dies (SIGKILL of all its processes) while train rows are being drawn:
    Ray runs its lost tasks again and rebuilds the lost rows from their lineage, and the
    shards are still the local rows. The default config (1440 rows): the kill comes from the
    driver's progress callback, a quarter into the train rows, whatever the export's size."""
    before = pids_with(SERVER_LABEL)
    local_out, _ = local_export
    _, ray_cfg = _configs(lib, tmp_path)
    killed: list[Any] = []

    def progress(label: str, total: int) -> Any:
        done = [0]

        def advance(n: int) -> None:
            done[0] += n
            if label == "train" and not killed and done[0] >= total // 4:
                killed.append(ray_cluster.kill_worker())

        return advance

    try:
        summary = export(ray_cfg, progress)
    finally:
        if killed:
            ray_cluster.restart_worker()
    assert killed, "the export ended before a quarter of its train rows"
    assert killed[0].node_id in summary.task_nodes  # it had run generation tasks
    _assert_same_rows(local_out, ray_cfg.out)
    _assert_nothing_running(ray_cluster, before)


PICKY = TOY_SUM.replace("ToySumBootcamp", "PickyBootcamp").replace(
    '        nums = " ".join(str(x) for x in identity["numbers"])\n',
    '        if sum(identity["numbers"]) % 7 == 3:\n'
    '            raise ValueError(f"cannot render {identity}")\n'
    '        nums = " ".join(str(x) for x in identity["numbers"])\n',
)


def test_a_raising_bootcamp_stops_the_export_and_writes_nothing(tmp_path: Path,
                                                                ray_cluster: LocalRayCluster):
    lib = make_library(tmp_path / "lib", toy_sum=TOY_SUM, picky=PICKY)
    before = pids_with(SERVER_LABEL)
    local_cfg, ray_cfg = _configs(lib, tmp_path, per_bootcamp=2000, test_per_bootcamp=400)
    with pytest.raises(ExportError) as local:
        export(local_cfg)
    t0 = time.monotonic()
    with pytest.raises(ExportError) as info:
        export(ray_cfg)
    assert time.monotonic() - t0 < 60
    # the local export's message: the bootcamp, the first failing row, the exception
    assert str(info.value) == str(local.value)
    assert "bootcamp 'picky' failed on row test[" in str(info.value)
    assert "ValueError: cannot render" in str(info.value)
    assert "prompt_func" in info.value.traceback
    assert not ray_cfg.out.exists()
    _assert_nothing_running(ray_cluster, before)


def test_a_bootcamp_lenient_on_its_rows_is_quarantined_as_in_the_local_export(
        tmp_path: Path, ray_cluster: LocalRayCluster):
    lib = make_library(tmp_path / "lib", toy_sum=TOY_SUM, flagged=TOY_FLAGGED)
    _, ray_cfg = _configs(lib, tmp_path, per_bootcamp=60, test_per_bootcamp=20)
    summary = export(ray_cfg)
    assert list(summary.quarantined) == ["flagged"], summary.quarantined
    assert "corrupted answers score 1.0" in summary.quarantined["flagged"]
    assert summary.spot_checked >= 12  # both bootcamps were audited
    _, rows = _ray_rows(ray_cfg.out / "train")
    assert len(rows) == 60 and {r["data_source"] for r in rows} == {"bootcamp/toy_sum"}
    assert lib.record("flagged").status == "quarantined"
    assert lib.record("toy_sum").status == "accepted"


def test_wrong_format_and_missing_ray_are_clear_errors(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch):
    lib = make_library(tmp_path / "lib", toy_sum=TOY_SUM)
    cfg = ExportConfig(out=tmp_path / "o", library=lib.root, executor="ray")  # jsonl
    with pytest.raises(ValueError, match="pass --format parquet"):
        export(cfg)
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    with pytest.raises(RayUnavailableError, match=r"bootcamp-synth\[ray\].*the ray extra"):
        export(cfg.model_copy(update={"format": "parquet"}))
    assert not cfg.out.exists()


def test_the_cli_exports_on_the_cluster(lib: Library, tmp_path: Path,
                                        ray_cluster: LocalRayCluster):
    """`synth export --executor ray --ray-address ADDR` in a process of its own (a driver that
    connects, exports and disconnects), the same rows as the local CLI export."""
    before = pids_with(SERVER_LABEL)
    common = ["--library", str(lib.root), "--per-bootcamp", "40", "--test-per-bootcamp", "10",
              "--seed", "3", "--format", "parquet", "--sandbox", "process",
              "--bootcamp", "coin", "--bootcamp", "game24"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env |= {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}  # as RAY_ENV
    # the local and the Ray export at once (each its own process and --out)
    procs = [subprocess.Popen([sys.executable, "-c", CLI, "export", "--out", str(out), *common,
                               *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env)
             for out, extra in ((tmp_path / "local", []),
                                (tmp_path / "ray", ["--executor", "ray", "--ray-address",
                                                    ray_cluster.address]))]
    try:
        errs = [proc.communicate(timeout=300)[1] for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    for proc, err in zip(procs, errs, strict=True):
        assert proc.returncode == 0, err[-3000:]
    assert "generation tasks on" in errs[1] and "shards: train" in errs[1], errs[1]
    _assert_same_rows(tmp_path / "local", tmp_path / "ray")
    _assert_nothing_running(ray_cluster, before)
