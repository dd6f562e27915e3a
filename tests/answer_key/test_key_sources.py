"""The codecontests source keeps several independent solutions of a task, each verified on the
public tests in the sandbox: the first is the answer key, the others vote on it in the gate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from key_tasks import WEIGHTS_HONEST, WEIGHTS_MEMO, WEIGHTS_MEMO_RENAMED, record

from synth.sources import CodeContestsSource
from synth.sources.verify import RunOutput
from synth.tasks import TaskDescription

RENAMED_FIRST = WEIGHTS_HONEST[0].replace("data", "tokens")  # the same AST up to names
NEAR_COPY = WEIGHTS_HONEST[1] + "DONE = True\n"  # a line added: another AST, the same program
FAILING = "print(0)\n"


def load(path: Path, **options: Any) -> list[TaskDescription]:
    items = list(CodeContestsSource().load(path=path, backend="process", **options))
    return [i for i in items if isinstance(i, TaskDescription)]


def write(tmp: Path, solutions: list[str]) -> Path:
    path = tmp / "tasks.jsonl"
    path.write_text(json.dumps(record(1, "weights", solutions)) + "\n", encoding="utf-8")
    return path


def test_several_distinct_verified_solutions_are_kept_in_order(tmp_path: Path):
    path = write(tmp_path, [WEIGHTS_HONEST[0], FAILING, RENAMED_FIRST, WEIGHTS_HONEST[1],
                            NEAR_COPY, WEIGHTS_HONEST[2]])
    (task,) = load(path, max_attempts=6)
    assert [r.code for r in task.references] == WEIGHTS_HONEST
    assert all(r.verified and r.language == "python3" for r in task.references)


def test_max_references_one_keeps_only_the_key(tmp_path: Path):
    (task,) = load(write(tmp_path, WEIGHTS_HONEST), max_references=1)
    assert [r.code for r in task.references] == WEIGHTS_HONEST[:1]


def test_a_renamed_copy_is_not_run_twice(tmp_path: Path):
    ran: list[str] = []

    def runner(code: str, stdin: str, timeout_s: float) -> RunOutput:
        ran.append(code)
        a = [int(x) for x in stdin.split()[1:]]
        return RunOutput(outcome="passed", stdout=f"{sum(a)}\n", stderr="")

    path = write(tmp_path, [WEIGHTS_MEMO, WEIGHTS_MEMO_RENAMED, WEIGHTS_HONEST[0]])
    items = list(CodeContestsSource(runner=runner).load(path=path))
    (task,) = [i for i in items if isinstance(i, TaskDescription)]
    assert WEIGHTS_MEMO_RENAMED not in ran  # the same AST up to names: never tried
    assert [r.code for r in task.references] == [WEIGHTS_MEMO, WEIGHTS_HONEST[0]]


def test_without_verification_the_distinct_solutions_are_kept_unverified(tmp_path: Path):
    path = write(tmp_path, [WEIGHTS_MEMO, WEIGHTS_MEMO_RENAMED, *WEIGHTS_HONEST])
    (task,) = load(path, verify=False, max_attempts=3)
    assert [r.code for r in task.references] == [WEIGHTS_MEMO, *WEIGHTS_HONEST[:2]]
    assert not any(r.verified for r in task.references)
