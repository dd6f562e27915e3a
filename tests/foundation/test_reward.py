from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import pytest
from helpers import TOY_CRASHY, TOY_SUM, assert_no_leftovers, make_library, pids_with

from synth import reward
from synth.reward import RewardDataError, make_compute_score


@pytest.fixture
def score(tmp_path: Path):
    make_library(tmp_path, toy_sum=TOY_SUM, crashy=TOY_CRASHY)
    return make_compute_score(tmp_path)


def test_reference_scores_one_and_garbage_zero(score):
    gt = json.dumps({"numbers": [1, 2, 3]})
    assert score("bootcamp/toy_sum", "<answer>6</answer>", gt) == 1.0
    assert score("bootcamp/toy_sum", "<answer>6</answer>", {"numbers": [1, 2, 3]}) == 1.0
    for garbage in ["", "6", "<answer>7</answer>", "<answer>" * 1000, "\x00\udcff", "x" * 10**6]:
        assert score("bootcamp/toy_sum", garbage, gt) == 0.0
    for not_text in [None, 6, b"<answer>6</answer>", ["<answer>6</answer>"]]:
        assert score("bootcamp/toy_sum", not_text, gt) == 0.0


def test_unknown_data_source_names_it(score):
    gt = json.dumps({"numbers": [1]})
    with pytest.raises(RewardDataError, match="bootcamp/nope"):
        score("bootcamp/nope", "<answer>1</answer>", gt)
    with pytest.raises(RewardDataError, match="openai/gsm8k"):
        score("openai/gsm8k", "<answer>1</answer>", gt)


def test_bad_ground_truth_names_it(score):
    with pytest.raises(RewardDataError, match="not JSON"):
        score("bootcamp/toy_sum", "<answer>1</answer>", "{not json")
    with pytest.raises(RewardDataError, match="not a JSON object"):
        score("bootcamp/toy_sum", "<answer>1</answer>", "[1, 2]")


def test_verifier_exception_is_reported_not_raised(score, caplog):
    before = reward.FINDINGS["crashy"]
    gt = json.dumps({"numbers": [1, 2]})
    with caplog.at_level(logging.ERROR, logger="synth.reward"):
        assert score("bootcamp/crashy", "<answer>boom</answer>", gt) == 0.0
    assert reward.FINDINGS["crashy"] == before + 1
    assert "verifier bug" in caplog.text and "bootcamp/crashy" in caplog.text
    assert score("bootcamp/crashy", "<answer>3</answer>", gt) == 1.0


def test_classes_are_cached(score):
    gt = json.dumps({"numbers": [1]})
    score("bootcamp/toy_sum", "<answer>1</answer>", gt)
    cls = score._classes["toy_sum"]
    score("bootcamp/toy_sum", "<answer>1</answer>", gt)
    assert score._classes["toy_sum"] is cls


HANGING = TOY_SUM.replace("ToySumBootcamp", "ToyHangBootcamp").replace(
    "        s = solution.strip()\n",
    "        s = solution.strip()\n        while s == 'loop':\n            pass\n",
)


def test_sandboxed_reward_scores_and_bounds_a_hanging_verifier(tmp_path: Path):
    make_library(tmp_path, toy_sum=TOY_SUM, hang=HANGING, crashy=TOY_CRASHY)
    before = pids_with("_synth_worker.py")
    score = make_compute_score(tmp_path, sandboxed=True, backend="process", call_timeout_s=1.0)
    try:
        gt = json.dumps({"numbers": [1, 2, 3]})
        assert score("bootcamp/toy_sum", "<answer>6</answer>", gt) == 1.0
        assert score("bootcamp/toy_sum", "<answer>7</answer>", gt) == 0.0
        assert score("bootcamp/toy_sum", "x" * 1_000_000, gt) == 0.0
        hangs_before = reward.FINDINGS["hang"]
        t0 = time.monotonic()
        assert score("bootcamp/hang", "<answer>loop</answer>", gt) == 0.0
        assert time.monotonic() - t0 < 10
        assert reward.FINDINGS["hang"] == hangs_before + 1
        assert score("bootcamp/hang", "<answer>6</answer>", gt) == 1.0  # respawned worker
        crashes_before = reward.FINDINGS["crashy"]
        assert score("bootcamp/crashy", "<answer>boom</answer>", gt) == 0.0
        assert reward.FINDINGS["crashy"] == crashes_before + 1
        with pytest.raises(RewardDataError, match="bootcamp/nope"):
            score("bootcamp/nope", "<answer>1</answer>", gt)
    finally:
        score.close()  # type: ignore[attr-defined]
    assert_no_leftovers("_synth_worker.py", grace_s=5, before=before)
