"""The prefix warm-up: one call per mode, carrying only the stable prefix, before any task.

With the embedded model (llama.cpp on 2 cores) the tasks' parallel first calls would each read
the ~4,000-token prefix; after the warm-up they find it in the server's cache. Checked against
the scripted endpoint, whose prefix cache reports what a real one would.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from fakes.openai_server import FakeOpenAI, Reply, Request

from synth.library import Library
from synth.models.llm import LLMClient, ModelSpec
from synth.runs import Run, RunConfig, read_events
from synth.tasks import Provenance, TaskDescription, TaskKind
from synth.workflow.orchestrator import execute, ledger_sink


def _task(i: int) -> TaskDescription:
    return TaskDescription(id=f"local/warm-{i}", source="local", kind=TaskKind.DESCRIPTION,
                           title=f"Warm {i}", statement="Say hi.",
                           provenance=Provenance(dataset="test", location="here"))


def _run(tmp_path: Path, warm: bool, tasks: int = 2, concurrency: int = 4
         ) -> tuple[list[Request], list[dict[str, object]]]:
    def script(req: Request) -> Reply:
        return Reply(text="OK" if req.last_user == "Reply OK." else "no code here")

    with FakeOpenAI(script) as fake:
        spec = ModelSpec(model="fake", base_url=fake.base_url, timeout_s=5)
        cfg = RunConfig(source="local", coder=spec, solver=spec, library=str(tmp_path / "lib"),
                        candidates=1, rounds=0, warm_prefix=warm, mode="full",
                        concurrency=concurrency)
        run = Run.create(tmp_path / "runs", cfg)
        llm = LLMClient({"coder": spec, "solver": spec}, on_record=ledger_sink(run))
        asyncio.run(execute(run, [_task(i) for i in range(1, tasks + 1)], llm=llm,
                            library=Library(tmp_path / "lib")))
        history = list(fake.history)
    return history, read_events(run.root / "events.jsonl")


def test_the_warm_up_reads_the_prefix_once_before_the_tasks(tmp_path: Path) -> None:
    history, events = _run(tmp_path / "warm", warm=True)
    first, *drafts = history
    assert first.last_user == "Reply OK." and first.body.get("max_tokens") == 1
    assert [m["role"] for m in first.messages] == ["system", "user"]
    prefix = first.messages[0]["content"]
    assert len(drafts) == 2 and all(d.messages[0]["content"] == prefix for d in drafts)
    calls = [e for e in events if e["kind"] == "llm_call"]
    assert calls[0]["role"] == "warmup" and calls[0]["tokens_cached"] == 0
    assert all(c["tokens_cached"] == len(prefix) // 4 for c in calls[1:]), calls
    (warm,) = [e for e in events if e["kind"] == "warmup"]
    assert warm["ok"] is True and warm["mode"] == "full"


def test_without_it_the_first_calls_carry_the_prefix_uncached(tmp_path: Path) -> None:
    history, events = _run(tmp_path / "cold", warm=False)
    assert all(r.last_user != "Reply OK." for r in history) and len(history) == 2
    assert not [e for e in events if e["kind"] == "warmup"]
    assert json.dumps(events).count('"role": "warmup"') == 0


def test_only_the_modes_of_the_tasks_that_start_first_are_warmed(tmp_path: Path,
                                                                  monkeypatch: Any) -> None:
    """One task at a time, three tasks: the first is drafted in full mode, the others (said
    here to be) in function mode; only the first task's prefix is warmed, since the one server
    slot has dropped it by the time a later mode is needed (a HumanEval campaign warmed full
    mode for 162 s and never used it first)."""
    from synth.workflow import coder

    real = coder.task_mode

    def mode_of(mode: str, task: TaskDescription) -> Any:
        got = real(mode, task)
        return ("full", *got[1:]) if task.id.endswith("-1") else ("function", *got[1:])

    monkeypatch.setattr(coder, "task_mode", mode_of)
    _, events = _run(tmp_path / "first", warm=True, tasks=3, concurrency=1)
    assert [e["mode"] for e in events if e["kind"] == "warmup"] == ["full"]
    _, events = _run(tmp_path / "both", warm=True, tasks=3, concurrency=2)
    assert sorted(str(e["mode"]) for e in events if e["kind"] == "warmup") == ["full", "function"]
