"""Resuming a thread whose last node's writes were saved but whose next checkpoint was not (a
session killed between the two, as `test_kill_and_resume_equals_uninterrupted_run` once hit):
LangGraph then reports no next step, with the node pending in ``tasks`` and the values from
before it. `settled` must not take that for a finished task (it had reported "failed" with no
reason for a task its uninterrupted run accepted); continuing the thread applies the writes."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any, TypedDict

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import END, START, StateGraph

from synth.library import Library
from synth.tasks import Provenance, TaskDescription, TaskKind
from synth.workflow.orchestrator import settled, thread_config


class _State(TypedDict, total=False):
    status: str
    reason_code: str
    reason: str
    committed: str
    steps: list[str]


RAN: list[str] = []


def _draft(state: _State) -> dict[str, Any]:
    RAN.append("draft")
    return {"status": "running", "steps": [*state.get("steps", []), "draft"]}


def _filter(state: _State) -> dict[str, Any]:
    RAN.append("filter")
    return {"steps": [*state.get("steps", []), "filter"]}


def _commit(state: _State) -> dict[str, Any]:
    RAN.append("commit")
    return {"status": "accepted", "reason_code": "accepted", "reason": "committed as toy",
            "committed": "toy", "steps": [*state.get("steps", []), "commit"]}


def _graph(saver: Any) -> Any:
    g = StateGraph(_State)
    g.add_node("draft", _draft)
    g.add_node("filter", _filter)
    g.add_node("commit", _commit)
    g.add_edge(START, "draft")
    g.add_edge("draft", "filter")
    g.add_edge("filter", "commit")
    g.add_edge("commit", END)
    return g.compile(checkpointer=saver)


TASK = TaskDescription(id="local/toy", source="local", kind=TaskKind.DESCRIPTION, title="toy",
                       statement="a toy task", provenance=Provenance(dataset="tests", location="here"))


def _kill_after_writes_of(db: Path, thread: str, then: str) -> None:
    """What a kill right after a node's writes were saved leaves -- the node whose writes send
    the thread to ``then`` (channel ``branch:to:<then>``): its writes, and no checkpoint after
    the one they belong to (nor any later writes)."""
    with sqlite3.connect(db) as con:
        ids = [r[0] for r in con.execute("select checkpoint_id from checkpoints where "
                                         "thread_id = ? order by checkpoint_id", (thread,))]
        at = con.execute("select checkpoint_id from writes where thread_id = ? and channel = ?",
                         (thread, f"branch:to:{then}")).fetchone()[0]
        later = [(thread, cid) for cid in ids[ids.index(at) + 1:]]
        assert later
        con.executemany("delete from checkpoints where thread_id = ? and checkpoint_id = ?", later)
        con.executemany("delete from writes where thread_id = ? and checkpoint_id = ?", later)


def test_a_thread_killed_between_a_nodes_writes_and_its_checkpoint_is_continued(tmp_path: Path) -> None:
    db = tmp_path / "checkpoints.sqlite"
    library = Library(tmp_path / "lib")
    config = thread_config(TASK.id)

    async def run() -> None:
        RAN.clear()
        async with AsyncSqliteSaver.from_conn_string(str(db)) as saver:
            graph = _graph(saver)
            await graph.ainvoke({"steps": []}, config)
            done = settled(TASK, await graph.aget_state(config), library, force=False)
            assert done is not None and done.status == "accepted"  # truly finished
        _kill_after_writes_of(db, TASK.id, then="commit")  # filter's writes saved, no more
        async with AsyncSqliteSaver.from_conn_string(str(db)) as saver:
            graph = _graph(saver)
            snap = await graph.aget_state(config)
            # LangGraph's view: nothing next, the filter pending with its writes, no status yet
            assert snap.next == () and [t.name for t in snap.tasks] == ["filter"]
            assert snap.values.get("status") == "running"
            assert settled(TASK, snap, library, force=False) is None  # not finished: continue
            values = await graph.ainvoke(None, config)
            assert values["status"] == "accepted"
            assert values["steps"] == ["draft", "filter", "commit"]
            # the filter's saved writes applied (not run again); the commit, whose writes were
            # lost with the session, runs again
            assert RAN == ["draft", "filter", "commit", "commit"]
            done = settled(TASK, await graph.aget_state(config), library, force=False)
            assert done is not None and (done.status, done.bootcamp) == ("accepted", "toy")

    asyncio.run(run())
