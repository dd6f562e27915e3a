"""synth.integrations.ray_reward on the real two-node local cluster: the pool's scores are
compute_score's, row by row, on exported rows of the shipped library and on dataset items with
right, wrong and garbage responses; its actors run on both nodes; a raising or hanging verifier
is the same finding, and broken data the same error, as with compute_score; closing leaves no
actor or sandbox process; a worker node killed while the pool scores costs nothing but time.

The shipped library's classes are imported here only to make answers (reference_answer,
wrap_answer); every score under test comes from the sandbox."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import logging
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from cluster import LocalRayCluster, alive, descendants
from helpers import library_sample

from synth.integrations import ray_reward
from synth.integrations.ray_reward import (
    RewardPool,
    close_default_pool,
    compute_score_batch,
)
from synth.library import Library
from synth.training import reward
from synth.training.datasets import BootcampDataset
from synth.training.export import ExportConfig, export
from synth.training.reward import RewardDataError, compute_score, make_compute_score

GARBAGE = ["", "no idea", "<answer>", "<answer></answer>", "\x00\udcff<answer>é</answer>",
           "x" * 20_000]


def _responses(rows: list[dict[str, Any]]) -> list[tuple[str, Any, str, Any]]:
    """(data_source, response, ground_truth, extra_info) per response: the right answer, two
    corruptions of it, the previous row's answer, garbage, and a response that is no text."""
    lib = Library()
    out: list[tuple[str, Any, str, Any]] = []
    previous: dict[str, str] = {}
    for i, row in enumerate(rows):
        ds, gt, extra = row["data_source"], row["ground_truth"], row.get("extra_info")
        cls = lib.load_bootcamp(ds.split("/", 1)[1])
        ref = row.get("answer") or cls.reference_answer(json.loads(gt))
        candidates: list[Any] = [cls.wrap_answer(ref), cls.wrap_answer(ref + "0"),
                                 cls.wrap_answer(ref[::-1]), GARBAGE[i % len(GARBAGE)]]
        if ds in previous:
            candidates.append(cls.wrap_answer(previous[ds]))
        if i % 7 == 0:
            candidates.append(None)
        previous[ds] = ref
        out.extend((ds, c, gt, extra) for c in candidates)
    return out


@pytest.fixture(scope="module")
def shipped_rows(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Exported rows of the library's sample (every hand-written bootcamp, the engine-backed
    ones included, and the first generated one of each source: tests/helpers.py), in verl's
    shape, and dataset items with the answers the dataset gives. 10 rows a bootcamp (8 train,
    2 test), but 3 (2 and 1) of an engine-backed one (go_move, go_game): it draws each case and
    scores each answer by engine play, about a second a row, and 3 rows still give it every
    kind of response of :func:`_responses` (the previous row's answer included)."""
    lib = Library()
    names = library_sample(engines=True)
    engine_backed = [n for n in names if lib.record(n).engines]
    rows = []
    for part, per_bootcamp, test_per_bootcamp in (
            ([n for n in names if n not in engine_backed], 8, 2), (engine_backed, 2, 1)):
        if not part:
            continue
        out = tmp_path_factory.mktemp("export")
        export(ExportConfig(out=out, per_bootcamp=per_bootcamp, test_per_bootcamp=test_per_bootcamp,
                            seed=23, sandbox="process", bootcamps=part))
        for split in ("train", "test"):
            for line in (out / f"{split}.jsonl").read_text().splitlines():
                row = json.loads(line)
                rows.append({"data_source": row["data_source"], "extra_info": row["extra_info"],
                             "ground_truth": row["reward_model"]["ground_truth"]})
    for name in ("game24", "sudoku"):
        for item in BootcampDataset(name, size=4, seed=5, backend="process"):
            rows.append({"data_source": f"bootcamp/{name}", "answer": item["answer"],
                         "ground_truth": json.dumps(item["metadata"]["identity"])})
    assert len({r["data_source"] for r in rows}) == len(names) >= 8
    return rows


def _episodes(rows: list[dict[str, Any]]) -> list[tuple[str, Any, str, Any]]:
    """Whole Mastermind episodes as a trainer decodes them (the reference policy's turns with
    the environment's observations between them): each scores as the finished game, 1.0."""
    from synth.serving.rollout import EpisodeEnv, reference_episode

    out = []
    with EpisodeEnv.from_library("mastermind", backend="process") as env:
        for row in [r for r in rows if r["data_source"] == "bootcamp/mastermind"][:4]:
            ep = reference_episode(env, row["ground_truth"])
            text = "".join(f"{t.response}\n\n{nxt.observation}\n\n"
                           for t, nxt in zip(ep.turns, ep.turns[1:], strict=False))
            out.append((row["data_source"], text + ep.turns[-1].response, row["ground_truth"],
                        row.get("extra_info")))
    assert out and all(len(r[1]) > 200 for r in out)
    return out


def test_pool_scores_equal_compute_score_row_by_row(ray_cluster: LocalRayCluster, shipped_rows):
    batch = _responses(shipped_rows)
    episodes = _episodes(shipped_rows)
    batch += episodes
    columns = [list(col) for col in zip(*batch, strict=True)]
    findings_before = sum(reward.FINDINGS.values())

    t0 = time.perf_counter()
    expected = [compute_score(*row) for row in batch]  # the default reward, in this process
    direct_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    warm = [compute_score(*row) for row in batch]
    direct_warm_s = time.perf_counter() - t0
    assert warm == expected

    t0 = time.perf_counter()
    with RewardPool(num_actors=2) as pool:  # the default options, in two actors
        start_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        got = pool.score_many(*columns)
        pool_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        again = pool.score([{"data_source": ds, "solution_str": s,
                             "reward_model": {"style": "rule", "ground_truth": gt},
                             "extra_info": extra} for ds, s, gt, extra in batch])
        pool_warm_s = time.perf_counter() - t0
        verl_style = pool(data_sources=columns[0], solution_strs=columns[1],
                          ground_truths=columns[2], extra_infos=columns[3])
        nodes = pool.node_ids
        assert not pool.findings
    for row, want, have in zip(batch, expected, got, strict=True):
        assert have == want and type(have) is float, row[:2]
    assert again == got == verl_style
    assert got[-len(episodes):] == [1.0] * len(episodes)  # multi-turn rows: the whole episode
    # one actor on each node of the cluster
    assert sorted(nodes) == sorted([ray_cluster.head.node_id, ray_cluster.worker.node_id])
    # right answers score 1.0 (one per row), the rest mostly 0.0; nothing was a finding
    assert got.count(1.0) >= len(shipped_rows) and got.count(0.0) >= 3 * len(shipped_rows)
    assert sum(reward.FINDINGS.values()) == findings_before
    print(f"\n{len(batch)} responses: compute_score {direct_s:.2f}s cold, {direct_warm_s:.2f}s "
          f"warm; RewardPool(2 actors) start {start_s:.2f}s, {pool_s:.2f}s cold, "
          f"{pool_warm_s:.2f}s warm")


RAISES = '''"""Test fixture of synth's Ray tests: a bootcamp whose verifier raises on 'boom' and
spins forever on 'spin'."""
from synth.bootcamp import BaseBootcamp


class BrittleBootcamp(BaseBootcamp):
    LEVELS = {"easy": {}}

    def case_generator(self):
        return {"n": self.rng.randint(1, 999)}

    @staticmethod
    def prompt_func(identity):
        return f"Write {identity['n']} in <answer></answer> tags."

    @classmethod
    def reference_answer(cls, identity):
        return str(identity["n"])

    @classmethod
    def _verify_correction(cls, solution, identity):
        if solution == "boom":
            raise ZeroDivisionError("the brittle verifier divided by zero")
        while solution == "spin":
            pass
        return solution.strip() == str(identity["n"])
'''


def _brittle_library(root: Path) -> Path:
    lib = Library(root)
    lib.commit(name="brittle", code=RAISES, class_name="BrittleBootcamp", source="tests",
               task_id="tests/brittle", origin="handwritten")
    return root


def test_findings_and_errors_are_compute_scores(ray_cluster: LocalRayCluster, tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture):
    library = _brittle_library(tmp_path / "lib")
    ds, gt = "bootcamp/brittle", json.dumps({"n": 7})
    responses = ["<answer>7</answer>", "<answer>boom</answer>", "<answer>8</answer>",
                 "<answer>spin</answer>", None, "<answer>boom</answer>", "<answer>7</answer>"]
    options: dict[str, Any] = {"backend": "process", "call_timeout_s": 1.0}

    direct = make_compute_score(library, **options)
    try:
        before = reward.FINDINGS["brittle"]
        with caplog.at_level(logging.ERROR, logger="synth.training.reward"):
            expected = [direct(ds, r, gt) for r in responses]
        direct_findings = reward.FINDINGS["brittle"] - before
        direct_log = caplog.text
        with pytest.raises(RewardDataError) as direct_unknown:
            direct("bootcamp/nope", "<answer>1</answer>", gt)
        with pytest.raises(RewardDataError) as direct_bad_truth:
            direct(ds, "<answer>1</answer>", "{not json")
    finally:
        direct.close()
    assert expected == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0] and direct_findings == 3
    assert "the brittle verifier divided by zero" in direct_log and "timeout" in direct_log

    caplog.clear()
    with RewardPool(library, num_actors=2, batch_rows=2, **options) as pool:
        before = reward.FINDINGS["brittle"]
        with caplog.at_level(logging.ERROR, logger="synth.training.reward"):
            got = pool.score_many([ds] * len(responses), responses, [gt] * len(responses))
        assert got == expected
        # the same findings, counted in this process, logged here with the actor's evidence
        assert reward.FINDINGS["brittle"] - before == direct_findings
        assert [f.row for f in pool.findings] == [1, 3, 5]
        assert {f.node_id for f in pool.findings} <= set(pool.node_ids)
        boom = pool.findings[0].message
        assert "the brittle verifier divided by zero" in boom and "<answer>boom" in boom
        assert "ZeroDivisionError" in boom  # the traceback tail
        assert "timeout" in pool.findings[1].message
        assert "the brittle verifier divided by zero" in caplog.text and "row 5" in caplog.text
        # broken data: compute_score's error, its message, and the row it is in
        with pytest.raises(RewardDataError) as unknown:
            pool.score_many([ds, "bootcamp/nope"], ["<answer>7</answer>", "<answer>1</answer>"],
                            [gt, gt])
        assert str(unknown.value) == str(direct_unknown.value)
        assert "row 1 of the batch of 2" in "".join(unknown.value.__notes__)
        with pytest.raises(RewardDataError) as bad_truth:
            pool.score([{"data_source": ds, "solution_str": "<answer>1</answer>",
                         "ground_truth": "{not json"}])
        assert str(bad_truth.value) == str(direct_bad_truth.value)
        with pytest.raises(RewardDataError, match="neither ground_truth"):
            pool.score([{"data_source": ds, "solution_str": "x"}])
        with pytest.raises(ValueError, match="one value per row"):
            pool.score_many([ds], ["a", "b"], [gt])
        assert pool.score_many([], [], []) == []
        assert pool.score_many([ds], ["<answer>7</answer>"], [gt]) == [1.0]  # still serving


def test_close_leaves_no_actor_or_sandbox_process(ray_cluster: LocalRayCluster, tmp_path: Path):
    library = _brittle_library(tmp_path / "lib")
    gt = json.dumps({"n": 3})
    pool = RewardPool(library, num_actors=2, size=2, backend="process")
    try:
        assert pool.score_many(["bootcamp/brittle"] * 8, ["<answer>3</answer>"] * 8,
                               [gt] * 8) == [1.0] * 8
        actors = set(pool.actor_pids)
        sandboxes = descendants(actors)
        assert len(actors) == 2 and len(sandboxes) >= 2  # each actor started its workers
    finally:
        pool.close()
    pool.close()  # idempotent
    deadline = time.monotonic() + 20
    while alive(actors | sandboxes) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(actors | sandboxes)
    with pytest.raises(RuntimeError, match="closed"):
        pool.score_many([], [], [])


def test_compute_score_batch_is_verls_batch_reward(ray_cluster: LocalRayCluster, tmp_path: Path):
    library = str(_brittle_library(tmp_path / "lib"))
    gt = json.dumps({"n": 5})
    try:
        scores = compute_score_batch(
            data_sources=["bootcamp/brittle"] * 3,
            solution_strs=["<answer>5</answer>", "<answer>4</answer>", "<answer>5</answer>"],
            ground_truths=[gt] * 3, extra_infos=[{}, {}, {}],
            library=library, num_actors=1, backend="process")
        assert scores == [1.0, 0.0, 1.0]
        # verl loads a custom reward function from its file, as a module of another name:
        # the function still scores on the one default pool
        spec = importlib.util.spec_from_file_location("custom_module", ray_reward.__file__)
        assert spec is not None and spec.loader is not None
        by_path = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(by_path)
        assert by_path.compute_score_batch(
            ["bootcamp/brittle"], ["<answer>5</answer>"], [gt], None,
            library=library, num_actors=1, backend="process") == [1.0]
        assert by_path._DEFAULT is None and ray_reward._DEFAULT is not None
        with pytest.raises(ValueError, match="default reward pool was started with"):
            compute_score_batch(["bootcamp/brittle"], ["x"], [gt], library=library,
                                num_actors=2, backend="process")
    finally:
        close_default_pool()


SLOW = RAISES.replace("BrittleBootcamp", "SlowBootcamp").replace(
    "        while solution == \"spin\":\n            pass\n",
    "        sum(i * i for i in range(300_000))  # ~20 ms of work per answer\n")


def _sandboxes_of(pid: int) -> set[int]:
    """The warm sandboxed reward workers below process ``pid``."""
    found = set()
    for child in descendants({pid}):
        with contextlib.suppress(OSError):
            if b"synth-reward-worker" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
    return found


def test_a_worker_node_lost_while_scoring_costs_only_time(ray_cluster: LocalRayCluster,
                                                          tmp_path: Path):
    lib = Library(tmp_path / "lib")
    lib.commit(name="slow", code=SLOW, class_name="SlowBootcamp", source="tests",
               task_id="tests/slow", origin="handwritten")
    n = 120
    gts = [json.dumps({"n": i}) for i in range(n)]
    answers = [f"<answer>{i if i % 3 else i + 1}</answer>" for i in range(n)]
    direct = make_compute_score(lib.root, backend="process")
    try:
        expected = [direct("bootcamp/slow", a, g) for a, g in zip(answers, gts, strict=True)]
    finally:
        direct.close()

    pool = RewardPool(lib.root, num_actors=2, backend="process", batch_rows=4)
    try:
        worker = ray_cluster.worker
        (on_worker,) = [pid for pid, node in zip(pool.actor_pids, pool.node_ids, strict=True)
                        if node == worker.node_id]
        result: dict[str, Any] = {}

        def run() -> None:
            try:
                result["scores"] = pool.score_many(["bootcamp/slow"] * n, answers, gts)
            except BaseException as exc:
                result["error"] = exc

        thread = threading.Thread(target=run)
        thread.start()
        # until the worker node's actor scores: a warm sandbox worker of it seen three polls
        # running (the backend's probe may come and go first)
        sandboxes: set[int] = set()
        steady = 0
        deadline = time.monotonic() + 60
        while steady < 3 and time.monotonic() < deadline:
            now = _sandboxes_of(on_worker)
            steady = steady + 1 if now and now & sandboxes else 0
            sandboxes |= now
            time.sleep(0.02)
        assert steady == 3 and thread.is_alive(), "the worker node's actor never scored"
        t0 = time.monotonic()
        ray_cluster.kill_worker()
        thread.join(timeout=120)
        assert not thread.is_alive()
        assert "error" not in result, result.get("error")
        assert result["scores"] == expected  # every row, once, rescored where it was lost
        assert pool.lost_actors == 1 and pool.node_ids == [ray_cluster.head.node_id]
        recovered_s = time.monotonic() - t0
        gone = time.monotonic() + 20
        while alive(sandboxes | {on_worker}) and time.monotonic() < gone:
            time.sleep(0.1)
        assert not alive(sandboxes | {on_worker})  # the lost node's sandboxes exited with it

        # a new worker node: the replacement actor the pool started is placed there and serves
        new = ray_cluster.restart_worker()
        deadline = time.monotonic() + 60
        while new.node_id not in pool.node_ids and time.monotonic() < deadline:
            assert pool.score_many(["bootcamp/slow"], answers[1:2], gts[1:2]) == expected[1:2]
            time.sleep(0.2)
        assert sorted(pool.node_ids) == sorted([ray_cluster.head.node_id, new.node_id])
        assert pool.score_many(["bootcamp/slow"] * 8, answers[:8], gts[:8]) == expected[:8]
        print(f"\nworker node killed mid-batch: the batch completed {recovered_s:.1f}s later")
    finally:
        pool.close()
        if not any(node.role == "worker" for node in ray_cluster.nodes):
            ray_cluster.restart_worker()


def test_import_needs_no_ray_and_a_missing_ray_names_the_extra():
    code = """
import sys
import synth.integrations.ray_reward as rr
assert "ray" not in sys.modules, "importing the module imported ray"
sys.modules["ray"] = None  # as if the extra were not installed
try:
    rr.RewardPool()
except rr.RayUnavailableError as exc:
    print("ERR", exc)
"""
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    assert "pip install 'bootcamp-synth[ray]'" in res.stdout and "ray extra" in res.stdout
