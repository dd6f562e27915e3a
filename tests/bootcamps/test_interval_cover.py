"""Tests of the hand-written seed bootcamp ``generated_bootcamps/handwritten/interval_cover.py``
and its standalone reference program ``generated_bootcamps/handwritten/reference/interval_cover.py``.
"""

from __future__ import annotations

import itertools
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import cases_in_subprocess

from generated_bootcamps.handwritten.interval_cover import IntervalCoverBootcamp as Camp

REFERENCE_PROGRAM = (
    Path(__file__).resolve().parents[2]
    / "generated_bootcamps"
    / "handwritten"
    / "reference"
    / "interval_cover.py"
)
LEVELS = list(Camp.LEVELS)
N_CASES = 200


def _cases(level: str, seed: int = 7, n: int = N_CASES) -> list[dict[str, Any]]:
    camp = Camp.from_level(level, seed=seed)
    return [camp.case_generator() for _ in range(n)]


def _score(answer: str, case: dict[str, Any]) -> float:
    return Camp.verify_score(Camp.wrap_answer(answer), case)


def _run_reference(stdin: str) -> str:
    run = subprocess.run(
        [sys.executable, str(REFERENCE_PROGRAM)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return run.stdout


def _brute_force(m: int, intervals: list[list[int]]) -> int:
    """Smallest subset whose union covers [0, m], by trying every subset (tiny cases only)."""
    for size in range(1, len(intervals) + 1):
        for subset in itertools.combinations(intervals, size):
            reach = 0
            for left, right in sorted(subset):
                if left > reach:
                    break
                reach = max(reach, right)
            if reach >= m:
                return size
    return -1


@pytest.fixture(scope="module")
def cases() -> dict[str, list[dict[str, Any]]]:
    return {level: _cases(level) for level in LEVELS}


# --- the oracle: the standalone reference program -------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_reference_program_agrees_on_200_cases(
    cases: dict[str, list[dict[str, Any]]], level: str
) -> None:
    # The program reads concatenated test cases, so one process checks the whole level.
    stdout = _run_reference("".join(Camp.render_stdin(case) for case in cases[level]))
    lines = stdout.split("\n")
    assert lines[-1] == "" and len(lines) == N_CASES + 1
    for case, line in zip(cases[level], lines, strict=False):
        assert line == Camp.reference_answer(case)
        assert _score(line.strip(), case) == 1.0


def test_reference_program_on_single_cases(cases: dict[str, list[dict[str, Any]]]) -> None:
    for level in LEVELS:
        case = cases[level][0]
        assert _run_reference(Camp.render_stdin(case)) == Camp.reference_answer(case) + "\n"


def test_reference_answer_matches_brute_force(cases: dict[str, list[dict[str, Any]]]) -> None:
    for case in cases["easy"]:
        assert int(Camp.reference_answer(case)) == _brute_force(case["m"], case["intervals"])


@pytest.mark.parametrize(
    ("m", "intervals", "expected"),
    [
        ([5, [[0, 2], [2, 5]], 2]),  # touching intervals join up
        ([5, [[0, 2], [3, 5]], -1]),  # a real gap (2, 3), though all integers are covered
        ([5, [[1, 5], [2, 3]], -1]),  # nothing starts at 0
        ([5, [[0, 4], [1, 3]], -1]),  # nothing reaches M
        ([9, [[0, 3], [0, 9], [3, 9]], 1]),  # one interval covers everything
        ([10, [[0, 4], [3, 7], [6, 10], [2, 10], [0, 1]], 2]),  # [2, 10], not [3, 7]
        ([10, [[0, 3], [0, 3], [3, 10], [3, 10]], 2]),  # repeated intervals
        ([1, [[0, 1]], 1]),
    ],
)
def test_hand_made_cases(m: int, intervals: list[list[int]], expected: int) -> None:
    case = {"m": m, "intervals": intervals}
    assert Camp.reference_answer(case) == str(expected)
    assert _brute_force(m, intervals) == expected
    assert _run_reference(Camp.render_stdin(case)) == f"{expected}\n"


def test_render_stdin_format() -> None:
    case = {"m": 10, "intervals": [[0, 4], [3, 10]]}
    assert Camp.render_stdin(case) == "2 10\n0 4\n3 10\n"
    prompt = Camp.prompt_func(case)
    assert "2 10\n0 4\n3 10\n" in prompt
    assert "The first line contains two integers n and M" in prompt


@pytest.mark.parametrize("level", LEVELS)
def test_generated_cases_are_valid(cases: dict[str, list[dict[str, Any]]], level: str) -> None:
    params = Camp.LEVELS[level]
    for case in cases[level]:
        m, intervals = case["m"], case["intervals"]
        assert params["min_length"] <= m <= params["max_length"]
        assert params["min_intervals"] <= len(intervals) <= params["max_intervals"]
        assert all(0 <= left < right <= m for left, right in intervals)


# --- self-consistency, determinism, diversity, levels, timing -------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_reference_answer_scores_one(cases: dict[str, list[dict[str, Any]]], level: str) -> None:
    for case in cases[level]:
        assert _score(Camp.reference_answer(case), case) == 1.0


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_cases_and_json_round_trip(level: str) -> None:
    first, second = _cases(level, seed=11, n=50), _cases(level, seed=11, n=50)
    assert first == second
    assert json.loads(json.dumps(first)) == first
    assert _cases(level, seed=12, n=50) != first


def test_determinism_across_processes_and_hash_seeds() -> None:
    outputs = [
        cases_in_subprocess("generated_bootcamps.handwritten.interval_cover", "IntervalCoverBootcamp", seed=3, count=20,
                            hash_seed=hash_seed)
        for hash_seed in ("1", "2")
    ]
    expected = {level: _cases(level, seed=3, n=20) for level in LEVELS}
    assert outputs[0] == outputs[1] == expected


@pytest.mark.parametrize("level", LEVELS)
def test_cases_and_answers_are_diverse(cases: dict[str, list[dict[str, Any]]], level: str) -> None:
    distinct = {json.dumps(case, sort_keys=True) for case in cases[level]}
    answers = [int(Camp.reference_answer(case)) for case in cases[level]]
    assert len(distinct) >= 0.9 * N_CASES
    assert len(set(answers)) >= 4
    # Impossible cases occur (impossible_rate = 0.2) but do not dominate.
    assert 0.05 * N_CASES <= answers.count(-1) <= 0.4 * N_CASES


def test_levels_are_measurably_harder(cases: dict[str, list[dict[str, Any]]]) -> None:
    def mean(level: str, key: Any) -> float:
        return statistics.mean(key(case) for case in cases[level])

    for key in (
        lambda c: len(c["intervals"]),
        lambda c: c["m"],
        lambda c: max(int(Camp.reference_answer(c)), 0),  # intervals in the optimal cover
    ):
        assert mean("easy", key) < mean("medium", key) < mean("hard", key)


@pytest.mark.parametrize("level", LEVELS)
def test_generation_is_fast(level: str) -> None:
    camp = Camp.from_level(level, seed=5)
    start = time.perf_counter()
    for _ in range(N_CASES):
        camp.case_generator()
    assert (time.perf_counter() - start) / N_CASES < 0.020


def test_impossible_rate_extremes() -> None:
    never = Camp(seed=1, impossible_rate=0.0)
    always = Camp(seed=1, impossible_rate=1.0)
    assert all(Camp.reference_answer(never.case_generator()) != "-1" for _ in range(100))
    assert all(Camp.reference_answer(always.case_generator()) == "-1" for _ in range(100))


# --- answer parsing: accepted forms, rejected answers, garbage ------------------------------


def test_lenient_integer_forms_are_accepted() -> None:
    case = {"m": 10, "intervals": [[0, 4], [3, 7], [6, 10]]}  # answer 3
    for answer in ("3", " 3 ", "3.", "+3", "3.0", "The answer is 3.", "**3**", "[3]"):
        assert _score(answer, case) == 1.0, answer
    impossible = {"m": 10, "intervals": [[0, 4], [6, 10]]}  # answer -1
    for answer in ("-1", "\u22121", "Answer: -1 (impossible)"):
        assert _score(answer, impossible) == 1.0, answer


@pytest.mark.parametrize(
    "answer",
    [
        "2",
        "4",
        "1",
        "-3",
        "33",
        "3.5",
        "2 or 3",
        "3 intervals: [0,4] [3,7] [6,10]",
        "three",
        "",
        "1e0",
        "-",
        "3" * 2000,
    ],
)
def test_wrong_or_ambiguous_answers_are_rejected(answer: str) -> None:
    case = {"m": 10, "intervals": [[0, 4], [3, 7], [6, 10]]}  # answer 3
    assert _score(answer, case) == 0.0


@pytest.mark.parametrize("level", LEVELS)
def test_corrupted_answers_are_rejected(cases: dict[str, list[dict[str, Any]]], level: str) -> None:
    for case in cases[level]:
        right = int(Camp.reference_answer(case))
        wrong = {right - 1, right + 1, -right, 0, len(case["intervals"]) + 1, right * 10}
        if right != -1:
            wrong.add(-1)
        for value in sorted(wrong - {right}):
            assert _score(str(value), case) == 0.0
        assert _score(f"{right} {right}", case) == 0.0


@pytest.mark.parametrize(
    "response",
    [
        "",
        "no tags",
        "<answer></answer>",
        "<answer>" + "7" * 1_000_000 + "</answer>",
        "<answer>" + "x" * 1_000_000 + "</answer>",
        "<answer>٣</answer>",  # Arabic-Indic digit three: not an ASCII integer
        "<answer>日本語 ÄÖÜ</answer>",
        "<answer>\x00\x01</answer>",
        "<answer>",
    ],
)
def test_garbage_scores_zero(cases: dict[str, list[dict[str, Any]]], response: str) -> None:
    for level in LEVELS:
        for case in cases[level][:5]:
            assert Camp.verify_score(response, case) == 0.0


def test_random_text_scores_zero(cases: dict[str, list[dict[str, Any]]]) -> None:
    rng = random.Random(1)
    alphabet = "abcdefghij klmnop,.:;!?<>"
    for case in cases["medium"][:100]:
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 80)))
        assert _score(text, case) == 0.0


# --- parameters -------------------------------------------------------------------------------


def test_typo_parameter_raises_type_error() -> None:
    with pytest.raises(TypeError):
        Camp(seed=1, max_interval=9)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "params",
    [
        {"min_intervals": 0},
        {"min_intervals": 9, "max_intervals": 8},
        {"max_intervals": 10_001},
        {"min_length": 1},
        {"min_length": 50, "max_length": 40},
        {"max_length": 10**9 + 1},
        {"impossible_rate": -0.1},
        {"impossible_rate": 1.5},
    ],
)
def test_invalid_parameters_raise_value_error(params: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Camp(seed=1, **params)


def test_extreme_parameters_generate_valid_cases() -> None:
    # One interval on the shortest segment, and many intervals on a long one.
    for camp in (
        Camp(seed=4, min_intervals=1, max_intervals=1, min_length=2, max_length=2),
        Camp(seed=4, min_intervals=300, max_intervals=300, min_length=10**9, max_length=10**9),
    ):
        for _ in range(20):
            case = camp.case_generator()
            assert all(0 <= a < b <= case["m"] for a, b in case["intervals"])
            assert _score(Camp.reference_answer(case), case) == 1.0
