from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import pytest
from helpers import TOY_CRASHY, TOY_SUM, assert_no_leftovers, make_library, pids_with

from synth.training import reward
from synth.training.reward import (
    RewardDataError,
    RewardFunction,
    TrustedRewardFunction,
    make_compute_score,
)


@pytest.fixture(params=["sandboxed", "trusted"])
def score(request: pytest.FixtureRequest, tmp_path: Path):
    """The documented behaviour holds for the default (sandboxed) and the opt-in (in-process)
    reward alike."""
    make_library(tmp_path, toy_sum=TOY_SUM, crashy=TOY_CRASHY)
    if request.param == "trusted":
        fn = make_compute_score(tmp_path, trust_library_code=True)
    else:
        fn = make_compute_score(tmp_path, backend="process", call_timeout_s=2.0)
    yield fn
    fn.close()


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
    with caplog.at_level(logging.ERROR, logger="synth.training.reward"):
        assert score("bootcamp/crashy", "<answer>boom</answer>", gt) == 0.0
    assert reward.FINDINGS["crashy"] == before + 1
    assert "verifier bug" in caplog.text and "bootcamp/crashy" in caplog.text
    assert score("bootcamp/crashy", "<answer>3</answer>", gt) == 1.0


def test_default_is_sandboxed_and_trust_is_explicit(tmp_path: Path):
    make_library(tmp_path, toy_sum=TOY_SUM)
    assert isinstance(make_compute_score(tmp_path), RewardFunction)
    assert isinstance(make_compute_score(tmp_path, trust_library_code=True), TrustedRewardFunction)
    with pytest.raises(TypeError, match="sandboxed scoring only"):
        make_compute_score(tmp_path, trust_library_code=True, backend="process")


def test_classes_and_pools_are_cached(tmp_path: Path):
    make_library(tmp_path, toy_sum=TOY_SUM)
    gt = json.dumps({"numbers": [1]})
    trusted = make_compute_score(tmp_path, trust_library_code=True)
    trusted("bootcamp/toy_sum", "<answer>1</answer>", gt)
    cls = trusted._classes["toy_sum"]
    trusted("bootcamp/toy_sum", "<answer>1</answer>", gt)
    assert trusted._classes["toy_sum"] is cls
    sandboxed = make_compute_score(tmp_path, backend="process")
    try:
        for _ in range(20):
            assert sandboxed("bootcamp/toy_sum", "<answer>1</answer>", gt) == 1.0
        (pool,) = sandboxed._pools.values()
        assert pool.spawned == 1  # one warm worker served every call
    finally:
        sandboxed.close()


HANGING = TOY_SUM.replace("ToySumBootcamp", "ToyHangBootcamp").replace(
    "        s = solution.strip()\n",
    "        s = solution.strip()\n        while s == 'loop':\n            pass\n",
)


def test_sandboxed_reward_scores_and_bounds_a_hanging_verifier(tmp_path: Path):
    make_library(tmp_path, toy_sum=TOY_SUM, hang=HANGING, crashy=TOY_CRASHY)
    before = pids_with("synth-reward-worker")
    score = make_compute_score(tmp_path, backend="process", call_timeout_s=1.0)
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
        score.close()
    assert_no_leftovers("synth-reward-worker", grace_s=5, before=before)


def test_every_shipped_bootcamp_exports_100_rows_that_its_sandboxed_reward_scores_right(tmp_path: Path):
    """Every shipped bootcamp exported in the sandbox, 100 rows each (80 train, 20 test; the
    engine-backed ones 10 each: a GNU Go row costs self-play, and tests/engines holds their
    200-position acceptance). On every row the default (sandboxed) reward gives the reference
    answer 1.0 and a corrupted answer less (a multi-turn bootcamp's row starts an episode: scored
    as a whole by tests/multiturn), exactly what the bootcamp's own verify_score gives
    in this process; on the first rows of each bootcamp also another row's answer, an empty
    answer and garbage."""
    from synth.bootcamp import MultiTurnBootcamp
    from synth.engines import declared_engines
    from synth.library import Library
    from synth.training.export import ExportConfig, export

    library = Library()
    names = library.list_bootcamps()
    engines = [n for n in names if declared_engines(library.checked_code(n)[1])]
    assert engines and len(engines) < len(names)
    plain = [n for n in names if n not in engines]

    def run(out: str, subs: tuple[str, ...]) -> None:
        configs = {"o": {"per_bootcamp": 80, "test_per_bootcamp": 20, "bootcamps": plain},
                   "e": {"per_bootcamp": 8, "test_per_bootcamp": 2, "bootcamps": engines}}
        for sub in subs:
            export(ExportConfig(out=tmp_path / out / sub, seed=11, sandbox="process", **configs[sub]))

    # exported once: the same seed giving the same bytes is test_cli's export acceptance (two
    # exports compared), and every bootcamp's cases at one seed are the same in two processes
    # under two hash seeds in test_shipped_library (the engine ones: tests/engines/test_gate.py)
    run("first", ("o", "e"))
    rows = [json.loads(line) for sub in ("o", "e") for split in ("train", "test")
            for line in (tmp_path / "first" / sub / f"{split}.jsonl").read_text().splitlines()]
    per = {n: sum(r["extra_info"]["bootcamp"] == n for r in rows) for n in names}
    assert all(per[n] == 100 for n in plain) and all(per[n] == 10 for n in engines), per
    trusted = make_compute_score(trust_library_code=True)
    sandboxed = make_compute_score(backend="process", size=2)
    findings_before = sum(reward.FINDINGS.values())
    try:
        seen: dict[str, list[str]] = {}
        checked = 0
        for row in rows:
            ds, gt = row["data_source"], row["reward_model"]["ground_truth"]
            cls = trusted.bootcamp(ds)
            ref = cls.reference_answer(json.loads(gt))
            others = seen.setdefault(ds, [])
            # "1", not "0": a trailing or leading zero on "0" is the same integer to a verifier
            # that compares values
            corrupted = next(c for c in (ref + "1", ref[::-1], ref[:-1], "1" + ref) if c != ref)
            # a multi-turn bootcamp's row is an episode's start (its reward: tests/multiturn);
            # one response is scored as what it is, and only compared here
            episode = issubclass(cls, MultiTurnBootcamp)
            responses: list[tuple[str, float | None]] = [
                (cls.wrap_answer(ref), None if episode else 1.0), (cls.wrap_answer(corrupted), None)]
            if len(others) < 10:  # the first rows of each bootcamp: more kinds of answers
                responses += [(r, None) for r in ("", "<answer></answer>", ref,
                                                  cls.wrap_answer(ref[::-1]))]
                if others:
                    responses.append((cls.wrap_answer(others[-1]), None))
            others.append(ref)
            for k, (response, want) in enumerate(responses):
                expected = cls.verify_score(response, json.loads(gt))
                got = sandboxed(ds, response, gt, row["extra_info"])
                assert got == expected and type(got) is float, (ds, response, gt)
                if want is not None:
                    assert got == want, (ds, response, gt)
                if k == 1 and not episode:  # the corrupted answer scores less than the reference
                    assert got < 1.0, (ds, response, gt)
                checked += 1
        assert checked >= 2 * len(rows)
        assert sum(reward.FINDINGS.values()) == findings_before
    finally:
        sandboxed.close()
