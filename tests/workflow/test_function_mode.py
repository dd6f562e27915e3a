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
    try:
        args = [sys.executable, "-m", "synth.cli", "run", "--source", "humaneval", "--limit", "1",
                "--coder-model", "fake-coder", "--solver-model", "fake-solver",
                "--library", str(tmp / "lib"), "--runs-dir", str(tmp / "runs"),
                "--sandbox", "process", "--samples", "24", "--rounds", "2", "--candidates", "1",
                "--request-timeout", "10", "--no-dedup"]
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


def test_the_draft_was_rejected_by_the_inputs_check_and_repaired(run) -> None:
    run_dir, _ = run
    task_dir = next((run_dir / "candidates").iterdir())
    first = json.loads((task_dir / "round_0_0.check.json").read_text())
    inputs = next(c for c in first["checks"] if c["name"] == "inputs")
    assert inputs["status"] == "failed" and inputs["finding"] == "argument_type"
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
