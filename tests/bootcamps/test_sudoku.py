"""Tests of the hand-written Sudoku seed bootcamp."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from helpers import cases_in_subprocess

from generated_bootcamps.handwritten.sudoku import SudokuBootcamp as Sudoku

LEVELS = list(Sudoku.LEVELS)
N_CASES = 200


@pytest.fixture(scope="module")
def cases() -> dict[str, list[dict[str, Any]]]:
    """200 cases per level (seed 7), generated once for the module."""
    out = {}
    for level in LEVELS:
        camp = Sudoku.from_level(level, seed=7)
        out[level] = [camp.case_generator() for _ in range(N_CASES)]
    return out


def count_solutions(puzzle: list[str], box_rows: int, box_cols: int, limit: int = 2) -> int:
    """An independent, set-based solution counter (most constrained cell first)."""
    n = len(puzzle)
    grid = [[0 if ch == "." else int(ch) for ch in row] for row in puzzle]

    def candidates(r: int, c: int) -> set[int]:
        top, left = r - r % box_rows, c - c % box_cols
        used = set(grid[r]) | {grid[i][c] for i in range(n)}
        used |= {
            grid[i][j] for i in range(top, top + box_rows) for j in range(left, left + box_cols)
        }
        return set(range(1, n + 1)) - used

    def solve() -> int:
        empty = [(r, c) for r in range(n) for c in range(n) if not grid[r][c]]
        if not empty:
            return 1
        r, c = min(empty, key=lambda rc: len(candidates(*rc)))
        total = 0
        for d in sorted(candidates(r, c)):
            grid[r][c] = d
            total += solve()
            grid[r][c] = 0
            if total >= limit:
                break
        return min(total, limit)

    return solve()


def is_valid_grid(rows: list[str], box_rows: int, box_cols: int) -> bool:
    n = len(rows)
    digits = {str(d) for d in range(1, n + 1)}
    units = [list(row) for row in rows] + [[row[c] for row in rows] for c in range(n)]
    units += [
        [rows[r][c] for r in range(top, top + box_rows) for c in range(left, left + box_cols)]
        for top in range(0, n, box_rows)
        for left in range(0, n, box_cols)
    ]
    return all(len(row) == n for row in rows) and all(set(u) == digits for u in units)


def relabel(rows: list[str], mapping: dict[str, str]) -> list[str]:
    return ["".join(mapping[ch] for ch in row) for row in rows]


# ---------------------------------------------------------------------------------------
# Determinism, diversity, levels, parameters
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_cases_and_other_seed_differs(level: str) -> None:
    first = [Sudoku.from_level(level, seed=3).case_generator() for _ in range(5)]
    again = [Sudoku.from_level(level, seed=3).case_generator() for _ in range(5)]
    other = [Sudoku.from_level(level, seed=4).case_generator() for _ in range(5)]
    assert first == again
    assert first != other


def test_determinism_across_processes_with_other_hash_seed() -> None:
    outputs = [
        cases_in_subprocess("generated_bootcamps.handwritten.sudoku", "SudokuBootcamp", seed=11, count=3,
                            hash_seed=hash_seed)
        for hash_seed in ("1", "987")
    ]
    local = {}
    for level in LEVELS:
        camp = Sudoku.from_level(level, seed=11)
        local[level] = [camp.case_generator() for _ in range(3)]
    assert outputs[0] == outputs[1] == local


@pytest.mark.parametrize("level", LEVELS)
def test_cases_are_distinct_json_exact_and_answers_vary(
    level: str, cases: dict[str, list[dict[str, Any]]]
) -> None:
    batch = cases[level]
    assert len({json.dumps(c, sort_keys=True) for c in batch}) >= 0.9 * N_CASES
    # Only 288 full 4x4 grids exist, so answers repeat on easy; they still vary widely.
    assert len({Sudoku.reference_answer(c) for c in batch}) >= 0.5 * N_CASES
    for case in batch:
        assert json.loads(json.dumps(case)) == case


def test_levels_grow_grid_and_blanks(cases: dict[str, list[dict[str, Any]]]) -> None:
    def mean_blanks(level: str) -> float:
        return sum("".join(c["puzzle"]).count(".") for c in cases[level]) / N_CASES

    sizes = [cases[level][0]["size"] for level in LEVELS]
    assert sizes == [4, 6, 9]
    assert mean_blanks("easy") < mean_blanks("medium") < mean_blanks("hard")
    prompt_lengths = [len(Sudoku.prompt_func(cases[level][0])) for level in LEVELS]
    assert prompt_lengths == sorted(prompt_lengths)


@pytest.mark.parametrize("level", LEVELS)
def test_generation_time_per_case(level: str) -> None:
    camp = Sudoku.from_level(level, seed=5)
    start = time.process_time()  # CPU time: robust to other jobs sharing the machine
    for _ in range(40):
        camp.case_generator()
    per_case = (time.process_time() - start) / 40
    # Measured about 0.2 / 0.8 / 9 ms of CPU; the bounds leave room for slower machines.
    assert per_case < (0.040 if level == "hard" else 0.010)


def test_parameters_are_validated() -> None:
    with pytest.raises(TypeError):
        Sudoku(seed=1, sise=4)  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        Sudoku(size=5)
    with pytest.raises(ValueError):
        Sudoku(size=4, max_blanks=16)
    with pytest.raises(ValueError):
        Sudoku(size=9, max_blanks=0)


# ---------------------------------------------------------------------------------------
# The cases are real Sudokus with a unique solution
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("level", "checked"), [("easy", 200), ("medium", 60), ("hard", 8)])
def test_puzzles_have_exactly_one_solution_matching_the_stored_one(
    level: str, checked: int, cases: dict[str, list[dict[str, Any]]]
) -> None:
    max_blanks = Sudoku.LEVELS[level]["max_blanks"]
    for case in cases[level][:checked]:
        puzzle, solution = case["puzzle"], case["solution"]
        assert is_valid_grid(solution, case["box_rows"], case["box_cols"])
        for given_row, row in zip(puzzle, solution, strict=True):
            assert all(g in (".", d) for g, d in zip(given_row, row, strict=True))
        assert "".join(puzzle).count(".") <= max_blanks
        assert count_solutions(puzzle, case["box_rows"], case["box_cols"]) == 1


def test_without_blank_cap_puzzles_are_minimal() -> None:
    """With max_blanks out of reach, every remaining clue is needed for uniqueness."""
    camp = Sudoku(seed=2, size=4, max_blanks=15)
    for _ in range(20):
        case = camp.case_generator()
        puzzle = case["puzzle"]
        for r in range(4):
            for c in range(4):
                if puzzle[r][c] != ".":
                    fewer = list(puzzle)
                    fewer[r] = fewer[r][:c] + "." + fewer[r][c + 1 :]
                    assert count_solutions(fewer, 2, 2) == 2


def test_box_shapes_follow_size() -> None:
    for size, shape in {4: (2, 2), 6: (2, 3), 9: (3, 3)}.items():
        case = Sudoku(seed=0, size=size, max_blanks=10).case_generator()
        assert (case["size"], case["box_rows"], case["box_cols"]) == (size, *shape)
        assert is_valid_grid(case["solution"], *shape)


def test_prompt_shows_puzzle_and_format_but_not_the_solution(
    cases: dict[str, list[dict[str, Any]]],
) -> None:
    for level in LEVELS:
        for case in cases[level][:20]:
            prompt = Sudoku.prompt_func(case)
            assert "\n".join(case["puzzle"]) in prompt
            assert Sudoku.reference_answer(case) not in prompt
            assert "<answer>" in prompt and "</answer>" in prompt
            assert f"{case['box_rows']} rows by {case['box_cols']} columns" in prompt


# ---------------------------------------------------------------------------------------
# Verification
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_reference_answer_scores_one(level: str, cases: dict[str, list[dict[str, Any]]]) -> None:
    for case in cases[level]:
        assert Sudoku.verify_score(Sudoku.wrap_answer(Sudoku.reference_answer(case)), case) == 1.0


def test_lenient_formats_are_accepted(cases: dict[str, list[dict[str, Any]]]) -> None:
    case = cases["hard"][0]
    rows = case["solution"]
    boxed = []
    for r, row in enumerate(rows):
        if r and r % 3 == 0:
            boxed.append("------+-------+------")
        boxed.append(" | ".join(" ".join(row[i : i + 3]) for i in range(0, 9, 3)))
    variants = [
        "/".join(rows),
        "\r\n".join(rows) + "\r\n",
        "\n\n" + "\n".join(" ".join(row) for row in rows) + "\n",
        "\n".join(",".join(row) for row in rows),
        "\n".join(boxed),
    ]
    for text in variants:
        assert Sudoku.verify_score(f"Done.\n<answer>{text}</answer>", case) == 1.0, text


def test_any_valid_completion_is_accepted_not_just_the_stored_one() -> None:
    """A rule check: on a board with no givens every valid grid is correct."""
    case = Sudoku(seed=9, size=6, max_blanks=10).case_generator()
    empty = {**case, "puzzle": ["." * 6] * 6}
    other = relabel(case["solution"], dict(zip("123456", "615243", strict=True)))
    assert other != case["solution"]
    assert Sudoku.verify_score(Sudoku.wrap_answer("\n".join(other)), empty) == 1.0
    # ... while on the real puzzle the relabelled grid breaks the givens.
    assert Sudoku.verify_score(Sudoku.wrap_answer("\n".join(other)), case) == 0.0


def corruptions(case: dict[str, Any], rng: random.Random) -> dict[str, str]:
    rows = list(case["solution"])
    n = case["size"]
    blanks = [(r, c) for r in range(n) for c in range(n) if case["puzzle"][r][c] == "."]
    r, c = rng.choice(blanks)
    row_blanks = [cc for rr, cc in blanks if rr == r and rows[r][cc] != rows[r][c]]
    out: dict[str, str] = {}
    if row_blanks:  # swap two blank cells of a row: the row stays a permutation
        c2 = rng.choice(row_blanks)
        swapped = list(rows[r])
        swapped[c], swapped[c2] = swapped[c2], swapped[c]
        out["swap in row"] = "\n".join([*rows[:r], "".join(swapped), *rows[r + 1 :]])
    wrong = str(int(rows[r][c]) % n + 1)
    out["one wrong digit"] = "\n".join(
        [*rows[:r], rows[r][:c] + wrong + rows[r][c + 1 :], *rows[r + 1 :]]
    )
    digits = "".join(str(d) for d in range(1, n + 1))
    shifted = digits[1:] + digits[0]
    out["valid grid, givens broken"] = "\n".join(
        relabel(rows, dict(zip(digits, shifted, strict=True)))
    )
    out["blank left"] = "\n".join([*rows[:r], rows[r][:c] + "." + rows[r][c + 1 :], *rows[r + 1 :]])
    out["digit out of range"] = "\n".join([*rows[:-1], rows[-1][:-1] + str(n + 1)])
    out["zero digit"] = "\n".join([*rows[:-1], rows[-1][:-1] + "0"])
    out["missing row"] = "\n".join(rows[:-1])
    out["extra row"] = "\n".join([*rows, rows[0]])
    out["long row"] = "\n".join([rows[0] + rows[0][0], *rows[1:]])
    out["short row"] = "\n".join([rows[0][:-1], *rows[1:]])
    out["transposed"] = "\n".join("".join(row[i] for row in rows) for i in range(n))
    out["flat, no rows"] = "".join(rows)
    out["words"] = "the answer is\n" + "\n".join(rows)
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_corrupted_answers_are_rejected(level: str, cases: dict[str, list[dict[str, Any]]]) -> None:
    rng = random.Random(level)
    for case in cases[level][:30]:
        for kind, text in corruptions(case, rng).items():
            if kind == "transposed" and text == Sudoku.reference_answer(case):
                continue  # a symmetric solution is its own transpose
            assert Sudoku.verify_score(Sudoku.wrap_answer(text), case) < 1.0, kind


@pytest.mark.parametrize(
    "response",
    [
        "",
        "no tags at all 1234",
        "<answer></answer>",
        "<answer>   </answer>",
        "<answer>lorem ipsum dolor sit amet</answer>",
        "<answer>١٢٣٤\n٣٤١٢\n٢١٤٣\n٤٣٢١</answer>",  # Arabic-Indic digits
        "<answer>１２３４\n３４１２\n２１４３\n４３２１</answer>",  # full-width digits
        "<answer>ünïcödé ✓ 数独</answer>",
        "<answer>" + "1" * 1_000_000 + "</answer>",
        "<answer>" + "123456789\n" * 100_000 + "</answer>",
        "<answer>\x00\x01\x02</answer>",
    ],
)
def test_garbage_scores_zero_without_raising(response: str) -> None:
    for level in LEVELS:
        case = Sudoku.from_level(level, seed=1).case_generator()
        start = time.perf_counter()
        assert Sudoku.verify_score(response, case) == 0.0
        assert time.perf_counter() - start < 0.5


def test_random_garbage_never_raises() -> None:
    rng = random.Random(0)
    case = Sudoku.from_level("easy", seed=1).case_generator()
    alphabet = "1234567890./|-+ \n\t,;abc"
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert Sudoku.verify_score(Sudoku.wrap_answer(text), case) == 0.0
