"""Parsing a row's ground truth (synth.training.reward): the documented RewardDataError for any nesting
depth, for NaN and Infinity anywhere, and for text UTF-8 cannot encode -- for the sandboxed and
the in-process reward alike -- while every ground truth export can write still scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import TOY_SUM, make_library

from synth.training.reward import RewardDataError, make_compute_score

#: a key the toy bootcamp ignores: the nesting goes there
SOURCE = "bootcamp/toy_sum"
ANSWER = "<answer>6</answer>"


@pytest.fixture(scope="module", params=["sandboxed", "trusted"])
def score(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("lib")
    make_library(root, toy_sum=TOY_SUM)
    if request.param == "trusted":
        fn = make_compute_score(root, trust_library_code=True)
    else:
        fn = make_compute_score(root, backend="process", call_timeout_s=2.0)
    yield fn
    fn.close()


def nested(depth: int, kind: str) -> str:
    """A ground truth whose ``deep`` field is ``depth`` levels deep (lists or objects)."""
    inner = "[" * depth + "1" + "]" * depth if kind == "list" else '{"a":' * depth + "1" + "}" * depth
    return '{"numbers": [1, 2, 3], "deep": ' + inner + "}"


@pytest.mark.parametrize("depth", [201, 1_000, 5_000, 100_000, 1_000_000])
@pytest.mark.parametrize("kind", ["list", "object"])
def test_any_depth_is_the_documented_error(score, depth: int, kind: str):
    with pytest.raises(RewardDataError, match="ground_truth for 'bootcamp/toy_sum'"):
        score(SOURCE, ANSWER, nested(depth, kind))


@pytest.mark.parametrize("depth", [1, 50, 198])
@pytest.mark.parametrize("kind", ["list", "object"])
def test_depths_export_can_write_still_score(score, depth: int, kind: str):
    assert score(SOURCE, ANSWER, nested(depth, kind)) == 1.0


def test_a_deep_dict_ground_truth_is_the_documented_error(score):
    deep: dict = {}
    inner = deep
    for _ in range(100_000):
        inner["a"] = {}
        inner = inner["a"]
    with pytest.raises(RewardDataError, match="nested too deeply"):
        score(SOURCE, ANSWER, {"numbers": [1, 2, 3], "deep": deep})


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e999", "-1e999"])
@pytest.mark.parametrize("where", ["{{\"numbers\": [1, 2, 3], \"x\": {c}}}",
                                   "{{\"numbers\": [1, 2, {c}]}}",
                                   "{{\"numbers\": [1, 2, 3], \"x\": [[{{\"y\": {c}}}]]}}"])
def test_nan_and_infinity_are_refused_anywhere(score, constant: str, where: str):
    text = where.format(c=constant)
    with pytest.raises(RewardDataError, match="ground_truth for 'bootcamp/toy_sum'"):
        score(SOURCE, ANSWER, text)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_nan_in_a_dict_ground_truth_is_refused(score, value: float):
    with pytest.raises(RewardDataError, match="not plain JSON"):
        score(SOURCE, ANSWER, {"numbers": [1, 2, 3], "x": [value]})


@pytest.mark.parametrize("text", ['{"numbers": [1, 2, 3], "t": "\\ud800"}',
                                  '{"numbers": [1, 2, 3], "\\udfff": 1}',
                                  '{"numbers": [1, 2, 3], "t": ["ok", "x\\udc00y"]}'])
def test_text_utf8_cannot_encode_is_refused(score, text: str):
    with pytest.raises(RewardDataError, match=r"U\+D"):
        score(SOURCE, ANSWER, text)


def test_what_export_writes_scores(score):
    truth = json.dumps({"numbers": [1, 2, 3], "t": "é中🙂", "f": 0.5, "big": 2 ** 70},
                       sort_keys=True, ensure_ascii=False)
    assert score(SOURCE, ANSWER, truth) == 1.0
    assert score(SOURCE, ANSWER, json.loads(truth)) == 1.0


def test_the_error_is_one_bounded_line(score, tmp_path: Path):
    with pytest.raises(RewardDataError) as info:
        score(SOURCE, ANSWER, nested(300, "object"))
    assert len(str(info.value)) < 500 and "\n" not in str(info.value)
