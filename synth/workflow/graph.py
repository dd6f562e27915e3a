"""The task graph: wiring only. Routing lives in the nodes' ``Command`` return types."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from synth.workflow import judge, nodes, steer
from synth.workflow.state import TaskState, WorkflowContext


def build_graph() -> StateGraph[TaskState, WorkflowContext, TaskState, TaskState]:
    g = StateGraph(TaskState, context_schema=WorkflowContext)
    g.add_node("draft", nodes.draft)
    g.add_node("judge", judge.judge)
    g.add_node("check", nodes.check)
    g.add_node("revise", nodes.revise)
    g.add_node("filter", nodes.filter_node)
    g.add_node("steer", steer.steer)
    g.add_node("commit", nodes.commit)
    g.add_node("reject", nodes.reject)
    g.add_edge(START, "draft")
    g.add_edge("reject", END)
    return g
