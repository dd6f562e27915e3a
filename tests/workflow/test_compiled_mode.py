"""Compiled mode in the workflow: the real CLI against the scripted endpoint (scenario
``compiled``) on two bundled CodeContests records whose verified reference programs the
contract's runner can run. The model writes only its part; the pipeline assembles the module
before the gate, revisions show the model its own part, and the library records the mode.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from e2e import REPO, FakeEndpoint, only_run, outcomes, synth, synth_env
from fixtures.compiled.assemble_all import model_part, sample_reference, sample_task

from synth import compiled
from synth.library import Library
from synth.runs import read_events
from synth.workflow import coder

RECORDS = (8, 13)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Library]:
    tmp = tmp_path_factory.mktemp("compiled")
    lines = (REPO / "task_descriptions" / "codecontests" / "sample.jsonl").read_text().splitlines()
    data = tmp / "two.jsonl"
    # each record with its first solution only (as many dataset rows are): the judge's solver
    # is then the key's second voter
    records = [json.loads(lines[r - 1]) for r in RECORDS]
    for rec in records:
        rec["solutions"] = {k: v[:1] for k, v in rec["solutions"].items()}
    data.write_text("".join(json.dumps(rec) + "\n" for rec in records))
    fake = FakeEndpoint(tmp, "compiled")
    try:
        args = [sys.executable, "-m", "synth.cli", "run", "--source", "codecontests", "--path", str(data),
                "--coder-model", "fake-coder", "--solver-model", "fake-solver",
                "--library", str(tmp / "lib"), "--runs-dir", str(tmp / "runs"), "--sandbox", "process",
                "--samples", "24", "--rounds", "1", "--candidates", "1", "--request-timeout", "10"]
        res = synth(args, synth_env(fake.base_url))
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    return only_run(tmp / "runs"), Library(tmp / "lib")


def _tasks(run_dir: Path) -> dict[str, str]:
    """title -> task id"""
    out = {}
    for line in (run_dir / "tasks.jsonl").read_text().splitlines():
        t = json.loads(line)
        out[t["title"]] = t["id"]
    return out


def _calls(run_dir: Path, task: str, stage: str) -> list[dict[str, Any]]:
    path = run_dir / "transcripts" / f"{task.replace('/', '_')}.jsonl"
    calls = [json.loads(x) for x in path.read_text().splitlines()]
    return [c for c in calls if c["record"]["tag"].startswith(f"{task}|{stage}")]


def test_auto_mode_compiles_tasks_with_a_verified_reference_and_commits_them(run):
    run_dir, lib = run
    ids = _tasks(run_dir)
    assert set(outcomes(run_dir).values()) == {("accepted", "accepted")}
    drafts = [e for e in read_events(run_dir / "events.jsonl") if e["kind"] == "node" and e["node"] == "draft"]
    assert {e["mode"] for e in drafts} == {"compiled"} and all("verified" in e["mode_reason"] for e in drafts)
    for title, record in (("Strangers to m", 13), ("One Wall Down", 8)):
        tid = ids[title]
        rec = next(r for r in lib.records() if r.task_id == tid)
        assert rec.mode == "compiled"
        code = lib.code(rec.name)
        text = compiled.task_text(sample_task(record))
        assert compiled.check_embedded(code, sample_reference(record), text) is None
        assert compiled.embedded_text(code) == text and text.startswith(title)
        assert compiled.split(code) == (model_part(f"{record:02d}_{'strangers_to_m' if record == 13 else 'one_wall_down'}"), sample_reference(record))
        assert rec.reference_program is not None
        assert (lib.root / rec.reference_program).read_text() == sample_reference(record)


def test_the_compiled_prompts_and_the_revision_shows_the_models_own_part(run):
    run_dir, _ = run
    tid = _tasks(run_dir)["Strangers to m"]
    (draft,) = _calls(run_dir, tid, "draft")
    system, user = draft["messages"]
    assert "class CompiledBootcamp(BaseBootcamp):" in system["content"]  # the compiled prefix
    assert "### compiled:" in system["content"] and compiled.EXEMPLAR.strip() in system["content"]
    assert "Compiled mode: you write only the part that needs understanding" in user["content"]
    assert sample_reference(13).strip() in user["content"]
    (revise,) = _calls(run_dir, tid, "revise")
    assert revise["messages"][0] == system  # the same prefix for draft and revise
    text = revise["messages"][1]["content"]
    assert "_REFERENCE_PROGRAM" not in text and text.count(sample_reference(13).strip()) == 1
    assert "_TASK_TEXT" not in text  # the model is shown its own part only
    assert "the pipeline repaired: contract_import" in text and "import of 'os' is not allowed" in text
    cands = run_dir / "candidates" / tid.replace("/", "_")
    # the model's part and the assembled module, both saved
    assert "_REFERENCE_PROGRAM" not in (cands / "round_0_0.model.py").read_text()
    assert compiled.embedded_program((cands / "round_0_0.py").read_text()) == sample_reference(13)
    assert "from synth.bootcamp import CompiledBootcamp" in (cands / "round_0_0.repaired.py").read_text()


def test_a_part_that_cannot_be_assembled_is_shown_why(run):
    run_dir, _ = run
    tid = _tasks(run_dir)["One Wall Down"]
    cands = run_dir / "candidates" / tid.replace("/", "_")
    failure = (cands / "round_0_0.failure.txt").read_text()
    assert failure.startswith("assembly_error:") and "CompiledBootcamp" in failure
    assert (cands / "round_0_0.model.py").exists()
    (revise,) = _calls(run_dir, tid, "revise")
    text = revise["messages"][1]["content"]
    assert "could not be assembled" in text and "class MaxBootcamp(BaseBootcamp)" in text


def test_compiled_and_full_prefixes_are_each_stable(tmp_path: Path):
    from synth.models.llm import ModelSpec
    from synth.models.prompts import Prompts, compact_source
    from synth.runs import RunConfig

    def ctx(**kw: Any) -> SimpleNamespace:
        cfg = RunConfig(source="x", coder=ModelSpec(model="m"), solver=ModelSpec(model="m"),
                        library=str(tmp_path), **kw)
        return SimpleNamespace(config=cfg, exemplar_library=Library(), prompts=Prompts(), extra={})

    full, comp = coder.prefix(ctx(), "full"), coder.prefix(ctx(), "compiled")
    assert full.text != comp.text and comp.text == coder.prefix(ctx(), "compiled").text
    assert "class CompiledBootcamp" not in full.text and "class CompiledBootcamp" in comp.text
    small = coder.prefix(ctx(compact_exemplars=True), "compiled").text
    assert len(small) < len(comp.text)
    assert compact_source(compiled.COMPACT_EXEMPLAR).strip() in small


def test_compiled_candidates_of_a_verified_program_get_no_model_written_checker(run):
    """The verified program is the answer key and the oracle runs it: no judge call is spent,
    the event says why, and the library record says why there is no checker."""
    run_dir, lib = run
    events = read_events(run_dir / "events.jsonl")
    judged = [e for e in events if e["kind"] == "node" and e["node"] == "judge"]
    skipped = [e for e in judged if e["action"] == "not_needed"]
    assert skipped and {e["action"] for e in judged} <= {"not_needed", "no_examples"}  # no code: none
    assert all("verified reference program" in e["why"] for e in skipped)
    assert not [e for e in events if e["kind"] == "llm_call" and e["role"] == "judge"
                and "|validator|" not in e["tag"] and "|key_solver|" not in e["tag"]
                ]  # the judge's input validator and the answer key's solver: no checker
    for rec in lib.records():
        assert rec.checker_sha256 is None
        # one solution in the data: the judge's solver is the key's second voter
        assert (rec.key_verified_by or "").startswith("the judge's solver agrees with the "
                                                      "reference program on ")
        assert rec.key_solver_path == f"codecontests/solvers/{rec.name}.py"
        assert (rec.differential or {}).get("status") == "no_checker"
        assert "compiled mode" in (rec.differential or {}).get("reason", "")


@pytest.mark.parametrize("requested", ["auto", "compiled"])
def test_a_whole_bootcamp_answering_the_compiled_skeleton(tmp_path: Path, requested: str):
    """--mode auto: a complete bootcamp module in reply to the compiled skeleton is gated as a
    full-mode candidate, with a ``mode_switch`` event; --mode compiled keeps asking for the part
    (assembly_error, shown why). A module that is not a whole bootcamp fails assembly in both."""
    import asyncio

    from fakes.scenarios import MAX_BOOTCAMP, MAX_PARTIAL, fenced

    from synth.models.llm import ModelSpec
    from synth.models.prompts import Prompts
    from synth.runs import RunConfig

    events: list[tuple[str, Any, dict[str, Any]]] = []
    replies: list[str] = []

    class LLM:
        async def complete(self, role: str, messages: Any, **kw: Any) -> Any:
            return SimpleNamespace(text=fenced(replies.pop(0)), finish_reason="stop")

    cfg = RunConfig(source="x", coder=ModelSpec(model="m"), solver=ModelSpec(model="m"),
                    library=str(tmp_path), mode=requested)
    run = SimpleNamespace(events=SimpleNamespace(emit=lambda kind, task, **f: events.append((kind, task, f))))
    ctx = SimpleNamespace(config=cfg, exemplar_library=Library(), prompts=Prompts(), extra={},
                          llm=LLM(), run=run)
    task = sample_task(8)
    replies[:] = [MAX_BOOTCAMP, MAX_PARTIAL]
    whole = asyncio.run(coder.ask_coder(ctx, task, "compiled", "text", "v", "draft|0", 0, 0))
    partial = asyncio.run(coder.ask_coder(ctx, task, "compiled", "text", "v", "draft|1", 0, 1))
    assert partial["mode"] == "compiled" and partial["failure"] == "assembly_error"
    if requested == "auto":
        assert whole["mode"] == "full" and whole["code"].strip() == MAX_BOOTCAMP.strip()
        assert whole.get("failure") is None and not whole.get("model_code")
        (switch,) = [e for e in events if e[0] == "mode_switch"]
        assert switch[1] == task.id and switch[2]["to_mode"] == "full"
        assert "MaxBootcamp" in switch[2]["why"] and switch[2]["round"] == 0
    else:
        assert whole["mode"] == "compiled" and whole["failure"] == "assembly_error"
        assert not [e for e in events if e[0] == "mode_switch"]
