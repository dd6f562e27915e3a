"""synth.training.datasets: reasoning-gym-style datasets over the shipped library, drawn in the sandbox.

Identical items in two processes with different hash seeds; ``score_answer`` agrees with the
bootcamp's own ``verify_score`` (imported here only as the test's independent oracle) on 1,000
items, reference answers and wrong ones; the composite mix is reproducible and follows its
weights."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from synth.library import Library
from synth.training.datasets import BootcampDataset, CompositeDataset

DUMP = """
import json, sys
from synth.training.datasets import BootcampDataset, CompositeDataset
ds = BootcampDataset("game24", size=30, seed=5, backend="process")
mix = CompositeDataset({"game24": 1.0, "cipher": 2.0}, size=20, seed=3, backend="process")
sys.stdout.write(json.dumps([ds[i] for i in range(len(ds))] + [mix[i] for i in range(len(mix))]))
"""


def _dump(hashseed: str) -> list:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    res = subprocess.run([sys.executable, "-c", DUMP], capture_output=True, text=True, env=env,
                         timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout)


def test_items_are_identical_across_processes_and_hash_seeds():
    first, second = _dump("1"), _dump("4242")
    assert first == second and len(first) == 50
    assert all(set(e) == {"question", "answer", "metadata"} for e in first)
    assert [e["metadata"]["index"] for e in first[:30]] == list(range(30))
    assert len({e["question"] for e in first[:30]}) > 20  # not one item repeated


def test_levels_round_robin_or_one_level_and_an_unknown_level_is_refused():
    ds = BootcampDataset("sudoku", size=6, seed=0, backend="process")
    levels = Library().load_bootcamp("sudoku").LEVELS
    assert [e["metadata"]["level"] for e in ds] == [list(levels)[i % len(levels)] for i in range(6)]
    easy = BootcampDataset("sudoku", size=4, seed=0, level="easy", backend="process")
    assert {e["metadata"]["level"] for e in easy} == {"easy"}
    with pytest.raises(KeyError, match="no level 'nightmare'"):
        BootcampDataset("sudoku", size=2, level="nightmare", backend="process")


@pytest.mark.parametrize("name", ["game24", "cipher", "interval_cover", "knights_knaves"])
def test_score_answer_agrees_with_verify_score(name):
    """250 items per bootcamp (1,000 in all): the reference answer, and a wrong one, each scored
    by score_answer (sandboxed) and by the class's verify_score in this process."""
    cls = Library().load_bootcamp(name)
    ds = BootcampDataset(name, size=250, seed=11, backend="process")
    try:
        for i, entry in enumerate(ds):
            identity = entry["metadata"]["identity"]
            answer = entry["answer"] if i % 2 == 0 else "definitely not the answer 0"
            want = cls.verify_score(cls.wrap_answer(answer), identity)
            assert ds.score_answer(answer, entry) == want, (i, answer)
        assert ds.score_answer(None, ds[0]) == 0.0
    finally:
        ds.close()


def test_composite_mixes_by_weight_reproducibly():
    a = CompositeDataset({"game24": 3.0, "cipher": 1.0}, size=200, seed=9, backend="process")
    b = CompositeDataset({"game24": 3.0, "cipher": 1.0}, size=200, seed=9, backend="process")
    try:
        assert [a[i] for i in range(200)] == [b[i] for i in range(200)]
        counts = Counter(a[i]["metadata"]["bootcamp"] for i in range(200))
        assert 120 <= counts["game24"] <= 180 and counts["game24"] + counts["cipher"] == 200
        entry = next(a[i] for i in range(200) if a[i]["metadata"]["bootcamp"] == "cipher")
        assert a.score_answer(entry["answer"], entry) == 1.0
    finally:
        a.close()
        b.close()
    with pytest.raises(ValueError):
        CompositeDataset({"game24": 0.0})


def test_curriculum_orders_easy_to_hard_by_measured_rates_else_by_levels():
    """The generated bootcamp has measured per-level pass rates (easy 1.0 or 0.5, harder 0.0);
    the hand-written one has none, so its LEVELS order stands in. Items come easy to hard, and
    each says what its level's rate rests on."""
    from synth.training.curriculum import level_difficulty
    from synth.training.datasets import CurriculumDataset

    generated = "codecontests_16_f_bulbs_without_long_glows"
    cur = CurriculumDataset([generated, "sudoku"], size_per_bootcamp=9, seed=4, backend="process")
    try:
        hard = [cur[i]["metadata"]["curriculum"]["hardness"] for i in range(len(cur))]
        assert len(cur) == 18 and hard == sorted(hard)
        rec = Library().record(generated)
        counts = getattr(rec, "level_samples", None) or {}
        for i in range(len(cur)):
            meta = cur[i]["metadata"]
            c = meta["curriculum"]
            if meta["bootcamp"] == generated:
                want = rec.level_pass_rates[meta["level"]]
                assert c["pass_rate"] == want and c["hardness"] == pytest.approx(1 - want)
                assert c["basis"] in ("measured", "calibrated")
                assert c["rate_samples"] == counts.get(meta["level"])
            else:
                assert c["basis"] == "levels_order" and c["pass_rate"] is None
                assert c["rate_samples"] is None
        sudoku = [cur[i]["metadata"]["level"] for i in range(len(cur))
                  if cur[i]["metadata"]["bootcamp"] == "sudoku"]
        order = list(Library().load_bootcamp("sudoku").LEVELS)
        assert [order.index(lv) for lv in sudoku] == sorted(order.index(lv) for lv in sudoku)
        assert {(d.bootcamp, d.level) for d in cur.levels} >= {("sudoku", lv) for lv in order}
        first = cur[0]
        assert cur.score_answer(first["answer"], first) == 1.0
    finally:
        cur.close()
    d = level_difficulty(None, "hard", ["easy", "medium", "hard"])
    assert (d.hardness, d.basis, d.samples) == (pytest.approx(2.5 / 3), "levels_order", None)
