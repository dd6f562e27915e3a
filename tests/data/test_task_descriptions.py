"""Checks of the bundled task descriptions in ``task_descriptions/``.

* ``codecontests/sample.jsonl`` (problems 01-18) and ``codecontests/more.jsonl`` (19-42): every
  row has exactly the field set and types of the HF ``deepmind/code_contests`` schema, and every
  Python 3 reference solution reproduces all of its public and private tests when run as a
  program (stdin -> stdout) in a fresh interpreter.
* ``puzzles/*.md``: valid YAML front matter with unique ids and a complete, sectioned body.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
CODECONTESTS = REPO / "task_descriptions" / "codecontests"
#: the bundled files, in the source's reading order, and how many problems each holds
FILES = {"sample.jsonl": 18, "more.jsonl": 24}
PUZZLES = REPO / "task_descriptions" / "puzzles"

# Enum values of the dataset (contest_problem.proto of google-deepmind/code_contests).
PYTHON3 = 3
LANGUAGES = range(0, 5)  # UNKNOWN_LANGUAGE, PYTHON (2), CPP, PYTHON3, JAVA
CODEFORCES = 2
SOURCES = range(0, 7)  # UNKNOWN_SOURCE, CODECHEF, CODEFORCES, HACKEREARTH, CODEJAM, ATCODER, AIZU
DIFFICULTY_A = 7  # Codeforces problems use A=7, B=8, ... V=28
DIFFICULTIES = range(0, 29)

TESTS_STRUCT = {"input": list, "output": list}
SOLUTIONS_STRUCT = {"language": list, "solution": list}
SCHEMA: dict[str, Any] = {
    "name": str,
    "description": str,
    "public_tests": TESTS_STRUCT,
    "private_tests": TESTS_STRUCT,
    "generated_tests": TESTS_STRUCT,
    "source": int,
    "difficulty": int,
    "solutions": SOLUTIONS_STRUCT,
    "incorrect_solutions": SOLUTIONS_STRUCT,
    "cf_contest_id": int,
    "cf_index": str,
    "cf_points": float,
    "cf_rating": int,
    "cf_tags": list,
    "is_description_translated": bool,
    "untranslated_description": str,
    "time_limit": {"seconds": int, "nanos": int},
    "memory_limit_bytes": int,
    "input_file": str,
    "output_file": str,
}

# The Codeforces tag vocabulary (the values ``cf_tags`` takes in the dataset).
CF_TAGS = {
    "2-sat",
    "binary search",
    "bitmasks",
    "brute force",
    "chinese remainder theorem",
    "combinatorics",
    "constructive algorithms",
    "data structures",
    "dfs and similar",
    "divide and conquer",
    "dp",
    "dsu",
    "expression parsing",
    "fft",
    "flows",
    "games",
    "geometry",
    "graph matchings",
    "graphs",
    "greedy",
    "hashing",
    "implementation",
    "interactive",
    "math",
    "matrices",
    "meet-in-the-middle",
    "number theory",
    "probabilities",
    "schedules",
    "shortest paths",
    "sortings",
    "string suffix structures",
    "strings",
    "ternary search",
    "trees",
    "two pointers",
}

PUZZLE_SECTIONS = (
    "## Rules",
    "## Instance",
    "## Difficulty",
    "## Answer format",
    "## Checking",
    "## Edge cases",
)


def _rows(name: str) -> list[dict[str, Any]]:
    with (CODECONTESTS / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


ROWS = [row for name in FILES for row in _rows(name)]


def _check_type(value: Any, spec: Any, where: str) -> None:
    if isinstance(spec, dict):
        assert isinstance(value, dict), f"{where}: expected an object"
        assert set(value) == set(spec), f"{where}: fields {sorted(value)} != {sorted(spec)}"
        for key, sub in spec.items():
            _check_type(value[key], sub, f"{where}.{key}")
    elif spec is int:
        assert type(value) is int, f"{where}: expected int, got {type(value).__name__}"
    else:
        assert isinstance(value, spec), f"{where}: expected {spec.__name__}"


def _same_output(got: str, expected: str) -> bool:
    def lines(text: str) -> list[str]:
        return [line.rstrip() for line in text.strip().splitlines()]

    return lines(got) == lines(expected)


def _run(code: str, stdin: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-I", "-S", "-c", code],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_the_files_hold_problems_numbered_01_to_42_in_order() -> None:
    assert {p.name for p in CODECONTESTS.glob("*.jsonl")} == set(FILES)
    assert [len(_rows(name)) for name in FILES] == list(FILES.values())
    assert [int(r["name"].split("_", 1)[0]) for r in ROWS] == list(range(1, len(ROWS) + 1))
    assert all(r["name"][:2].isdigit() and r["name"][2] == "_" for r in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_row_matches_code_contests_schema(row: dict[str, Any]) -> None:
    _check_type(row, SCHEMA, row["name"])
    for key in ("public_tests", "private_tests", "generated_tests"):
        tests = row[key]
        assert len(tests["input"]) == len(tests["output"]), key
        assert all(isinstance(x, str) for x in tests["input"] + tests["output"]), key
    for key in ("solutions", "incorrect_solutions"):
        sols = row[key]
        assert len(sols["language"]) == len(sols["solution"]), key
        assert all(type(x) is int and x in LANGUAGES for x in sols["language"]), key
        assert all(isinstance(x, str) for x in sols["solution"]), key
    assert all(isinstance(tag, str) for tag in row["cf_tags"])


@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_row_content(row: dict[str, Any]) -> None:
    match = re.fullmatch(r"(\d+)_([A-Z])\. (\S.*)", row["name"])
    assert match, row["name"]
    assert match.group(2) == row["cf_index"]
    assert row["source"] == CODEFORCES and row["source"] in SOURCES
    assert row["difficulty"] in DIFFICULTIES
    assert row["difficulty"] == DIFFICULTY_A + ord(row["cf_index"]) - ord("A")
    assert 1 <= len(row["public_tests"]["input"]) <= 2
    assert 4 <= len(row["private_tests"]["input"]) <= 8
    assert PYTHON3 in row["solutions"]["language"]
    assert row["cf_tags"] and set(row["cf_tags"]) <= CF_TAGS, row["cf_tags"]
    assert row["input_file"] == "" and row["output_file"] == ""
    assert row["time_limit"]["seconds"] >= 1
    assert row["memory_limit_bytes"] > 0
    text = row["description"]
    assert "\nInput\n" in text and "\nOutput\n" in text
    for example in row["public_tests"]["input"]:
        assert example.strip() in text, "the statement shows every public test as an example"
    # Private tests differ from the examples and from each other.
    inputs = row["public_tests"]["input"] + row["private_tests"]["input"]
    assert len(set(inputs)) == len(inputs)


def test_names_and_statements_unique() -> None:
    names = [r["name"] for r in ROWS]
    assert len(set(names)) == len(names)
    titles = [r["name"].split(". ", 1)[1].lower() for r in ROWS]
    assert len(set(titles)) == len(titles)
    statements = {" ".join(r["description"].lower().split()) for r in ROWS}
    assert len(statements) == len(ROWS)


def test_ratings_spread_over_band() -> None:
    ratings = [r["cf_rating"] for r in ROWS]
    assert all(1000 <= x <= 2000 and x % 100 == 0 for x in ratings)
    assert min(ratings) == 1000 and max(ratings) == 2000
    assert len(set(ratings)) >= 8
    for low in range(1000, 2000, 200):
        assert any(low <= x < low + 200 for x in ratings), (
            f"no problem rated in [{low}, {low + 200})"
        )


def test_tags_are_varied() -> None:
    tags = {t for r in ROWS for t in r["cf_tags"]}
    for needed in (
        "greedy",
        "math",
        "strings",
        "sortings",
        "two pointers",
        "dp",
        "graphs",
        "number theory",
        "trees",
    ):
        assert needed in tags, needed


def _all_tests(row: dict[str, Any]) -> list[tuple[str, str]]:
    tests = list(zip(row["public_tests"]["input"], row["public_tests"]["output"], strict=True))
    tests += list(zip(row["private_tests"]["input"], row["private_tests"]["output"], strict=True))
    return tests


def _failures(code: str, tests: list[tuple[str, str]], timeout: float) -> list[str]:
    """Run ``code`` on every test input; describe each test it does not reproduce."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda t: _run(code, t[0], timeout), tests))
    failures = []
    for k, ((stdin, expected), proc) in enumerate(zip(tests, results, strict=True)):
        if proc.returncode != 0:
            failures.append(f"test {k}: exit {proc.returncode}: {proc.stderr[-300:]}")
        elif not _same_output(proc.stdout, expected):
            failures.append(
                f"test {k}: input {stdin[:80]!r} expected {expected[:80]!r} "
                f"got {proc.stdout[:80]!r}"
            )
    return failures


def _reference(row: dict[str, Any]) -> str:
    solutions = row["solutions"]
    code: str = solutions["solution"][solutions["language"].index(PYTHON3)]
    return code


@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_reference_solution_reproduces_all_tests(row: dict[str, Any]) -> None:
    timeout = 10.0 * row["time_limit"]["seconds"]
    assert _failures(_reference(row), _all_tests(row), timeout) == []


def test_reproduction_check_catches_wrong_programs() -> None:
    row = next(r for r in ROWS if r["name"] == "01_A. Stack Leveling")
    tests = _all_tests(row)
    # Levelling to the lowest stack instead of the median is wrong on the first example.
    wrong = _reference(row).replace("h[n // 2]", "h[0]")
    assert wrong != _reference(row)
    assert _failures(wrong, tests, 10.0)
    crashing = "raise SystemExit(3)"
    assert len(_failures(crashing, tests, 10.0)) == len(tests)


def test_schema_check_rejects_deviations() -> None:
    good = ROWS[0]
    _check_type(good, SCHEMA, "row")
    extra = {**good, "url": ""}
    missing = {k: v for k, v in good.items() if k != "cf_tags"}
    bad_int = {**good, "cf_rating": 1500.0}
    bad_bool = {**good, "source": True}
    bad_nested = {**good, "time_limit": {"seconds": 2}}
    for broken in (extra, missing, bad_int, bad_bool, bad_nested):
        with pytest.raises(AssertionError):
            _check_type(broken, SCHEMA, "row")


def test_output_comparison_is_strict() -> None:
    assert _same_output("3 4\n", "3 4")
    assert _same_output("1\n2  \n", "1\n2\n")
    assert not _same_output("3 5\n", "3 4\n")
    assert not _same_output("1\n2\n", "1 2\n")


# --------------------------------------------------------------------------- puzzles

FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n(.*)\Z", re.DOTALL)
PUZZLE_FILES = sorted(PUZZLES.glob("*.md"))


def _parse_puzzle(path: Path) -> tuple[dict[str, Any], str]:
    text = path.read_text(encoding="utf-8")
    match = FRONT_MATTER.match(text)
    assert match, f"{path.name}: no YAML front matter between '---' lines"
    meta = yaml.safe_load(match.group(1))
    assert isinstance(meta, dict), path.name
    return meta, match.group(2)


def test_enough_puzzles() -> None:
    assert len(PUZZLE_FILES) >= 10


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=[p.name for p in PUZZLE_FILES])
def test_puzzle_front_matter_and_body(path: Path) -> None:
    meta, body = _parse_puzzle(path)
    assert set(meta) == {"id", "title", "tags", "notes"}, sorted(meta)
    assert isinstance(meta["id"], str) and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", meta["id"])
    assert meta["id"] == path.stem
    assert isinstance(meta["title"], str) and meta["title"].strip()
    assert isinstance(meta["tags"], list) and meta["tags"]
    assert all(isinstance(t, str) and t for t in meta["tags"])
    assert isinstance(meta["notes"], str) and meta["notes"].strip()
    assert len(body.split()) >= 300, "the body must be a complete task description"
    positions = [body.find(section + "\n") for section in PUZZLE_SECTIONS]
    assert all(p >= 0 for p in positions), f"missing sections in {path.name}"
    assert positions == sorted(positions), "sections appear in the documented order"
    answer = body[positions[3] : positions[4]]
    assert "<answer>" in answer, "the answer format section shows the answer tags"


def test_puzzle_ids_and_titles_unique() -> None:
    metas = [_parse_puzzle(p)[0] for p in PUZZLE_FILES]
    ids = [m["id"] for m in metas]
    titles = [m["title"].lower() for m in metas]
    assert len(set(ids)) == len(ids)
    assert len(set(titles)) == len(titles)


def test_puzzle_parser_rejects_missing_front_matter(tmp_path: Path) -> None:
    plain = tmp_path / "plain.md"
    plain.write_text("# Title\n\nNo front matter here.\n", encoding="utf-8")
    with pytest.raises(AssertionError):
        _parse_puzzle(plain)
    ok = tmp_path / "ok.md"
    ok.write_text("---\nid: ok\ntitle: T\ntags: [a]\nnotes: n\n---\nbody\n", encoding="utf-8")
    meta, body = _parse_puzzle(ok)
    assert meta == {"id": "ok", "title": "T", "tags": ["a"], "notes": "n"}
    assert body == "body\n"
