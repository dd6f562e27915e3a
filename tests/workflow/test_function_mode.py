"""Function mode in the workflow: the real CLI, ``synth run --source humaneval``, against the
scripted endpoint (scenario ``function``, :mod:`fakes.function_scenario`). The task's
reference is a Python function: the model writes only its part (levels, the argument
generator, ``call_args``); the pipeline embeds the function, its name and its specification;
the gate's inputs check rejects the draft's wrongly typed argument and the revision, shown the
evidence, is accepted and committed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from e2e import FakeEndpoint, only_run, outcomes, synth, synth_env

from synth import compiled
from synth.library import Library
from synth.runs import read_events


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Library]:
    tmp = tmp_path_factory.mktemp("function")
    fake = FakeEndpoint(tmp, "function")
    (tmp / "lib").mkdir()  # a library whose bootcamps begin with easy, medium, hard
    (tmp / "lib" / "manifest.json").write_text(json.dumps(
        {"version": 1, "curriculum": ["easy", "medium", "hard"], "bootcamps": []}))
    try:
        args = [sys.executable, "-m", "synth.cli", "run", "--source", "humaneval", "--limit", "1",
                "--coder-model", "fake-coder", "--solver-model", "fake-solver",
                "--library", str(tmp / "lib"), "--runs-dir", str(tmp / "runs"),
                "--sandbox", "process", "--samples", "24", "--rounds", "2", "--candidates", "1",
                "--request-timeout", "10", "--no-dedup", "--calibrate", "16"]
        res = synth(args, synth_env(fake.base_url))
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    return only_run(tmp / "runs"), Library(tmp / "lib")


def test_a_humaneval_task_is_written_in_function_mode_and_accepted(run) -> None:
    run_dir, lib = run
    assert set(outcomes(run_dir).values()) == {("accepted", "accepted")}
    events = read_events(run_dir / "events.jsonl")
    drafts = [e for e in events if e["kind"] == "node" and e["node"] == "draft"]
    assert [e["mode"] for e in drafts] == ["function"]
    assert "has_close_elements()" in drafts[0]["mode_reason"]
    (rec,) = lib.records()
    code = lib.code(rec.name)
    assert compiled.embedded_entry_point(code) == "has_close_elements"
    assert "FunctionBootcamp" in code and "def call_args" in code


def test_calibrate_measures_the_accepted_bootcamp_on_all_k_answers_and_the_record_keeps_it(run
                                                                                          ) -> None:
    """``--calibrate 16``: once the filter accepted, 16 more prompts (``synth calibrate``'s
    seeds), every one answered; the record's rates are that measurement, not the filter's."""
    run_dir, lib = run
    events = read_events(run_dir / "events.jsonl")
    (filt,) = [e for e in events if e["kind"] == "filter"]
    (cal,) = [e for e in events if e["kind"] == "calibrate"]
    assert cal["verdict"] == "accepted" and cal["requested"] == cal["answered"] == 16
    solves = [e for e in events if e["kind"] == "llm_call" and e["role"] == "solver"]
    # the filter's calls (some in flight when it stopped early), then all 16
    assert filt["answered"] + 16 <= len(solves) <= filt["requested"] + 16
    (rec,) = lib.records()
    assert rec.calibration is not None and rec.calibration.samples_requested == 16
    assert rec.calibration.samples_answered == 16 and rec.calibration.seed == 0
    assert rec.calibration.endpoint == "127.0.0.1" or rec.calibration.endpoint.startswith("127.0.0.1:")
    assert rec.samples == 16 and rec.stopped_early is False
    assert rec.pass_rate == cal["pass_rate"] and sum(rec.level_samples.values()) == 16
    (commit,) = [e for e in events if e["kind"] == "commit"]
    assert commit["pass_rate"] == cal["pass_rate"]  # the event says what the record holds
    saved = json.loads((run_dir / "filter" / "calibration"
                        / f"{next((run_dir / 'filter').glob('*.json')).stem}.json").read_text())
    assert saved["answered"] == 16 and not saved["stopped_early"]


def test_a_calibration_out_of_the_band_rejects_what_the_filter_accepted(tmp_path: Path) -> None:
    """The calibration decides by the same band: a solver right on every one of its answers
    makes the candidate too easy, and nothing is committed."""
    import asyncio
    from types import SimpleNamespace

    from fakes.scenarios import TOY_SUM
    from test_filter import answer
    from test_prompts import _task

    from filters.self_consistency import run_filter
    from synth.models.llm import ModelSpec
    from synth.runs import Run, RunConfig
    from synth.workflow import nodes

    config = RunConfig(source="local", coder=ModelSpec(model="fake"), solver=ModelSpec(model="fake"),
                       library=str(tmp_path / "lib"), calibrate=12)
    ctx = SimpleNamespace(config=config, run=Run.create(tmp_path / "runs", config),
                          sandbox_slots=asyncio.Semaphore(1), acceptance_filter=run_filter,
                          backend="process")

    async def always_right(prompt: str) -> str:
        return answer(prompt, True)

    cmd = asyncio.run(nodes._calibrate(ctx, _task("toy", statement="Add the numbers."), TOY_SUM, always_right, None, {"filter": {}}))
    assert cmd.goto == "reject" and cmd.update["reason_code"] == "too_easy"
    assert cmd.update["reason"].startswith("calibration on 12 answers: ")
    (cal,) = [e for e in read_events(ctx.run.root / "events.jsonl") if e["kind"] == "calibrate"]
    assert cal["answered"] == 12 and cal["pass_rate"] == 1.0


def test_the_draft_was_rejected_by_the_inputs_check_and_repaired(run) -> None:
    run_dir, _ = run
    task_dir = next((run_dir / "candidates").iterdir())
    first = json.loads((task_dir / "round_0_0.check.json").read_text())
    inputs = next(c for c in first["checks"] if c["name"] == "inputs")
    assert inputs["status"] == "failed" and inputs["finding"] == "argument_type"
    levels = next(c for c in first["checks"] if c["name"] == "levels")  # the library's names
    assert levels["status"] == "failed" and levels["finding"] == "level_names"
    assert not first["passed"]
    assert (task_dir / "round_0_0.model.py").read_text().count("tuple(identity") == 1


def test_the_skeleton_knows_a_predicate_by_its_annotation_or_its_tests() -> None:
    from synth.workflow.coder import returns_bool

    annotated = "def f(x: int) -> bool:\n    return x > 0\n"
    bare = "def g(s):\n    return len(s) > 2\n"
    assert returns_bool(annotated, "f")
    assert not returns_bool(bare, "g")
    assert returns_bool(bare, "g", "def check(candidate):\n    assert candidate('abc') == True\n"
                                    "    assert candidate('a') is False\n")
    assert not returns_bool(bare, "g", "def check(candidate):\n    assert candidate('abc') == 3\n"
                                        "    assert candidate('a') == False\n")


def test_the_skeleton_names_each_parameter_with_its_type_and_an_example() -> None:
    from synth.workflow.coder import parameters

    source = ('from typing import List, Tuple\n\n\ndef f(xs: List[int], pair: Tuple[int, int], s, '
              'k=2):\n    """>>> f([1, 2], (3, 4), "ab")\n    5\n    """\n')
    got = parameters(source, "f", "def check(candidate):\n    assert candidate([7], (1, 1), 'xyz', 3)\n")
    assert [p["name"] for p in got] == ["xs", "pair", "s", "k"]
    assert got[0] == {"name": "xs", "type": "list[int]", "example": "[1, 2]", "build": 'identity["xs"]'}
    assert got[1]["build"] == 'tuple(identity["pair"])' and got[1]["type"] == "tuple[int, int]"
    assert got[2]["type"] == "str" and got[2]["example"] == "'xyz'"
    assert got[3]["type"] == "int" and got[3]["example"] == "3"
