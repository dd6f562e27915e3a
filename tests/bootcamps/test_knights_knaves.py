"""Tests of the hand-written knights-and-knaves seed bootcamp."""

from __future__ import annotations

import itertools
import json
import random
import time
from typing import Any

import pytest
from helpers import cases_in_subprocess

from generated_bootcamps.handwritten.knights_knaves import KnightsKnavesBootcamp as KK

LEVELS = list(KK.LEVELS)
N_CASES = 200


@pytest.fixture(scope="module")
def cases() -> dict[str, list[dict[str, Any]]]:
    """200 cases per level (seed 7), generated once for the module."""
    out = {}
    for level in LEVELS:
        camp = KK.from_level(level, seed=7)
        out[level] = [camp.case_generator() for _ in range(N_CASES)]
    return out


def statement_true(st: dict[str, Any], knight: tuple[bool, ...]) -> bool:
    """The documented meaning of each statement kind, written independently of the module."""
    kind, t = st["kind"], st["targets"]

    def has(person: int, role: str) -> bool:
        return knight[person] == (role == "knight")

    if kind == "is":
        return has(t[0], st["role"])
    if kind == "same":
        return knight[t[0]] == knight[st["speaker"]]
    if kind == "different":
        return knight[t[0]] != knight[st["speaker"]]
    if kind == "both":
        return has(t[0], st["role"]) and has(t[1], st["role"])
    if kind == "either":
        return has(t[0], st["role"]) or has(t[1], st["role"])
    if kind == "exactly_one":
        return [has(p, st["role"]) for p in t].count(True) == 1
    if kind == "count":
        return [has(p, st["role"]) for p in range(len(knight))].count(True) == st["count"]
    if kind == "implies":
        return not has(t[0], st["roles"][0]) or has(t[1], st["roles"][1])
    raise AssertionError(f"unknown kind {kind}")


def consistent_assignments(case: dict[str, Any]) -> list[tuple[bool, ...]]:
    n = len(case["names"])
    return [
        knight
        for knight in itertools.product([True, False], repeat=n)
        if all(knight[s["speaker"]] == statement_true(s, knight) for s in case["statements"])
    ]


def answer_text(names: list[str], knight: tuple[bool, ...]) -> str:
    return ", ".join(
        f"{name}: {'knight' if k else 'knave'}" for name, k in zip(names, knight, strict=True)
    )


def score(text: str, case: dict[str, Any]) -> float:
    return KK.verify_score(KK.wrap_answer(text), case)


# ---------------------------------------------------------------------------------------
# Determinism, diversity, levels, parameters
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_cases_and_other_seed_differs(level: str) -> None:
    first = [KK.from_level(level, seed=3).case_generator() for _ in range(5)]
    again = [KK.from_level(level, seed=3).case_generator() for _ in range(5)]
    other = [KK.from_level(level, seed=4).case_generator() for _ in range(5)]
    assert first == again
    assert first != other


def test_determinism_across_processes_with_other_hash_seed() -> None:
    outputs = [
        cases_in_subprocess("generated_bootcamps.handwritten.knights_knaves", "KnightsKnavesBootcamp", seed=11, count=5,
                            hash_seed=hash_seed)
        for hash_seed in ("1", "987")
    ]
    local = {}
    for level in LEVELS:
        camp = KK.from_level(level, seed=11)
        local[level] = [camp.case_generator() for _ in range(5)]
    assert outputs[0] == outputs[1] == local


@pytest.mark.parametrize("level", LEVELS)
def test_cases_are_distinct_json_exact_and_answers_vary(
    level: str, cases: dict[str, list[dict[str, Any]]]
) -> None:
    batch = cases[level]
    assert len({json.dumps(c, sort_keys=True) for c in batch}) >= 0.9 * N_CASES
    n = KK.LEVELS[level]["num_people"]
    role_patterns = {tuple(c["solution"]) for c in batch}
    assert len(role_patterns) >= min(2**n, 100) * 0.9  # easy: all 8 patterns of 3 people
    assert len({KK.reference_answer(c) for c in batch}) >= 0.9 * N_CASES
    for case in batch:
        assert json.loads(json.dumps(case)) == case


def test_levels_grow_people_and_statement_kinds(cases: dict[str, list[dict[str, Any]]]) -> None:
    people = [len(cases[level][0]["names"]) for level in LEVELS]
    assert people == [3, 5, 8]
    kinds = {level: {s["kind"] for c in cases[level] for s in c["statements"]} for level in LEVELS}
    assert kinds["easy"] == {"is", "same", "different"}
    assert kinds["medium"] == kinds["easy"] | {"both", "either", "exactly_one"}
    assert kinds["hard"] == kinds["medium"] | {"count", "implies"}
    prompt_lengths = [sum(len(KK.prompt_func(c)) for c in cases[level]) for level in LEVELS]
    assert prompt_lengths == sorted(prompt_lengths)


@pytest.mark.parametrize("level", LEVELS)
def test_generation_time_per_case(level: str) -> None:
    camp = KK.from_level(level, seed=5)
    start = time.process_time()  # CPU time: robust to other jobs sharing the machine
    for _ in range(40):
        camp.case_generator()
    per_case = (time.process_time() - start) / 40
    # Measured about 0.3 / 1.2 / 10 ms of CPU; the bound leaves room for slower machines.
    assert per_case < 0.040


def test_parameters_are_validated() -> None:
    with pytest.raises(TypeError):
        KK(seed=1, num_peple=4)  # type: ignore[call-arg]
    for bad in ({"num_people": 1}, {"num_people": 11}, {"complexity": 0}, {"complexity": 4}):
        with pytest.raises(ValueError):
            KK(seed=1, **bad)


# ---------------------------------------------------------------------------------------
# The cases are well-formed puzzles with exactly one consistent assignment
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_exactly_one_consistent_assignment_and_it_is_the_stored_one(
    level: str, cases: dict[str, list[dict[str, Any]]]
) -> None:
    for case in cases[level]:
        n = len(case["names"])
        assert len(set(case["names"])) == n
        assert [s["speaker"] for s in case["statements"]] == list(range(n))
        for st in case["statements"]:
            if st["kind"] not in ("count", "implies"):
                assert st["speaker"] not in st["targets"]  # statements are about others
        solutions = consistent_assignments(case)
        assert len(solutions) == 1
        assert [("knight" if k else "knave") for k in solutions[0]] == case["solution"]


@pytest.mark.parametrize(("level", "checked"), [("easy", 50), ("medium", 20), ("hard", 5)])
def test_verifier_accepts_exactly_one_of_all_possible_answers(
    level: str, checked: int, cases: dict[str, list[dict[str, Any]]]
) -> None:
    for case in cases[level][:checked]:
        n = len(case["names"])
        accepted = [
            knight
            for knight in itertools.product([True, False], repeat=n)
            if score(answer_text(case["names"], knight), case) == 1.0
        ]
        assert accepted == consistent_assignments(case)


@pytest.mark.parametrize("complexity", [1, 2, 3])
def test_two_people_works_without_pair_statements(complexity: int) -> None:
    camp = KK(seed=0, num_people=2, complexity=complexity)
    for _ in range(30):
        case = camp.case_generator()
        assert {s["kind"] for s in case["statements"]} <= {"is", "same", "different", "count"}
        assert len(consistent_assignments(case)) == 1


def test_ten_people_is_supported() -> None:
    case = KK(seed=0, num_people=10, complexity=3).case_generator()
    assert len(consistent_assignments(case)) == 1
    assert score(KK.reference_answer(case), case) == 1.0


def test_prompt_states_every_statement_and_the_format_but_not_the_answer(
    cases: dict[str, list[dict[str, Any]]],
) -> None:
    for level in LEVELS:
        for case in cases[level][:30]:
            prompt = KK.prompt_func(case)
            for name in case["names"]:
                assert prompt.count(f'{name} says: "') == 1
            assert KK.reference_answer(case) not in prompt
            assert "<answer>" in prompt and "</answer>" in prompt


def test_each_kind_renders_as_documented() -> None:
    names = ["Alice", "Bob", "Carol", "Dave"]
    statements = [
        {"speaker": 0, "kind": "is", "targets": [1], "role": "knave"},
        {"speaker": 1, "kind": "same", "targets": [0]},
        {"speaker": 2, "kind": "different", "targets": [3]},
        {"speaker": 3, "kind": "both", "targets": [0, 1], "role": "knight"},
        {"speaker": 0, "kind": "either", "targets": [2, 3], "role": "knave"},
        {"speaker": 1, "kind": "exactly_one", "targets": [0, 2, 3], "role": "knight"},
        {"speaker": 2, "kind": "count", "targets": [0, 1, 2, 3], "role": "knave", "count": 2},
        {"speaker": 3, "kind": "count", "targets": [0, 1, 2, 3], "role": "knight", "count": 1},
        {"speaker": 0, "kind": "count", "targets": [0, 1, 2, 3], "role": "knave", "count": 0},
        {"speaker": 1, "kind": "implies", "targets": [1, 3], "roles": ["knight", "knave"]},
        {"speaker": 2, "kind": "implies", "targets": [0, 1], "roles": ["knave", "knight"]},
    ]
    prompt = KK.prompt_func({"names": names, "statements": statements, "solution": []})
    expected = [
        'Alice says: "Bob is a knave."',
        'Bob says: "Alice and I are the same kind."',
        'Carol says: "Dave and I are different kinds."',
        'Dave says: "Alice and Bob are both knights."',
        'Alice says: "At least one of Carol and Dave is a knave."',
        'Bob says: "Exactly one of Alice, Carol and Dave is a knight."',
        'Carol says: "Exactly 2 of us are knaves."',
        'Dave says: "Exactly 1 of us is a knight."',
        'Alice says: "None of us is a knave."',
        'Bob says: "If I am a knight, then Dave is a knave."',
        'Carol says: "If Alice is a knave, then Bob is a knight."',
    ]
    for line in expected:
        assert line in prompt


# ---------------------------------------------------------------------------------------
# Verification
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_reference_answer_scores_one(level: str, cases: dict[str, list[dict[str, Any]]]) -> None:
    for case in cases[level]:
        assert KK.verify_score(KK.wrap_answer(KK.reference_answer(case)), case) == 1.0


def test_classic_puzzles_by_hand() -> None:
    """Two textbook deductions, solved by hand."""
    # "Bob and I are the same kind" makes Bob a knight whatever Alice is; then Bob's
    # true statement makes Alice a knave.
    same = {
        "names": ["Alice", "Bob"],
        "statements": [
            {"speaker": 0, "kind": "same", "targets": [1]},
            {"speaker": 1, "kind": "is", "targets": [0], "role": "knave"},
        ],
        "solution": ["knave", "knight"],
    }
    assert score("Alice: knave, Bob: knight", same) == 1.0
    for wrong in ("Alice: knight, Bob: knight", "Alice: knave, Bob: knave"):
        assert score(wrong, same) == 0.0
    # "If I am a knight, then Bob is a knave": a knave could not say it, so Alice is a
    # knight and Bob a knave; Bob's "Alice is a knave" is then a lie, as it must be.
    conditional = {
        "names": ["Alice", "Bob"],
        "statements": [
            {"speaker": 0, "kind": "implies", "targets": [0, 1], "roles": ["knight", "knave"]},
            {"speaker": 1, "kind": "is", "targets": [0], "role": "knave"},
        ],
        "solution": ["knight", "knave"],
    }
    assert score("Alice: knight, Bob: knave", conditional) == 1.0
    assert score("Alice: knave, Bob: knight", conditional) == 0.0


def test_verifier_checks_rules_not_the_stored_solution() -> None:
    """A puzzle with two consistent assignments: both are accepted."""
    case = {
        "names": ["Alice", "Bob"],
        "statements": [
            {"speaker": 0, "kind": "is", "targets": [1], "role": "knight"},
            {"speaker": 1, "kind": "is", "targets": [0], "role": "knight"},
        ],
        "solution": ["knight", "knight"],
    }
    assert score("Alice: knight, Bob: knight", case) == 1.0
    assert score("Alice: knave, Bob: knave", case) == 1.0
    assert score("Alice: knight, Bob: knave", case) == 0.0


def test_lenient_formats_are_accepted(cases: dict[str, list[dict[str, Any]]]) -> None:
    case = cases["medium"][0]
    pairs = list(zip(case["names"], case["solution"], strict=True))
    variants = [
        ", ".join(f"{n}: {r}" for n, r in reversed(pairs)),
        "; ".join(f"{n.upper()}:{r.upper()}" for n, r in pairs),
        "\n".join(f"- {n} is a {r}" for n, r in pairs),
        " and ".join(f"{n.lower()} = {r}" for n, r in pairs),
        "\n\n".join(f"  {n}   -   {r}.  " for n, r in pairs),
        ", ".join(f"{n} {r}" for n, r in pairs),
    ]
    for text in variants:
        assert score(text, case) == 1.0, text


def corruptions(case: dict[str, Any], rng: random.Random) -> dict[str, str]:
    names, roles = case["names"], case["solution"]
    pairs = [f"{n}: {r}" for n, r in zip(names, roles, strict=True)]
    flip = rng.randrange(len(names))
    flipped = [
        f"{n}: {('knave' if r == 'knight' else 'knight') if i == flip else r}"
        for i, (n, r) in enumerate(zip(names, roles, strict=True))
    ]
    other_role = "knave" if roles[0] == "knight" else "knight"
    return {
        "one role flipped": ", ".join(flipped),
        "all roles flipped": ", ".join(
            f"{n}: {'knave' if r == 'knight' else 'knight'}"
            for n, r in zip(names, roles, strict=True)
        ),
        "inhabitant missing": ", ".join(pairs[:-1]),
        "inhabitant twice, same role": ", ".join([*pairs, pairs[0]]),
        "inhabitant twice, both roles": ", ".join([*pairs, f"{names[0]}: {other_role}"]),
        "unknown name": ", ".join([*pairs[:-1], f"Zed: {roles[-1]}"]),
        "extra stranger": ", ".join([*pairs, "Zed: knight"]),
        "misspelt role": ", ".join([*pairs[:-1], f"{names[-1]}: kniht"]),
        "undecided": ", ".join([*pairs[:-1], f"{names[-1]}: knight or knave"]),
        "no roles": ", ".join(names),
        "everyone alike": ", ".join(
            f"{n}: {'knight' if 'knave' in roles else 'knave'}" for n in names
        ),
    }


@pytest.mark.parametrize("level", LEVELS)
def test_corrupted_answers_are_rejected(level: str, cases: dict[str, list[dict[str, Any]]]) -> None:
    rng = random.Random(level)
    for case in cases[level][:40]:
        for kind, text in corruptions(case, rng).items():
            assert score(text, case) == 0.0, kind


@pytest.mark.parametrize(
    "response",
    [
        "",
        "Alice: knight",
        "<answer></answer>",
        "<answer>   </answer>",
        "<answer>lorem ipsum dolor sit amet</answer>",
        "<answer>Алиса: рыцарь, Боб: лжец</answer>",
        "<answer>ünïcödé ✓ 骑士 and 无赖</answer>",
        "<answer>" + "Alice: knight, " * 70_000 + "</answer>",
        "<answer>" + "a" * 1_000_000 + "</answer>",
        "<answer>" + "knight " * 150_000 + "</answer>",
        "<answer>\x00\x01\x02</answer>",
    ],
)
def test_garbage_scores_zero_without_raising(response: str) -> None:
    for level in LEVELS:
        case = KK.from_level(level, seed=1).case_generator()
        start = time.perf_counter()
        assert KK.verify_score(response, case) == 0.0
        assert time.perf_counter() - start < 0.5


def test_random_garbage_never_raises(cases: dict[str, list[dict[str, Any]]]) -> None:
    rng = random.Random(0)
    case = cases["easy"][0]
    words = [*case["names"], "knight", "knave", ":", ",", ";", "\n", "is", "a", "and", "-", "x"]
    for _ in range(500):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 8)))
        result = score(text, case)
        assert result == 0.0 or all(name in text for name in case["names"])
