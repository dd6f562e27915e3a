"""`synth sources list|show|export|validate` (the typer sub-app, invoked in-process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sources_helpers import FIXTURES, SUM_PY3, record, sum_statement, write_jsonl
from typer.testing import CliRunner

from synth.commands.sources import app, detect_format
from synth.tasks import SourceError, TaskDescription, read_task_file

runner = CliRunner()


def test_list_names_every_source() -> None:
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0, result.output
    for name in ("codecontests", "humaneval", "local", "jsonl"):
        assert name in result.stdout


def test_export_humaneval_writes_164_tasks(tmp_path: Path) -> None:
    out = tmp_path / "h.jsonl"
    result = runner.invoke(app, ["export", "humaneval", "--out", str(out)])
    assert result.exit_code == 0, result.output
    tasks = list(read_task_file(out))
    assert len(tasks) == 164 and all(isinstance(t, TaskDescription) for t in tasks)
    assert "humaneval: loaded 164, skipped 0" in result.stderr


def test_export_bundled_codecontests_sample(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    result = runner.invoke(app, ["export", "codecontests", "--out", str(out),
                                 "--backend", "process"])
    assert result.exit_code == 0, result.output
    assert "using the bundled sample" in result.stderr
    tasks = [t for t in read_task_file(out) if isinstance(t, TaskDescription)]
    assert len(tasks) >= 12
    assert f"codecontests: loaded {len(tasks)}, skipped 0" in result.stderr


def test_export_reports_skips_by_reason_and_writes_them(tmp_path: Path) -> None:
    out, skipped = tmp_path / "a.jsonl", tmp_path / "skipped.jsonl"
    result = runner.invoke(app, ["export", "codecontests", "--path",
                                 str(FIXTURES / "acceptance.jsonl"), "--out", str(out),
                                 "--skipped", str(skipped)])
    assert result.exit_code == 0, result.output
    assert [t.title for t in read_task_file(out) if isinstance(t, TaskDescription)] == [
        "Pair Sum", "Largest of Three"]
    assert ("codecontests: loaded 2, skipped 8 (duplicate 1, file_io 1, malformed_json 1, "
            "no_python3_solution 1, rating_out_of_band 3, reference_wrong_output 1)"
            ) in result.stderr
    assert "acceptance.jsonl:8: malformed_json" in result.stderr
    errors = [SourceError.model_validate_json(line) for line in skipped.read_text().splitlines()]
    assert len(errors) == 8


def test_export_rating_options_and_no_verify(tmp_path: Path) -> None:
    out = tmp_path / "b.jsonl"
    result = runner.invoke(app, ["export", "codecontests", "--path",
                                 str(FIXTURES / "acceptance.jsonl"), "--out", str(out),
                                 "--min-rating", "1500", "--max-rating", "3000", "--no-verify"])
    assert result.exit_code == 0, result.output
    titles = [t.title for t in read_task_file(out) if isinstance(t, TaskDescription)]
    assert titles == ["Largest of Three", "Far Too Hard"]


def test_export_failures_are_one_line_and_write_nothing(tmp_path: Path) -> None:
    out = tmp_path / "never.jsonl"
    result = runner.invoke(app, ["export", "codecontests", "--path", str(tmp_path / "nope"),
                                 "--out", str(out)])
    assert result.exit_code == 2
    assert "does not exist; pass --path" in result.stderr and not out.exists()
    assert list(tmp_path.iterdir()) == []
    result = runner.invoke(app, ["export", "humaneval", "--min-rating", "3", "--out", str(out)])
    assert result.exit_code == 2 and "--min-rating does not apply to source 'humaneval'" in (
        result.stderr)
    result = runner.invoke(app, ["export", "nosuch", "--out", str(out)])
    assert result.exit_code == 2 and "unknown source 'nosuch'" in result.stderr
    result = runner.invoke(app, ["export", "jsonl", "--path", str(FIXTURES / "acceptance.jsonl"),
                                 "--map", "statement", "--out", str(out)])
    assert result.exit_code == 2 and "TARGET=FIELD" in result.stderr
    assert not out.exists()


def test_export_jsonl_with_mapping(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "mine.jsonl", [{"name": "A", "question": "Do A."},
                                                 {"name": "B", "question": "Do B."}])
    out = tmp_path / "o.jsonl"
    result = runner.invoke(app, ["export", "jsonl", "--path", str(src), "--map", "title=name",
                                 "--map", "statement=question", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert [t.title for t in read_task_file(out) if isinstance(t, TaskDescription)] == ["A", "B"]


def test_show_renders_tasks(tmp_path: Path) -> None:
    result = runner.invoke(app, ["show", "local", "--path", str(FIXTURES / "puzzles"),
                                 "--limit", "1"])
    assert result.exit_code == 0, result.output
    assert "local/coin-weighing" in result.stdout and "Find the fake coin" in result.stdout
    assert "tile-count" not in result.stdout
    result = runner.invoke(app, ["show", "humaneval", "--limit", "2"])
    assert result.exit_code == 0
    assert "humaneval/1-separate-paren-groups-" in result.stdout
    assert "example input" in result.stdout


def test_validate_reports_problems_and_exit_codes(tmp_path: Path) -> None:
    good = write_jsonl(tmp_path / "good.jsonl", [record("1_A. Good", sum_statement(),
                                                        cf_rating=2900)])
    result = runner.invoke(app, ["validate", str(good), "--no-verify"])
    assert result.exit_code == 0, result.output  # a user's file: any rating is fine
    assert '"valid": true' in result.stderr
    bad = write_jsonl(tmp_path / "bad.jsonl", [
        record("1_A. Good", sum_statement(), solutions={"language": [3], "solution": [SUM_PY3]}),
        record("2_A. Wrong", sum_statement(" 2"),
               solutions={"language": [3], "solution": ["print(0)"]}),
        "{broken",
    ])
    result = runner.invoke(app, ["validate", str(bad), "--json"])
    assert result.exit_code == 1
    problems = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(p["line"], p["reason"]) for p in problems] == [
        (2, "reference_wrong_output"), (3, "malformed_json")]
    result = runner.invoke(app, ["validate", str(FIXTURES / "puzzles")])
    assert result.exit_code == 0 and "loaded 2, skipped 0" in result.stderr
    md = tmp_path / "p.md"
    md.write_text("no front matter\n")
    result = runner.invoke(app, ["validate", str(md)])
    assert result.exit_code == 1 and "bad_front_matter" in result.stdout


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ({"name": "n", "description": "d", "public_tests": {}}, "codecontests"),
        ({"task_id": "a/1", "prompt": "p", "canonical_solution": "c"}, "humaneval"),
        ({"id": "x/y", "source": "x", "kind": "description", "statement": "s",
          "provenance": {}}, "tasks"),
        ({"question": "q"}, "jsonl"),
    ],
)
def test_detect_format(tmp_path: Path, content: dict[str, object], expected: str) -> None:
    path = write_jsonl(tmp_path / "f.jsonl", ["{bad", content])
    assert detect_format(path) == expected
