"""The judge's input validator end to end: the real CLI against the scripted endpoint (scenario
``validator``, tests/fakes/validator_scenario.py) on two compiled tasks in the CodeContests
layout, written for the test, whose Input section guarantees an even total -- a guarantee the
statement's model-free rules do not read.

The judge writes ``validate(stdin)`` from the statement and example inputs alone; a validator
that rejects an example is regenerated once; the gate runs it on every generated input; a
generator that breaks the guarantee is rejected naming the rule, and its revision accepted; a
coder that holds the validator wrong argues once and the validator is rewritten. The validator
is kept in the run folder and in the library record. Asserted on the run folder and the library.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e import FakeEndpoint, only_run, outcomes, synth, synth_env
from fakes.validator_scenario import (
    ARGUMENT,
    DRAFT,
    FIXED,
    VALIDATOR,
    VALIDATOR_NEEDS_3,
    VALIDATOR_STRICT,
    record,
)

from synth.library import Library
from synth.runs import read_events


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Library, dict[str, str]]:
    tmp = tmp_path_factory.mktemp("validator")
    data = tmp / "candy.jsonl"
    data.write_text("".join(json.dumps(record(i, title)) + "\n"
                            for i, title in enumerate(("Even Split", "Fair Candy Share"), 1)))
    fake = FakeEndpoint(tmp, "validator")
    try:
        args = [sys.executable, "-m", "synth.cli", "run", "--source", "codecontests", "--path",
                str(data), "--coder-model", "fake-coder", "--solver-model", "fake-solver",
                "--judge-model", "fake-judge", "--library", str(tmp / "lib"), "--runs-dir",
                str(tmp / "runs"), "--sandbox", "process", "--samples", "24", "--rounds", "2",
                "--candidates", "1", "--request-timeout", "10",
                "--no-dedup"]  # the two tasks are one problem told twice: kept apart here
        res = synth(args, synth_env(fake.base_url))
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    run_dir = only_run(tmp / "runs")
    ids = {json.loads(x)["title"]: json.loads(x)["id"]
           for x in (run_dir / "tasks.jsonl").read_text().splitlines()}
    return run_dir, Library(tmp / "lib"), ids


def events(run_dir: Path, task: str, kind: str | None = None) -> list[dict[str, Any]]:
    return [e for e in read_events(run_dir / "events.jsonl")
            if e.get("task") == task and (kind is None or e["kind"] == kind)]


def folder(run_dir: Path, task: str) -> Path:
    return run_dir / "candidates" / task.replace("/", "_")


def report(run_dir: Path, task: str, stem: str) -> dict[str, Any]:
    return json.loads((folder(run_dir, task) / f"{stem}.check.json").read_text())


def check_of(rep: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in rep["checks"] if c["name"] == name)


def prompts(run_dir: Path, task: str, tag: str) -> list[str]:
    lines = (run_dir / "transcripts" / f"{task.replace('/', '_')}.jsonl").read_text().splitlines()
    calls = [json.loads(x) for x in lines]
    return [c["messages"][-1]["content"] for c in calls if c["record"]["tag"].startswith(f"{task}|{tag}")]


def test_both_tasks_are_compiled_and_accepted(run):
    run_dir, _, ids = run
    assert outcomes(run_dir) == {tid: ("accepted", "accepted") for tid in ids.values()}
    drafts = [e for e in read_events(run_dir / "events.jsonl") if e["kind"] == "node" and e["node"] == "draft"]
    assert {e["mode"] for e in drafts} == {"compiled"}


def test_a_generator_that_breaks_a_guarantee_is_rejected_naming_the_rule_then_fixed(run):
    run_dir, lib, ids = run
    task = ids["Even Split"]
    where = folder(run_dir, task)
    # the judge's first validator rejected an example input: regenerated once, with it shown
    judge = [e for e in events(run_dir, task, "validator") if e["action"] != "step"]
    assert [e["action"] for e in judge[:2]] == ["attempt_rejected", "generated"]
    assert "n = 2 breaks 3 <= n <= 100" in judge[0]["problem"]
    asked = prompts(run_dir, task, "validator")
    assert len(asked) == 2 and asked[0].startswith("You write *input validators*")
    assert "It is guaranteed that the total number of candies is even" in asked[0]
    assert "Example input 2:\n```\n2\n5 7\n" in asked[0]
    assert "class CandySplitBootcamp" not in asked[0] and "render_stdin" not in asked[0]  # never the generator
    assert "## Your previous validator was refused" in asked[1]
    assert (where / "validator_round_0.rejected_0.py").read_text() == VALIDATOR_NEEDS_3
    assert (where / "validator.py").read_text() == VALIDATOR
    meta = json.loads((where / "validator_round_0.json").read_text())
    assert meta["sha256"] == sha(VALIDATOR) and meta["origin"] == "initial" and meta["examples"] == 2
    assert judge[1]["validator_sha256"] == sha(VALIDATOR)
    # the draft breaks the guarantee: the gate's validator rejects it, naming the rule
    assert (where / "round_0_0.model.py").read_text() == DRAFT
    inputs = check_of(report(run_dir, task, "round_0_0"), "inputs")
    assert inputs["status"] == "failed" and inputs["finding"] == "validator_rejects_input"
    assert "the statement guarantees that it is even" in inputs["reason"]
    assert "is odd" in inputs["artifacts"]["validator_says"]
    stdin = inputs["artifacts"]["stdin"]
    assert sum(int(x) for x in stdin.split("\n")[1].split()) % 2 == 1
    # the case and the reason reach the revise prompt; the revision is accepted
    revise = prompts(run_dir, task, "revise")[0]
    assert "validator_says:" in revise and stdin.strip() in revise and "VALIDATOR IS WRONG:" in revise
    assert (where / "round_1_0.model.py").read_text() == FIXED
    second = report(run_dir, task, "round_1_0")
    assert second["passed"] and check_of(second, "inputs")["status"] == "passed"
    assert "validator: " in check_of(second, "inputs")["artifacts"]["checked"]
    # the validator is in the library record: file present, sha256 matches
    rec = next(r for r in lib.records() if r.task_id == task)
    assert rec.validator_sha256 == sha(VALIDATOR)
    assert rec.validator_path == f"codecontests/validators/{rec.name}.py"
    assert (lib.root / rec.validator_path).read_text() == VALIDATOR
    assert events(run_dir, task, "commit")[0]["validator_sha256"] == sha(VALIDATOR)
    manifest = json.loads((lib.root / "manifest.json").read_text())
    assert Library(lib.root).record(rec.name).model_dump() == rec.model_dump()  # round trip
    assert any(r["validator_sha256"] == sha(VALIDATOR) for r in manifest["bootcamps"])


def test_a_wrong_validator_is_argued_and_rewritten_once(run):
    run_dir, lib, ids = run
    task = ids["Fair Candy Share"]
    where = folder(run_dir, task)
    assert (where / "validator_round_0.py").read_text() == VALIDATOR_STRICT
    first = report(run_dir, task, "round_0_0")
    assert check_of(first, "inputs")["finding"] == "validator_rejects_input"
    assert "breaks 1 <= a_i <= 50" in check_of(first, "inputs")["artifacts"]["validator_says"]
    dispute = [e for e in events(run_dir, task, "validator") if e["action"] == "dispute"]
    assert len(dispute) == 1 and dispute[0]["with_code"] is False
    assert dispute[0]["argument"] == ARGUMENT.split(": ", 1)[1]
    assert dispute[0]["validator_sha256"] == sha(VALIDATOR_STRICT)
    asked = prompts(run_dir, task, "validator")
    assert len(asked) == 2 and "## Your validator was disputed" in asked[1]
    assert (where / "validator_round_1.py").read_text() == VALIDATOR == (where / "validator.py").read_text()
    meta = json.loads((where / "validator_round_1.json").read_text())
    assert meta["origin"] == "argued" and meta["generation"] == 2
    assert meta["replaces"] == sha(VALIDATOR_STRICT)
    # the same module, checked again with the new validator, passes
    assert (where / "round_1_0.model.py").read_text() == (where / "round_0_0.model.py").read_text() == FIXED
    assert report(run_dir, task, "round_1_0")["passed"]
    rec = next(r for r in lib.records() if r.task_id == task)
    assert rec.validator_sha256 == sha(VALIDATOR)
    assert (lib.root / (rec.validator_path or "")).read_text() == VALIDATOR


def test_the_unread_policy_asks_only_where_the_statement_leaves_a_sentence_unread(tmp_path):
    """--validator unread (the embedded model's default): a bundled task whose Input section the
    statement's own check reads whole gets no judge-written validator (the event says why);
    this file's task, whose even-total guarantee it cannot read, still does; --validator
    always asks for both."""
    from synth.commands.run import load_source_tasks
    from synth.sources.codecontests import CodeContestsSource
    from synth.tasks import TaskDescription
    from synth.workflow.input_validator import _need, statement_read_whole
    from synth.workflow.state import TaskState

    path = tmp_path / "candy.jsonl"
    path.write_text(json.dumps(record(1, "Even Split")) + "\n")
    candy = load_source_tasks("codecontests", path, None, "process", "source")[0]
    source = CodeContestsSource()
    seat = source.verify(next(t for t in source.load(verify=False) if isinstance(t, TaskDescription)
                              and t.title == "Nobody in Their Own Seat"), backend="process")
    assert statement_read_whole(seat) and not statement_read_whole(candy)
    for task, unread in ((seat, None), (candy, "initial")):
        state = TaskState(task=task.model_dump(mode="json"), mode="compiled",
                          candidates=[{"code": "x = 1\n", "mode": "compiled"}])
        assert _need(state, task, "always") == ("initial", "")
        reason, why = _need(state, task, "unread")
        assert reason == unread
        assert ("reads the whole Input section" in why) is (unread is None)
