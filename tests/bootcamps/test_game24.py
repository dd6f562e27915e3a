"""Tests of the hand-written Game24Bootcamp (generated_bootcamps/handwritten/game24.py)."""

from __future__ import annotations

import ast
import importlib.util
import json
import operator
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers import cases_in_subprocess

MODULE_PATH = Path(__file__).resolve().parents[2] / "generated_bootcamps/handwritten/game24.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("handwritten_game24", MODULE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


game24 = _load()
Bootcamp = game24.Game24Bootcamp
LEVELS = list(Bootcamp.LEVELS)
CLASSIC = {"numbers": [3, 3, 8, 8], "target": 24, "solution": "8/(3-8/3)"}


def _score(answer: str, case: dict[str, Any]) -> float:
    return Bootcamp.verify_score(Bootcamp.wrap_answer(answer), case)


@pytest.fixture(scope="module")
def cases() -> dict[str, list[dict[str, Any]]]:
    return {level: _generate(level, seed=7, count=200) for level in LEVELS}


def _generate(level: str, seed: int, count: int) -> list[dict[str, Any]]:
    bootcamp = Bootcamp.from_level(level, seed=seed)
    return [bootcamp.case_generator() for _ in range(count)]


def _fraction_value(expression: str) -> Fraction:
    """An independent evaluator for the test: Python's own parser, folded with Fractions."""

    operations = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}
    operations[ast.Div] = operator.truediv

    def fold(node: ast.AST) -> Fraction:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return Fraction(node.value)
        assert isinstance(node, ast.BinOp), ast.dump(node)
        result: Fraction = operations[type(node.op)](fold(node.left), fold(node.right))
        return result

    return fold(ast.parse(expression, mode="eval").body)


# --- contract -----------------------------------------------------------------------------------


def test_same_seed_gives_same_cases() -> None:
    for level in LEVELS:
        assert _generate(level, seed=3, count=20) == _generate(level, seed=3, count=20)
    assert _generate("easy", seed=3, count=20) != _generate("easy", seed=4, count=20)


def test_same_seed_gives_same_cases_in_another_process() -> None:
    output = cases_in_subprocess(MODULE_PATH, "Game24Bootcamp", seed=11, count=10, hash_seed="12345",
                                 levels=["hard"])
    assert output["hard"] == _generate("hard", seed=11, count=10)


def test_cases_round_trip_through_json(cases: dict[str, list[dict[str, Any]]]) -> None:
    for level_cases in cases.values():
        for case in level_cases:
            assert json.loads(json.dumps(case)) == case


def test_reference_answers_score_one(cases: dict[str, list[dict[str, Any]]]) -> None:
    for level_cases in cases.values():
        for case in level_cases:
            assert _score(Bootcamp.reference_answer(case), case) == 1.0, case


def test_witnesses_are_right_by_an_independent_evaluator(
    cases: dict[str, list[dict[str, Any]]],
) -> None:
    for level_cases in cases.values():
        for case in level_cases[:50]:
            solution = case["solution"]
            assert _fraction_value(solution) == case["target"]
            constants = [n for n in ast.walk(ast.parse(solution)) if isinstance(n, ast.Constant)]
            used = [n.value for n in constants if isinstance(n.value, int)]
            assert len(used) == len(constants)
            assert sorted(used) == sorted(case["numbers"])


def test_at_least_90_percent_distinct_cases_and_varied_answers(
    cases: dict[str, list[dict[str, Any]]],
) -> None:
    for level_cases in cases.values():
        assert len({json.dumps(case) for case in level_cases}) >= 180
        assert len({case["target"] for case in level_cases}) >= 15
        assert len({Bootcamp.reference_answer(case) for case in level_cases}) >= 180


def test_generation_is_fast() -> None:
    for level in LEVELS:
        bootcamp = Bootcamp.from_level(level, seed=5)
        start = time.perf_counter()
        for _ in range(100):
            bootcamp.case_generator()
        assert (time.perf_counter() - start) / 100 < 0.020, level


def test_levels_give_larger_cases(cases: dict[str, list[dict[str, Any]]]) -> None:
    sizes = [len(cases[level][0]["numbers"]) for level in LEVELS]
    targets = [statistics.mean(case["target"] for case in cases[level]) for level in LEVELS]
    largest = [max(max(case["numbers"]) for case in cases[level]) for level in LEVELS]
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1]
    assert targets == sorted(targets) and targets[0] < targets[-1]
    assert largest == sorted(largest) and largest[0] < largest[-1]


def test_parameters_are_validated() -> None:
    with pytest.raises(TypeError):
        Bootcamp(seed=1, num_number=4)  # typo
    for bad in ({"num_numbers": 1}, {"num_numbers": 7}, {"range_max": 1}, {"target_max": 0}):
        with pytest.raises(ValueError):
            Bootcamp(seed=1, **bad)


def test_prompt_states_the_case_and_the_format_without_the_answer() -> None:
    case = Bootcamp.from_level("medium", seed=2).case_generator()
    prompt = Bootcamp.prompt_func(case)
    assert " ".join(map(str, case["numbers"])) in prompt
    assert f"Target: {case['target']}" in prompt
    assert "<answer>" in prompt and "exactly once" in prompt
    assert case["solution"] not in prompt


# --- verification -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "8/(3-8/3)",
        " 8 / ( 3 - 8 / 3 ) ",
        "8/(3-(8/3))",
        "(8)/((3)-(8)/(3))",
        "8÷(3−8÷3)",
    ],
)
def test_classic_solution_and_spellings_are_accepted(answer: str) -> None:
    assert _score(answer, CLASSIC) == 1.0


@pytest.mark.parametrize(
    "answer",
    ["1*2*3*4", "4*3*2*1", "(1+2+3)*4", "4*(3+2+1)", "(4+2)*(3+1)", "2×3×4×1", "4*3*2/1"],
)
def test_other_valid_solutions_are_accepted(answer: str) -> None:
    assert _score(answer, {"numbers": [1, 2, 3, 4], "target": 24, "solution": "1*2*3*4"}) == 1.0


@pytest.mark.parametrize(
    "answer",
    [
        "8/(3-8/3)+0",  # a number that is not given
        "8/(3-8/3)*3/3",  # reuses numbers
        "8*3",  # omits numbers
        "33-8-8/8",  # concatenated digits
        "8*3*(8/8)",  # uses 8 three times and 3 once
        "(8-8)+3*3",  # right numbers, wrong value
        "8/(3-8/3)-1+1",  # extra numbers, right value
        "-8/(3-8/3)*-1",  # unary minus
        "+8/(3-8/3)",  # unary plus
        "3**3-8+8",  # power
        "3^3-8+8",
        "8%3*8*3",
        "8//3*8+3",
        "8.0/(3-8/3)",  # decimal
        "08/(3-8/3)",  # leading zero
        "8/(3-8/3",  # unbalanced
        "8/(3-8/3))",
        "8/3-8/3)(",
        "8/(3-3)*8",  # division by zero
        "8 3 3 8",
        "8/(3-8/3)=24",
        "x",
    ],
)
def test_invalid_answers_are_rejected(answer: str) -> None:
    assert _score(answer, CLASSIC) == 0.0


def _random_expression(numbers: list[int], rng: random.Random) -> str:
    """A random fully parenthesised expression using each number once, spaced at random."""
    parts = [str(n) for n in numbers]
    while len(parts) > 1:
        i, j = rng.sample(range(len(parts)), 2)
        space = rng.choice(("", " "))
        combined = f"({parts[i]}{space}{rng.choice('+-*/')}{space}{parts[j]})"
        parts = [p for k, p in enumerate(parts) if k not in (i, j)] + [combined]
    return parts[0]


def test_verifier_agrees_with_an_independent_evaluator_on_random_expressions() -> None:
    rng = random.Random(1)
    checked = 0
    for _ in range(400):
        numbers = [rng.randint(1, 13) for _ in range(rng.randint(2, 6))]
        expression = _random_expression(numbers, rng)
        try:
            value = _fraction_value(expression)
        except ZeroDivisionError:
            assert _score(expression, {"numbers": numbers, "target": 1}) == 0.0
            continue
        if value.denominator != 1:
            continue
        case = {"numbers": numbers, "target": int(value), "solution": expression}
        assert _score(expression, case) == 1.0, expression
        assert _score(expression, {**case, "target": int(value) + 1}) == 0.0
        assert _score(expression, {**case, "numbers": numbers[1:]}) == 0.0
        checked += 1
    assert checked > 100


def test_corrupted_reference_answers_are_rejected(cases: dict[str, list[dict[str, Any]]]) -> None:
    rng = random.Random(0)
    for level_cases in cases.values():
        for case in level_cases[:60]:
            reference = Bootcamp.reference_answer(case)
            numbers = case["numbers"]
            corrupted = [
                f"({reference})+1",
                f"({reference})*{numbers[0]}",
                reference.replace(str(numbers[-1]), str(numbers[-1] + 1), 1),
                f"{reference}{numbers[0]}",  # concatenates digits onto the last number
                reference.replace("+", "-", 1) if "+" in reference else reference + "-1",
                reference[: rng.randrange(len(reference))],
            ]
            for answer in corrupted:
                assert _score(answer, case) < 1.0, (case, answer)


@pytest.mark.parametrize(
    "response",
    [
        "",
        "<answer></answer>",
        "24",
        "I think the answer is 8/(3-8/3)",  # no tags
        "<answer>" + "(" * 500_000 + "</answer>",
        "<answer>" + "8/(3-8/3)" * 120_000 + "</answer>",
        "<answer>8/(3-8/3)" + "x" * 1_000_000,
        "<answer>８/(３-８/３)</answer>",  # full-width digits
        "<answer>8/(3-8/3)\u200b</answer>",
        "<answer>" + "(" * 100 + "8" + ")" * 100 + "</answer>",
        "\x00\x01\xff<answer>\ud800</answer>",
    ],
)
def test_garbage_scores_zero_quickly(response: str) -> None:
    start = time.perf_counter()
    assert Bootcamp.verify_score(response, CLASSIC) == 0.0
    assert time.perf_counter() - start < 0.5


def test_deep_parentheses_are_bounded_not_a_recursion_error() -> None:
    case = {"numbers": [24], "target": 24, "solution": "24"}
    assert _score("(" * 10 + "24" + ")" * 10, case) == 1.0
    assert _score("(" * 140 + "24" + ")" * 140, case) == 0.0  # past the length/depth limits


def test_verification_does_not_trust_the_stored_solution() -> None:
    tampered = {**CLASSIC, "solution": "3*8*(8/8)"}
    assert _score("8/(3-8/3)", tampered) == 1.0
    assert _score("3*8*(8/8)", tampered) == 0.0


# --- search -------------------------------------------------------------------------------------


def test_search_finds_the_classic_fraction_solution() -> None:
    for seed in range(5):
        solution = game24.find_expression([3, 3, 8, 8], 24, random.Random(seed))
        assert solution is not None and _fraction_value(solution) == 24


def test_search_reports_unsolvable_draws() -> None:
    assert game24.find_expression([1, 1, 1, 1], 24, random.Random(0)) is None
    assert game24.find_expression([2, 3], 7, random.Random(0)) is None
    assert game24.find_expression([2, 3], 6, random.Random(0)) in ("2*3", "3*2")


def test_rendering_keeps_the_tree_value() -> None:
    tree = ("-", 9, ("-", 5, ("/", 8, ("*", 2, 2))))  # 9-(5-8/(2*2))
    assert game24.render(tree) == "9-(5-8/(2*2))"
    assert _fraction_value(game24.render(tree)) == 6
    assert game24.render(("+", 1, ("-", 5, 2))) == "1+5-2"
    assert game24.render(("*", ("+", 1, 2), ("/", 6, 3))) == "(1+2)*6/3"


def test_module_never_evaluates_text() -> None:
    tree = ast.parse(MODULE_PATH.read_text())
    called = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert not called & {"eval", "exec", "compile", "open", "__import__", "getattr"}
