"""Trojan answer keys end to end: the real CLI against the scripted endpoint (scenario
``answer_key``, tests/fakes/answer_key_scenario.py) on four compiled tasks in the CodeContests
layout (tests/answer_key/key_tasks.py). Asserted on the run folder and the library.

* two honest solutions outvote a key that is wrong on a rare branch: a majority solution is
  embedded instead, and the record says "2 solutions agree ...";
* a single solution that forgets the final block is caught by the judge's solver (written from
  the statement and the examples alone), re-examined once, and the task is rejected;
* a task with several right answers and one solution is verified by the judge's solver, which
  the library keeps;
* a task whose judge gives no solver is rejected as key_unverified -- and committed, saying so,
  only with --allow-unverified-key.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from fakes.answer_key_scenario import PARCEL_TEXT, SOLVERS
from key_tasks import (
    STRETCH_LAST_RUN,
    TOWER_HONEST,
    WEIGHTS_HONEST,
    WEIGHTS_RARE,
    record,
)
from workflow.e2e import FakeEndpoint, only_run, outcomes, synth, synth_env

from synth.library import Library
from synth.runs import read_events


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def records() -> list[dict[str, Any]]:
    parcel = record(4, "weights", [WEIGHTS_HONEST[0]])
    parcel.update(name="04_A. Parcel Total", description=PARCEL_TEXT)
    return [record(1, "weights", [WEIGHTS_RARE, *WEIGHTS_HONEST[:2]]),
            record(2, "stretch", [STRETCH_LAST_RUN]),
            record(3, "tower", [TOWER_HONEST[0]]), parcel]


def run_synth(tmp: Path, data: list[dict[str, Any]], *extra: str) -> tuple[Path, Library]:
    path = tmp / "tasks.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in data), encoding="utf-8")
    fake = FakeEndpoint(tmp, "answer_key")
    try:
        args = [sys.executable, "-m", "synth.cli", "run", "--source", "codecontests", "--path",
                str(path), "--coder-model", "fake-coder", "--solver-model", "fake-solver",
                "--judge-model", "fake-judge", "--library", str(tmp / "lib"), "--runs-dir",
                str(tmp / "runs"), "--sandbox", "process", "--samples", "24", "--rounds", "1",
                "--candidates", "1", "--request-timeout", "10", *extra]
        res = synth(args, synth_env(fake.base_url))
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    return only_run(tmp / "runs"), Library(tmp / "lib")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Library, dict[str, str]]:
    run_dir, lib = run_synth(tmp_path_factory.mktemp("answer_key"), records())
    ids = {json.loads(x)["title"]: json.loads(x)["id"]
           for x in (run_dir / "tasks.jsonl").read_text().splitlines()}
    return run_dir, lib, ids


def events(run_dir: Path, task: str, kind: str) -> list[dict[str, Any]]:
    return [e for e in read_events(run_dir / "events.jsonl")
            if e.get("task") == task and e["kind"] == kind]


def folder(run_dir: Path, task: str) -> Path:
    return run_dir / "candidates" / task.replace("/", "_")


def check_of(run_dir: Path, task: str, stem: str, name: str = "key") -> dict[str, Any]:
    rep = json.loads((folder(run_dir, task) / f"{stem}.json").read_text())
    return next(c for c in rep["checks"] if c["name"] == name)


def prompts(run_dir: Path, task: str, tag: str) -> list[str]:
    lines = (run_dir / "transcripts" / f"{task.replace('/', '_')}.jsonl").read_text().splitlines()
    calls = [json.loads(x) for x in lines]
    return [c["messages"][-1]["content"] for c in calls
            if c["record"]["tag"].startswith(f"{task}|{tag}")]


def test_the_outcomes(run):
    run_dir, _, ids = run
    assert outcomes(run_dir) == {
        ids["Sum of Weights"]: ("accepted", "accepted"),
        ids["Longest Calm Stretch"]: ("rejected", "gate_failed"),
        ids["Tallest Tower"]: ("accepted", "accepted"),
        ids["Parcel Total"]: ("rejected", "key_unverified"),
    }


def test_a_majority_of_the_tasks_solutions_replaces_a_wrong_key(run):
    run_dir, lib, ids = run
    task = ids["Sum of Weights"]
    before = check_of(run_dir, task, "round_0_0.check.before_rekey")
    assert before["finding"] == "key_disagrees"
    assert "The majority disagrees with the key (2 to 1)" in before["reason"]
    assert int(before["artifacts"]["voter_output"]) % 13 == 0  # the rare branch
    (rekeyed,) = [e for e in events(run_dir, task, "key") if e["action"] == "rekeyed"]
    assert rekeyed["outvoted_sha256"] == sha(WEIGHTS_RARE)
    assert rekeyed["key_sha256"] == sha(WEIGHTS_HONEST[0])
    after = check_of(run_dir, task, "round_0_0.check")
    assert after["status"] == "passed"
    rec = next(r for r in lib.records() if r.task_id == task)
    assert rec.key_verified_by == "2 solutions agree on 100 generated inputs"
    assert (lib.root / (rec.reference_program or "")).read_text() == WEIGHTS_HONEST[0]
    assert WEIGHTS_RARE not in lib.code(rec.name) and WEIGHTS_HONEST[0] in lib.code(rec.name)
    assert rec.key_solver_sha256 is None and not prompts(run_dir, task, "key_solver")
    assert [e["why"] for e in events(run_dir, task, "key")
            if e["action"] == "solver_not_needed"] == [
        "the task has 2 other independent solution(s) to vote"]


def test_a_single_trojan_solution_is_caught_by_the_judges_solver(run):
    run_dir, lib, ids = run
    task = ids["Longest Calm Stretch"]
    asked = prompts(run_dir, task, "key_solver")
    assert len(asked) == 2 and asked[0].startswith("You write *reference solvers*")
    assert "Longest Calm Stretch" in asked[0] and "7\n1 1 2 2 2 3 1" in asked[0]
    assert STRETCH_LAST_RUN.strip() not in asked[0]  # never the program it votes on
    assert "render_stdin" not in asked[0] and "CalmStretchBootcamp" not in asked[0]
    first = check_of(run_dir, task, "round_0_0.check")
    assert first["finding"] == "key_disagrees" and first["artifacts"]["voter"] == "the judge's solver"
    # asked once to re-examine its program, with the inputs and both outputs
    assert "## Your program was outvoted on some inputs" in asked[1]
    assert first["artifacts"]["stdin"].strip() in asked[1]
    assert SOLVERS["Longest Calm Stretch"].strip() in asked[1]
    dispute = json.loads((folder(run_dir, task) / "key_solver_round_1.json").read_text())
    assert dispute["origin"] == "argued" and dispute["generation"] == 2
    second = check_of(run_dir, task, "round_1_0.check")
    assert second["finding"] == "key_disagrees"
    (rejected,) = events(run_dir, task, "reject")
    assert "key" in rejected["reason"]
    assert not [r for r in lib.records() if r.task_id == task]


def test_several_right_answers_verified_by_the_judges_solver_which_the_library_keeps(run):
    run_dir, lib, ids = run
    task = ids["Tallest Tower"]
    check = check_of(run_dir, task, "round_0_0.check")
    assert check["status"] == "passed", check
    assert "verify_score accepts them" in check["artifacts"]["notes"]  # first vs last position
    rec = next(r for r in lib.records() if r.task_id == task)
    assert rec.key_verified_by == ("the judge's solver agrees with the reference program on 100 "
                                   "generated inputs; the judge's independent checker agrees too")
    assert rec.key_solver_sha256 == sha(SOLVERS["Tallest Tower"])
    assert rec.key_solver_path == f"codecontests/solvers/{rec.name}.py"
    assert (lib.root / rec.key_solver_path).read_text() == SOLVERS["Tallest Tower"]
    assert Library(lib.root).record(rec.name).model_dump() == rec.model_dump()  # round trip
    commit = events(run_dir, task, "commit")
    assert commit and commit[0]["name"] == rec.name


def test_no_second_voter_is_key_unverified(run):
    run_dir, lib, ids = run
    task = ids["Parcel Total"]
    gave_up = [e for e in events(run_dir, task, "key") if e["action"] == "solver_gave_up"]
    assert len(gave_up) == 1 and "not committed unless --allow-unverified-key" in gave_up[0]["warning"]
    check = check_of(run_dir, task, "round_0_0.check")
    assert check["finding"] == "key_unverified" and check["severity"] == "cannot_judge"
    (rejected,) = events(run_dir, task, "reject")
    assert rejected["reason_code"] == "key_unverified"
    assert "unverified: one solution, no second voter" in rejected["reason"]
    assert "--allow-unverified-key" in rejected["reason"]
    assert not [r for r in lib.records() if r.task_id == task]
    assert not events(run_dir, task, "filter")  # no solver samples spent on it


def test_allow_unverified_key_commits_and_the_record_says_so(tmp_path: Path):
    run_dir, lib = run_synth(tmp_path, records()[3:], "--allow-unverified-key")
    (rec,) = lib.records()
    assert rec.key_verified_by == ("unverified: one solution, no second voter (committed under "
                                   "--allow-unverified-key)")
    config = json.loads((run_dir / "config.json").read_text())
    assert config["config"]["allow_unverified_key"] is True
