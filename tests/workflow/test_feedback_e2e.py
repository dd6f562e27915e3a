"""The feedback loop end to end: the real CLI against the scripted endpoint (scenario ``feedback``).

Acceptance (issue 11): every revise request carries the task statement, the reference program
and the earlier rounds' failures, and the revised candidate is accepted. The scripted coder
writes the fix only when its prompt is self-contained in that way. Repairs before the gate are
recorded, saved and shown to the model.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e import FakeEndpoint, only_run, outcomes, synth, synth_env
from fakes.scenarios import (
    LOOP_STATEMENT,
    MAX_BAD_LEVEL,
    MAX_BOOTCAMP,
    MAX_LOCAL_IMPORT,
    MAX_REFERENCE,
    MAX_UNIMPORTED,
)

from synth.library import Library
from synth.runs import read_events, task_slug
from synth.tasks import make_task_id

TASKS = [
    {"id": "loop-max", "title": "Largest of a list (feedback loop)", "statement": LOOP_STATEMENT,
     "reference": MAX_REFERENCE},
    {"id": "repair-max", "title": "Largest of a list (repaired)", "statement": LOOP_STATEMENT},
    {"id": "errfix-max", "title": "Largest of a list (repaired from errors)", "statement": LOOP_STATEMENT},
]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Library]:
    tmp = tmp_path_factory.mktemp("feedback")
    data = tmp / "tasks.jsonl"
    data.write_text("".join(json.dumps(t) + "\n" for t in TASKS))
    fake = FakeEndpoint(tmp, "feedback")
    try:
        args = [sys.executable, "-m", "synth.cli", "run", "--source", "jsonl", "--path", str(data),
                "--coder-model", "fake-coder", "--solver-model", "fake-solver",
                "--library", str(tmp / "lib"), "--runs-dir", str(tmp / "runs"), "--sandbox", "process",
                "--samples", "24", "--rounds", "2", "--candidates", "1", "--request-timeout", "5",
                "--no-dedup"]  # the three tasks share a statement and a bootcamp: kept apart here
        res = synth(args, synth_env(fake.base_url))
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    return only_run(tmp / "runs"), Library(tmp / "lib")


def _calls(run_dir: Path, task: str, stage: str) -> list[dict[str, Any]]:
    path = run_dir / "transcripts" / f"{task.replace('/', '_')}.jsonl"
    calls = [json.loads(x) for x in path.read_text().splitlines()]
    return [c for c in calls if c["record"]["tag"].startswith(f"{task}|{stage}")]


def _events(run_dir: Path, kind: str, task: str) -> list[dict[str, Any]]:
    return [e for e in read_events(run_dir / "events.jsonl") if e["kind"] == kind and e.get("task") == task]


def test_every_revise_request_is_self_contained_and_the_revision_is_accepted(run):
    run_dir, lib = run
    task = make_task_id("jsonl", "loop-max", LOOP_STATEMENT)  # the id carries the statement's hash
    assert outcomes(run_dir)[task] == ("accepted", "accepted")
    revisions = _calls(run_dir, task, "revise")
    assert len(revisions) == 2
    drafts = _calls(run_dir, task, "draft")
    earlier = ["round 0 (draft): candidate 0: failed static",
               "round 1 (revise): candidate 0: failed construct"]
    for k, call in enumerate(revisions, 1):
        system, user = call["messages"]
        assert system == drafts[0]["messages"][0]  # the same stable prefix as the draft
        text = user["content"]
        assert LOOP_STATEMENT in text and MAX_REFERENCE.strip() in text
        assert "import of 'os' is not allowed" in text or k == 2  # this round's evidence
        for line in earlier[:k]:
            assert line in text, (k, line)
        assert "[0.03, 0.85]" in text and f"revision {k} of 2" in text
    assert "n must be positive" in revisions[1]["messages"][1]["content"]  # round 1's construct error
    cands = run_dir / "candidates" / task_slug(task)
    assert (cands / "round_1_0.py").read_text() == MAX_BAD_LEVEL
    assert (cands / "round_2_0.py").read_text() == MAX_BOOTCAMP
    rec = lib.record("jsonl_loop_max")
    assert rec.code_sha256 == hashlib.sha256(MAX_BOOTCAMP.encode()).hexdigest()
    assert rec.reference_program is not None and rec.mode == "full"


def test_a_static_repair_is_recorded_saved_and_shown_to_the_model(run):
    run_dir, lib = run
    task = make_task_id("jsonl", "repair-max", LOOP_STATEMENT)  # the id carries the statement's hash
    assert outcomes(run_dir)[task] == ("accepted", "accepted")
    (repair,) = [e for e in _events(run_dir, "repair", task) if e["round"] == 0]
    assert repair["repair"] == "contract_import" and repair["stage"] == "source"
    assert "from synth.bootcamp import BaseBootcamp" in repair["detail"]
    cands = run_dir / "candidates" / task_slug(task)
    assert (cands / "round_0_0.py").read_text() == MAX_UNIMPORTED  # what the model wrote
    repaired = (cands / "round_0_0.repaired.py").read_text()
    assert "from synth.bootcamp import BaseBootcamp" in repaired and "import os" in repaired
    first = json.loads((cands / "round_0_0.check.json").read_text())
    assert [c["name"] for c in first["checks"] if c["status"] == "failed"] == ["static"]
    (revise,) = _calls(run_dir, task, "revise")
    text = revise["messages"][1]["content"]
    assert "the pipeline repaired: contract_import" in text and repaired.strip() in text
    assert "round 0 (draft): candidate 0: failed static" in text and "1 repair(s)" in text
    draft_node = _events(run_dir, "node", task)[0]
    assert draft_node["node"] == "draft" and draft_node["repairs"] == 1
    assert lib.record("jsonl_repair_max").code_sha256 == hashlib.sha256(MAX_BOOTCAMP.encode()).hexdigest()


def test_a_name_error_at_generate_is_repaired_from_the_gates_errors(run):
    run_dir, lib = run
    task = make_task_id("jsonl", "errfix-max", LOOP_STATEMENT)  # the id carries the statement's hash
    assert outcomes(run_dir)[task] == ("accepted", "accepted")
    repairs = _events(run_dir, "repair", task)
    assert [(r["repair"], r["stage"].split(":")[0]) for r in repairs] == [("stdlib_import", "errors")]
    assert "islice" in repairs[0]["detail"] and "generate" in repairs[0]["stage"]
    cands = run_dir / "candidates" / task_slug(task)
    before = json.loads((cands / "round_0_0.check.before_repair_1.json").read_text())
    assert "generate" in [c["name"] for c in before["checks"] if c["status"] not in ("passed", "skipped")]
    after = json.loads((cands / "round_0_0.check.json").read_text())
    assert after["passed"]
    assert (cands / "round_0_0.py").read_text() == MAX_LOCAL_IMPORT
    repaired = (cands / "round_0_0.repaired.py").read_text()
    assert repaired != MAX_LOCAL_IMPORT and "from itertools import islice" in repaired
    rec = lib.record("jsonl_errfix_max")
    assert rec.code_sha256 == hashlib.sha256(repaired.encode()).hexdigest()  # the repaired module
    assert not _calls(run_dir, task, "revise")  # no model round was spent on it


def test_the_report_counts_the_repairs(run):
    from synth.reporting.report import analyse, load_run

    run_dir, _ = run
    report = analyse(load_run(run_dir))
    table = report.tables["repairs"].set_index(["repair", "stage"])
    assert table.loc[("contract_import", "source"), "tasks"] == 1
    assert table.loc[("stdlib_import", "errors"), "repairs"] == 1
    assert report.facts["repairs"] == len([e for e in read_events(run_dir / "events.jsonl")
                                           if e["kind"] == "repair"])


def test_a_module_without_a_docstring_gets_one_naming_the_task(tmp_path: Path):
    from types import SimpleNamespace

    from synth.models.llm import ModelSpec
    from synth.runs import Run, RunConfig
    from synth.tasks import Provenance, TaskDescription, TaskKind
    from synth.workflow.coder import repair_static
    from synth.workflow.state import Candidate

    task = TaskDescription(id="local/nodoc", source="local", kind=TaskKind.DESCRIPTION, title="No doc",
                           statement="s", provenance=Provenance(dataset="local files", location="x"))
    cfg = RunConfig(source="local", coder=ModelSpec(model="m"), solver=ModelSpec(model="m"),
                    library=str(tmp_path / "lib"))
    ctx: Any = SimpleNamespace(config=cfg, run=Run.create(tmp_path / "runs", cfg))
    code = MAX_BOOTCAMP.split('\n', 2)[2]  # without its docstring line
    cand = Candidate(round=0, index=0, code=code, mode="full")
    repair_static(ctx, task, cand)
    assert (cand.get("code") or "").startswith('"""Bootcamp for \'No doc\': task local/nodoc (source local; local files)."""')
    assert [r["kind"] for r in cand.get("repairs") or []] == ["docstring"]
    (event,) = [json.loads(x) for x in (ctx.run.root / "events.jsonl").read_text().splitlines()]
    assert event["kind"] == "repair" and event["repair"] == "docstring" and event["task"] == "local/nodoc"
