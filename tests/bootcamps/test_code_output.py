"""Tests of the hand-written CodeOutputBootcamp (generated_bootcamps/handwritten/code_output.py)."""

from __future__ import annotations

import ast
import importlib.util
import json
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers import cases_in_subprocess

MODULE_PATH = Path(__file__).resolve().parents[2] / "generated_bootcamps/handwritten/code_output.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("handwritten_code_output", MODULE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


code_output = _load()
Bootcamp = code_output.CodeOutputBootcamp
LEVELS = list(Bootcamp.LEVELS)


def _score(answer: str, case: dict[str, Any]) -> float:
    return Bootcamp.verify_score(Bootcamp.wrap_answer(answer), case)


def _generate(level: str, seed: int, count: int) -> list[dict[str, Any]]:
    bootcamp = Bootcamp.from_level(level, seed=seed)
    return [bootcamp.case_generator() for _ in range(count)]


@pytest.fixture(scope="module")
def cases() -> dict[str, list[dict[str, Any]]]:
    return {level: _generate(level, seed=7, count=300) for level in LEVELS}


def _run_with_python(case: dict[str, Any]) -> Any:
    """Real Python on the rendered source (safe: the source comes from our own generator)."""
    namespace: dict[str, Any] = {}
    exec(code_output.render_source(case), namespace)
    return namespace["f"](*case["args"])


def _program(body: list[Any], returns: list[Any], **args: int) -> dict[str, Any]:
    """A hand-built case: parameters named by the keyword arguments."""
    return {"params": list(args), "args": list(args.values()), "body": body, "returns": returns}


def _statements(block: list[Any]) -> int:
    count = 0
    for statement in block:
        count += 1
        if statement[0] == "for":
            count += _statements(statement[3])
        elif statement[0] == "if":
            count += _statements(statement[2]) + _statements(statement[3])
    return count


def _depth(block: list[Any]) -> int:
    nested = [s[3] for s in block if s[0] == "for"] + [s[2] + s[3] for s in block if s[0] == "if"]
    return 1 + max((_depth(inner) for inner in nested), default=0) if nested else 0


# --- the interpreter agrees with real Python -------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_interpreter_agrees_with_real_python(
    level: str, cases: dict[str, list[dict[str, Any]]]
) -> None:
    for case in cases[level]:
        assert repr(_run_with_python(case)) == Bootcamp.reference_answer(case), (
            code_output.render_source(case),
            case["args"],
        )


def test_rendered_source_is_the_one_in_the_prompt(cases: dict[str, list[dict[str, Any]]]) -> None:
    for case in cases["hard"][:50]:
        prompt = Bootcamp.prompt_func(case)
        assert f"```python\n{code_output.render_source(case)}\n```" in prompt
        assert f"f({', '.join(map(str, case['args']))})" in prompt


# --- contract -----------------------------------------------------------------------------------


def test_same_seed_gives_same_cases() -> None:
    for level in LEVELS:
        assert _generate(level, seed=3, count=30) == _generate(level, seed=3, count=30)
    assert _generate("easy", seed=3, count=30) != _generate("easy", seed=4, count=30)


def test_same_seed_gives_same_cases_in_another_process() -> None:
    output = cases_in_subprocess(MODULE_PATH, "CodeOutputBootcamp", seed=11, count=20, hash_seed="987",
                                 levels=["hard"])
    assert output["hard"] == _generate("hard", seed=11, count=20)


def test_cases_round_trip_through_json(cases: dict[str, list[dict[str, Any]]]) -> None:
    for level_cases in cases.values():
        for case in level_cases:
            assert json.loads(json.dumps(case)) == case


def test_reference_answers_score_one(cases: dict[str, list[dict[str, Any]]]) -> None:
    for level_cases in cases.values():
        for case in level_cases[:200]:
            assert _score(Bootcamp.reference_answer(case), case) == 1.0, case


def test_at_least_90_percent_distinct_cases_and_varied_answers(
    cases: dict[str, list[dict[str, Any]]],
) -> None:
    for level_cases in cases.values():
        sample = level_cases[:200]
        answers = [Bootcamp.reference_answer(case) for case in sample]
        assert len({json.dumps(case) for case in sample}) >= 180
        assert len(set(answers)) >= 80
        assert max(answers.count(answer) for answer in answers) <= 30
        kinds = {answer[0] for answer in answers}
        assert {"[", "'"} <= kinds and kinds - {"[", "'"}  # lists, strings and ints


def test_generation_is_fast() -> None:
    for level in LEVELS:
        bootcamp = Bootcamp.from_level(level, seed=5)
        start = time.perf_counter()
        for _ in range(200):
            bootcamp.case_generator()
        assert (time.perf_counter() - start) / 200 < 0.020, level


def test_levels_give_larger_programs(cases: dict[str, list[dict[str, Any]]]) -> None:
    def mean(measure: Any, level: str) -> float:
        return statistics.mean(measure(case) for case in cases[level])

    for measure in (
        lambda case: _statements(case["body"]),
        lambda case: _depth(case["body"]),
        lambda case: len(code_output.render_source(case)),
    ):
        means = [mean(measure, level) for level in LEVELS]
        assert means == sorted(means) and means[0] < means[-1], means
    assert min(min(case["args"]) for case in cases["hard"]) < 0
    assert min(min(case["args"]) for case in cases["easy"]) >= 0


def test_parameters_are_validated() -> None:
    with pytest.raises(TypeError):
        Bootcamp(seed=1, num_statement=4)  # typo
    bad_values: list[dict[str, Any]] = [
        {"num_statements": 0},
        {"max_depth": 4},
        {"expr_depth": -1},
        {"max_value": 1},
        {"max_value": 100},
    ]
    for bad in bad_values:
        with pytest.raises(ValueError):
            Bootcamp(seed=1, **bad)


def test_prompt_states_the_format_and_does_not_leak_long_answers(
    cases: dict[str, list[dict[str, Any]]],
) -> None:
    for case in cases["medium"][:100]:
        prompt = Bootcamp.prompt_func(case)
        assert "<answer>" in prompt and "repr()" in prompt
        answer = Bootcamp.reference_answer(case)
        if len(answer) > 12:
            assert answer not in prompt


# --- verification -------------------------------------------------------------------------------

LIST_CASE = _program(
    [
        ["assign", "out", ["list"]],
        ["for", "i", [["num", 1], ["var", "n"], ["num", 1]], [["append", "out", ["var", "i"]]]],
    ],
    ["var", "out"],
    n=4,
)  # [1, 2, 3]
INT_CASE = _program(
    [["assign", "a", ["binop", "//", ["var", "n"], ["num", 3]]]],
    ["binop", "%", ["var", "a"], ["num", 4]],
    n=-7,
)  # (-7 // 3) % 4 == 1
STR_CASE = _program(
    [["assign", "s", ["str", "ab"]], ["augassign", "s", "+", ["call", "str", ["var", "n"]]]],
    ["var", "s"],
    n=5,
)  # 'ab5'


def test_hand_built_programs_have_pythons_semantics() -> None:
    assert Bootcamp.reference_answer(LIST_CASE) == "[1, 2, 3]"
    assert Bootcamp.reference_answer(INT_CASE) == "1"
    assert Bootcamp.reference_answer(STR_CASE) == "'ab5'"
    for case in (LIST_CASE, INT_CASE, STR_CASE):
        assert repr(_run_with_python(case)) == Bootcamp.reference_answer(case)


def test_rendering_is_plain_python() -> None:
    assert code_output.render_source(LIST_CASE) == (
        "def f(n):\n    out = []\n    for i in range(1, n):\n        out.append(i)\n    return out"
    )
    a, b, one = ["var", "a"], ["var", "b"], ["num", 1]
    expected: dict[str, list[Any]] = {
        "a - (b - 1)": ["binop", "-", a, ["binop", "-", b, one]],
        "a - b - 1": ["binop", "-", ["binop", "-", a, b], one],
        "(a + b) * 1": ["binop", "*", ["binop", "+", a, b], one],
        "a * b % 1": ["binop", "%", ["binop", "*", a, b], one],
        "a * (b // 1)": ["binop", "*", a, ["binop", "//", b, one]],
        "a + b + 1": ["binop", "+", a, ["binop", "+", b, one]],
        "'abc'[a % 3]": ["index", ["str", "abc"], ["binop", "%", a, ["num", 3]]],
    }
    for text, expr in expected.items():
        case = _program([], expr, a=-7, b=3)
        assert code_output.render_source(case) == f"def f(a, b):\n    return {text}"
        assert repr(_run_with_python(case)) == Bootcamp.reference_answer(case)


def test_range_bounds_are_evaluated_once() -> None:
    # for i in range(n): n += 1   -- runs n times, not forever
    case = _program(
        [
            ["assign", "a", ["num", 0]],
            [
                "for",
                "i",
                [["num", 0], ["var", "n"], ["num", 1]],
                [["augassign", "n", "+", ["num", 1]], ["augassign", "a", "+", ["var", "i"]]],
            ],
        ],
        ["binop", "*", ["var", "a"], ["var", "n"]],
        n=4,
    )
    assert Bootcamp.reference_answer(case) == repr(_run_with_python(case)) == "48"


def test_programs_past_the_limits_are_refused() -> None:
    many = _program(
        [
            ["assign", "a", ["num", 0]],
            [
                "for",
                "i",
                [["num", 0], ["num", 1000], ["num", 1]],
                [["augassign", "a", "+", ["num", 1]]],
            ],
        ],
        ["var", "a"],
    )
    huge = _program(
        [["assign", "a", ["binop", "*", ["num", 99_999], ["num", 99_999]]]], ["var", "a"]
    )
    for case in (many, huge):
        with pytest.raises(code_output._LimitExceeded):
            code_output.run_program(case)


@pytest.mark.parametrize(
    ("answer", "case"),
    [
        ("[1, 2, 3]", LIST_CASE),
        ("[1,2,3]", LIST_CASE),
        ("[1, 2,3]", LIST_CASE),
        ("  [ 1 ,\n2 , 3 , ]  ", LIST_CASE),
        ("1", INT_CASE),
        (" 1 ", INT_CASE),
        ("'ab5'", STR_CASE),
        ('"ab5"', STR_CASE),
    ],
)
def test_equivalent_spellings_are_accepted(answer: str, case: dict[str, Any]) -> None:
    assert _score(answer, case) == 1.0


@pytest.mark.parametrize(
    ("answer", "case"),
    [
        ("[1, 2]", LIST_CASE),
        ("[1, 2, 3, 4]", LIST_CASE),
        ("[3, 2, 1]", LIST_CASE),
        ("[1, 2, 4]", LIST_CASE),
        ("(1, 2, 3)", LIST_CASE),
        ("[1, 2, 3", LIST_CASE),
        ("[1,, 2, 3]", LIST_CASE),
        ("[,]", LIST_CASE),
        ("[]", LIST_CASE),
        ("'[1, 2, 3]'", LIST_CASE),
        ("1 2 3", LIST_CASE),
        ("-2", INT_CASE),  # C-style truncation: -7 / 3 -> -2, then -2 % 4 -> -2
        ("2", INT_CASE),
        ("'1'", INT_CASE),
        ("[1]", INT_CASE),
        ("True", INT_CASE),
        ("1.0", INT_CASE),
        ("+1", INT_CASE),
        ("0x1", INT_CASE),
        ("１", INT_CASE),  # full-width digit
        ("ab5", STR_CASE),
        ("'ab5", STR_CASE),
        ("'ab5\"", STR_CASE),
        ("'ab'", STR_CASE),
        ("'ab\\x35'", STR_CASE),
        ("'a'b5'", STR_CASE),
    ],
)
def test_wrong_answers_are_rejected(answer: str, case: dict[str, Any]) -> None:
    assert _score(answer, case) == 0.0


def test_literal_parser_agrees_with_python_on_random_spellings() -> None:
    rng = random.Random(2)

    def space() -> str:
        return rng.choice(("", "", " ", "  ", "\n"))

    for _ in range(300):
        kind = rng.choice(("int", "list", "str"))
        if kind == "int":
            text = str(rng.randint(-(10**6), 10**6))
        elif kind == "str":
            quote = rng.choice("'\"")
            text = quote + "".join(rng.choices("abcxyz019-", k=rng.randint(0, 8))) + quote
        else:
            items = [str(rng.randint(-999, 999)) for _ in range(rng.randint(0, 6))]
            text = "[" + space() + ("," + space()).join(items)
            text += ("," if items and rng.random() < 0.2 else "") + space() + "]"
        text = space() + text + space()
        assert code_output.parse_literal(text) == ast.literal_eval(text.strip()), text


def test_corrupted_reference_answers_are_rejected(cases: dict[str, list[dict[str, Any]]]) -> None:
    for level_cases in cases.values():
        for case in level_cases[:100]:
            value = code_output.run_program(case)
            if isinstance(value, int):
                corrupted = [value + 1, value - 1, -value - 1, str(value), [value]]
            elif isinstance(value, str):
                corrupted = [value + "a", value[:-1], value.upper() + "Z", [len(value)]]
            else:
                corrupted = [value[:-1], [*value, 0], [value[0] + 1, *value[1:]], str(value)]
                if value != value[::-1]:
                    corrupted.append(value[::-1])
            for wrong in corrupted:
                assert _score(repr(wrong), case) == 0.0, (case, wrong)


@pytest.mark.parametrize(
    "response",
    [
        "",
        "<answer></answer>",
        "the answer is 1",
        "<answer>" + "[" * 1_000_000 + "</answer>",
        "<answer>[" + "1, " * 400_000 + "]</answer>",
        "<answer>" + "9" * 1_000_000 + "</answer>",
        "<answer>'" + "a" * 1_000_000 + "'</answer>",
        "<answer>émoji 🎉 ünïcödé</answer>",
        "\x00\xff<answer>\ud800</answer>",
    ],
)
def test_garbage_scores_zero_quickly(response: str) -> None:
    start = time.perf_counter()
    for case in (LIST_CASE, INT_CASE, STR_CASE):
        assert Bootcamp.verify_score(response, case) == 0.0
    assert time.perf_counter() - start < 0.5


def test_module_never_executes_text() -> None:
    tree = ast.parse(MODULE_PATH.read_text())
    called = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert not called & {"eval", "exec", "compile", "open", "__import__", "getattr"}
