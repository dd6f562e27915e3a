"""The workflow's answer-key parts without a model: who votes, when the judge writes a solver,
how a solver is vetted, the majority key, and what may be committed."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from key_tasks import (
    STRETCH_HONEST,
    STRETCH_LAST_RUN,
    TOWER_HONEST,
    WEIGHTS_HONEST,
    WEIGHTS_MEMO,
    WEIGHTS_MEMO_RENAMED,
    WEIGHTS_RARE,
    module,
    task,
)

from synth.models.llm import ModelSpec
from synth.runs import RunConfig
from synth.sandbox import get_backend
from synth.workflow import answer_key
from synth.workflow.state import Candidate, TaskState


def config(**extra: Any) -> RunConfig:
    spec = ModelSpec(model="m")
    return RunConfig(source="tests", coder=spec, solver=spec, library="lib", **extra)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def compiled_candidate(name: str, key: str) -> Candidate:
    return Candidate(round=0, index=0, code=module(name, key), mode="compiled")


def test_voters_are_the_other_verified_solutions_and_the_solver():
    t = task("weights", [WEIGHTS_MEMO, WEIGHTS_MEMO_RENAMED, *WEIGHTS_HONEST[:2]])
    found = answer_key.voters(t, compiled_candidate("weights", WEIGHTS_MEMO), solver="print(1)\n")
    assert [v.label for v in found] == ["solution 3 of the task", "solution 4 of the task",
                                        "the judge's solver"]
    assert [v.kind for v in found] == ["solution", "solution", "solver"]


@pytest.mark.parametrize(("solutions", "key_solver", "need"), [
    ([STRETCH_LAST_RUN], "auto", "initial"),
    ([WEIGHTS_MEMO, WEIGHTS_MEMO_RENAMED], "auto", "initial"),  # a copy is no second solution
    ([WEIGHTS_MEMO, WEIGHTS_HONEST[0]], "auto", None),
    ([WEIGHTS_MEMO, WEIGHTS_HONEST[0]], "always", "initial"),
])
def test_when_the_judge_writes_a_solver(solutions, key_solver, need):
    name = "stretch" if solutions[0] == STRETCH_LAST_RUN else "weights"
    state = TaskState(task=task(name, solutions).model_dump(mode="json"), mode="compiled")
    reason, why = answer_key._need(state, task(name, solutions), config(key_solver=key_solver))
    assert reason == need, why
    full = TaskState(task=state["task"], mode="full")
    assert answer_key._need(full, task(name, solutions), config())[0] is None


def test_a_disputed_solver_is_re_examined_once():
    t = task("stretch", [STRETCH_LAST_RUN])
    best = Candidate(key={"finding": "key_disagrees", "voter": "the judge's solver"})
    state = TaskState(task=t.model_dump(mode="json"), mode="compiled", best=best,
                      key_solver={"code": STRETCH_HONEST[1], "sha256": sha(STRETCH_HONEST[1])})
    assert answer_key._need(state, t, config())[0] == "argued"
    state["key_solver_dispute"] = {"status": "settled"}
    assert answer_key._need(state, t, config())[0] is None


def test_the_solver_is_vetted_on_the_examples():
    backend = get_backend("process")
    examples = [("7\n1 1 2 2 2 3 1\n", "3\n"), ("5\n4 7 7 1 2\n", "2\n")]
    assert answer_key.vet_solver(STRETCH_HONEST[1], examples, False, backend) is None
    wrong = answer_key.vet_solver("print(2)\n", examples, False, backend)
    assert wrong == "on example 1 it printed '2'; the expected output is '3'"
    assert answer_key.vet_solver("import os\nprint(3)\n", examples, False, backend) == (
        "the program breaks the rules: line 1: imports os")
    crash = answer_key.vet_solver("print(1 // 0)\n", examples, False, backend) or ""
    assert crash.startswith("it failed on example 1 (exit status 1)") and "ZeroDivision" in crash
    # several right outputs: another right one is fine, but it must still run
    tower = [("5\n3 9 2 8 1\n", "2\n"), ("4\n5 5 1 1\n", "1\n")]
    assert answer_key.vet_solver(TOWER_HONEST[1], tower, True, backend) is None
    assert answer_key.vet_solver(TOWER_HONEST[1], tower, False, backend) is not None


def test_extract_solver_takes_the_last_python_block():
    ok = answer_key.extract_solver("text\n```python\nprint(1)\n```\nmore\n```python\nprint(2)\n```\n")
    assert ok.code == "print(2)\n"
    assert answer_key.extract_solver("no code").failure == "no_code"
    assert answer_key.extract_solver("```python\nprint(\n```\n").failure == "syntax_error"
    assert answer_key.extract_solver("```python\nprint(1)\n").failure == "truncated"


def test_outvoted_keeps_the_majority_side_only():
    t = task("weights", [WEIGHTS_RARE, *WEIGHTS_HONEST[:2]])
    new = answer_key.outvoted(t, {"majority": [sha(WEIGHTS_HONEST[0]), sha(WEIGHTS_HONEST[1])]})
    assert new is not None
    assert [r.verified for r in new.references] == [False, True, True]
    # the key's side wins: the dissenting solution loses its vote, the key stays
    t = task("weights", [WEIGHTS_HONEST[0], WEIGHTS_HONEST[1], WEIGHTS_RARE])
    new = answer_key.outvoted(t, {"majority": [sha(WEIGHTS_HONEST[0]), sha(WEIGHTS_HONEST[1])]})
    assert new is not None and [r.verified for r in new.references] == [True, True, False]
    # nothing to drop, or no majority: unchanged
    assert answer_key.outvoted(t, {"majority": [sha(c) for c in (*WEIGHTS_HONEST[:2], WEIGHTS_RARE)]}) is None
    assert answer_key.outvoted(t, {"majority": None}) is None


def test_unverified_compiled_keys_are_not_committed_unless_allowed():
    best = Candidate(mode="compiled", key={"verified": False,
                                          "verified_by": "unverified: one solution, no second voter"})
    why = answer_key.unverified(best, config()) or ""
    assert "unverified: one solution, no second voter" in why and "--allow-unverified-key" in why
    assert answer_key.unverified(best, config(allow_unverified_key=True)) is None
    assert answer_key.unverified(Candidate(mode="compiled", key={"verified": True}), config()) is None
    assert answer_key.unverified(Candidate(mode="full", key=None), config()) is None
    assert "the key check did not run" in (answer_key.unverified(Candidate(mode="compiled"),
                                                                 config()) or "")


def test_the_record_says_how_the_key_was_verified():
    t = task("tower", [TOWER_HONEST[0]])
    solver = {"code": TOWER_HONEST[2], "sha256": sha(TOWER_HONEST[2])}
    said = "the judge's solver agrees with the reference program on 100 generated inputs"
    state = TaskState(best=Candidate(mode="compiled", key={"verified": True, "verified_by": said}),
                      key_solver=solver)  # type: ignore[typeddict-item]
    assert answer_key.record_fields(t, "tower", state, config()) == {
        "key_verified_by": said, "key_solver_sha256": sha(TOWER_HONEST[2]),
        "key_solver_path": "tests/solvers/tower.py"}
    other = TaskState(best=Candidate(mode="compiled", key={
        "verified": False, "verified_by": "unverified: one solution, no second voter"}))
    assert answer_key.record_fields(t, "x", other, config(allow_unverified_key=True)) == {
        "key_verified_by": "unverified: one solution, no second voter (committed under "
                           "--allow-unverified-key)"}


def test_summary_reads_the_key_check():
    from synth.gate import CheckReport, CheckResult, CheckStatus

    key = CheckResult(name="key", status=CheckStatus.FAILED, reason="disagree", finding="key_disagrees",
                      artifacts={"verified_by": "disputed: x", "voter": "the judge's solver",
                                 "majority": json.dumps(["ab"]),
                                 "disagreements": json.dumps([{"voter": "the judge's solver",
                                                               "stdin": "1 2\n", "key_output": "3",
                                                               "voter_output": "-1"}])})
    report = CheckReport(candidate_sha256="0" * 64, backend="process", checks=[key], passed=False)
    got = answer_key.summary(report) or {}
    assert got["verified"] is False and got["majority"] == ["ab"]
    assert got["evidence"] == ("Input 1:\n```\n1 2\n\n```\nYour program printed: '-1'\n"
                               "The other program printed: '3'")
