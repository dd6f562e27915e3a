"""`synth review` from the command line, each call a new process: list, show, accept, reject;
the decisions are what `synth library list` and `synth export` see afterwards."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import HOSTILE, REVIEW, SYNTH, ReviewRun, run_cli
from typer.testing import CliRunner

from synth.commands.review import app
from synth.library import Library


def _names(stdout: str, candidates: list[str]) -> list[str]:
    return [n for n in candidates if n in stdout]


ALL = ["local_accept_a", "local_accept_x", "local_revise_b", HOSTILE]


def test_cli_mounts_review():
    """The lead mounts the typer app as `synth review` (see the report)."""
    res = run_cli([*SYNTH, "review", "--help"])
    assert res.returncode == 0, res.stderr
    assert "--serve" in res.stdout and "reject" in res.stdout


def test_list_defaults_to_pending_review(library: Path):
    res = run_cli([*REVIEW, "--library", str(library)])
    assert res.returncode == 0, res.stderr
    assert "4 bootcamp(s), pending-review" in res.stdout
    assert _names(res.stdout, ALL) == ALL
    cli = CliRunner()
    out = cli.invoke(app, ["--library", str(library), "--status", "accepted"], env={"COLUMNS": "200"})
    assert out.exit_code == 0 and "0 bootcamp(s), accepted" in out.output
    out = cli.invoke(app, ["--library", str(library), "--status", "pending"])
    assert out.exit_code == 2 and "unknown status" in out.output


def test_show_prints_everything_a_reviewer_needs(review_run: ReviewRun, library: Path):
    res = run_cli([*REVIEW, "show", "local_revise_b", "--library", str(library),
                   "--runs-dir", str(review_run.runs_dir), "--sandbox", "process", "--per-level", "1"])
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "class ToySumBootcamp(BaseBootcamp)" in out  # the code
    for level in ("easy", "medium", "hard"):
        assert f"sample case: level {level}" in out
    assert "reference answer" in out and "<answer>N</answer>" in out  # printed as text, not markup
    assert "solver responses: accepted" in out
    assert "gate report of round_1_0 (passed" in out and "self_consistency" in out
    assert "repair round 1: round_0_0 -> round_1_0 (+1 -2)" in out and "-import os" in out
    assert "round_1_0 (committed)" in out


def test_show_json_and_unknown_name(review_run: ReviewRun, library: Path):
    res = run_cli([*REVIEW, "show", "local_accept_a", "--json", "--library", str(library),
                   "--runs-dir", str(review_run.runs_dir), "--sandbox", "process", "--per-level", "1"])
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["record"]["name"] == "local_accept_a" and data["winner"] == "round_0_0"
    assert [s["level"] for s in data["samples"]] == ["easy", "medium", "hard"]
    for s in data["samples"]:
        assert s["answer"] == str(sum(json.loads(s["identity"])["numbers"]))
    assert data["gate"]["passed"] is True and data["diffs"] == []
    out = CliRunner().invoke(app, ["show", "nope", "--library", str(library)])
    assert out.exit_code == 2 and "no bootcamp named 'nope'" in out.output


def test_refused_decisions_change_nothing(library: Path):
    cli = CliRunner()
    before = (library / "manifest.json").read_bytes()
    res = cli.invoke(app, ["reject", "local_accept_a", "--library", str(library)])
    assert res.exit_code == 2 and "--reason" in res.output  # the reason is required
    res = cli.invoke(app, ["reject", "local_accept_a", "--reason", " ", "--library", str(library)])
    assert res.exit_code == 2 and "needs a reason" in res.output
    res = cli.invoke(app, ["accept", "nope", "--library", str(library)])
    assert res.exit_code == 2 and "no bootcamp named 'nope'" in res.output
    res = cli.invoke(app, ["--serve", "show", "local_accept_a", "--library", str(library)])
    assert res.exit_code == 2 and "does not combine" in res.output
    assert (library / "manifest.json").read_bytes() == before
    res = cli.invoke(app, ["accept", "local_accept_a", "--library", str(library)])
    assert res.exit_code == 0 and "accepted local_accept_a" in res.output
    res = cli.invoke(app, ["accept", "local_accept_a", "--library", str(library)])
    assert res.exit_code == 2 and "already accepted" in res.output


def test_accept_reject_survive_and_reach_library_list_and_export(library: Path, tmp_path: Path):
    res = run_cli([*REVIEW, "reject", "local_accept_a", "--reason", "verifier too lenient",
                   "--library", str(library)])
    assert res.returncode == 0, res.stderr
    assert "rejected local_accept_a" in res.stdout
    res = run_cli([*REVIEW, "accept", "local_revise_b", "--library", str(library)])
    assert res.returncode == 0, res.stderr

    # the manifest holds the decisions; the rejected module stays on disk
    recs = {r.name: r for r in Library(library).records(None)}
    assert recs["local_accept_a"].status == "rejected-in-review"
    assert recs["local_accept_a"].review_reason == "verifier too lenient"
    assert recs["local_revise_b"].status == "accepted"
    assert (library / recs["local_accept_a"].module_path).exists()

    # new processes: review lists, library list, export
    res = run_cli([*REVIEW, "--library", str(library), "--status", "rejected-in-review"])
    assert _names(res.stdout, ALL) == ["local_accept_a"] and "verifier too lenient" in res.stdout
    res = run_cli([*SYNTH, "library", "list", "--json", "--library", str(library)])
    assert res.returncode == 0, res.stderr
    assert [json.loads(line)["name"] for line in res.stdout.splitlines()] == ["local_revise_b"]

    out = tmp_path / "export"
    res = run_cli([*SYNTH, "export", "--out", str(out), "--library", str(library),
                   "--per-bootcamp", "6", "--test-per-bootcamp", "2", "--workers", "1"])
    assert res.returncode == 0, res.stderr
    sources = {json.loads(line)["data_source"] for split in ("train", "test")
               for line in (out / f"{split}.jsonl").read_text().splitlines()}
    assert sources == {"bootcamp/local_revise_b"}
    res = run_cli([*SYNTH, "export", "--out", str(tmp_path / "x"), "--library", str(library),
                   "--bootcamp", "local_accept_a", "--workers", "1"])
    assert res.returncode == 2 and "not loadable" in res.stderr
