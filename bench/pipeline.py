"""Benchmark the orchestration of `synth run`: wall time against the ideal, CPU per task.

    .venv/bin/python bench/pipeline.py [--tasks 200] [--concurrency 32] [--latency 0.5] [--samples 16]

A fake OpenAI-compatible endpoint (its own process, so it costs this process no CPU) answers
every call after a fixed latency L. T tasks run through the real LangGraph graph with SQLite
checkpoints, the real openai client over HTTP, the event log and transcripts; the gate and the
filter's sandbox are replaced by instant stand-ins (only here), so what is measured is the
orchestration itself. With C model calls in flight the ideal wall time is calls x L / C; the
benchmark prints the achieved wall time over that ideal and the orchestration CPU per task.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from pydantic import SecretStr  # noqa: E402

from bench._common import Ticker, count_lines, setup  # noqa: E402
from filters.self_consistency import FilterConfig, FilterResult  # noqa: E402
from synth.gate import CheckReport, CheckResult, CheckStatus  # noqa: E402
from synth.library import Library  # noqa: E402
from synth.models.llm import LLMClient, ModelSpec  # noqa: E402
from synth.runs import Run, RunConfig, read_events  # noqa: E402
from synth.tasks import Provenance, TaskDescription, TaskKind  # noqa: E402
from synth.workflow.orchestrator import execute, ledger_sink  # noqa: E402

TASK_END = '"task_end"'  # as it appears in an event line
SERVER = r"""
import sys, time, threading
sys.path.insert(0, sys.argv[3])
from fakes.openai_server import FakeOpenAI, Reply
from fakes.scenarios import TOY_SUM, fenced
latency = float(sys.argv[1])
code = fenced(TOY_SUM)
def script(req):
    time.sleep(latency)
    if any("You write *bootcamps*" in m.get("content", "") for m in req.messages):  # the prefix
        return Reply(text=code)
    return Reply(text="<answer>1</answer>")
with FakeOpenAI(script) as s:
    open(sys.argv[2], "w").write(s.base_url)
    threading.Event().wait()
"""


def instant_gate(code: str, **_: Any) -> CheckReport:
    return CheckReport(candidate_sha256="0" * 64, backend="stand-in", passed=True,
                       checks=[CheckResult(name="static", status=CheckStatus.PASSED, hard=True,
                                           reason="stand-in")])


async def instant_filter(code: str, solve: Any, *, config: FilterConfig, backend: Any,
                         **_: Any) -> FilterResult:
    """Asks the solver K times (real calls, concurrently) and accepts at a fixed rate."""
    answers = await asyncio.gather(*[solve(f"prompt {i}") for i in range(config.samples)])
    return FilterResult(verdict="accepted", reason="stand-in", pass_rate=0.5,
                        answered=len(answers), requested=config.samples,
                        level_pass_rates={"easy": 0.5}, level_counts={"easy": len(answers)})


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--latency", type=float, default=0.5)
    ap.add_argument("--samples", type=int, default=16)
    args = ap.parse_args()
    T, C, L, K = args.tasks, args.concurrency, args.latency, args.samples
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        url_file = tmp / "url"
        server = subprocess.Popen([sys.executable, "-c", SERVER, str(L), str(url_file),
                                   str(REPO / "tests")], start_new_session=True)
        try:
            while not url_file.exists() or not url_file.read_text():
                time.sleep(0.05)
            spec = ModelSpec(model="fake", base_url=url_file.read_text(), api_key=SecretStr("k"),
                             timeout_s=60)
            cfg = RunConfig(source="bench", coder=spec, solver=spec, library=str(tmp / "lib"),
                            candidates=1, rounds=0, samples=K, concurrency=2 * C, llm_concurrency=C,
                            sandbox="process", sandbox_slots=C,
                            dedup=False)  # one scripted bootcamp for every task
            run = Run.create(tmp / "runs", cfg)
            tasks = [
                TaskDescription(id=f"bench/task-{i}", source="bench", kind=TaskKind.DESCRIPTION,
                                title=f"Task {i}", statement="Add numbers.",
                                provenance=Provenance(dataset="bench", location=str(i)))
                for i in range(T)
            ]
            llm = LLMClient({"coder": spec, "solver": spec}, max_concurrency=C,
                            on_record=ledger_sink(run), transcript_dir=run.root / "transcripts")
            events = run.root / "events.jsonl"
            print(f"T={T} tasks, C={C}, L={L}s, K={K}: {T * (1 + K)} model calls, ideal wall "
                  f"{T * (1 + K) * L / C:.1f}s", flush=True)
            cpu0, wall0 = time.process_time(), time.perf_counter()
            with Ticker(lambda: f"{count_lines(events, TASK_END)}/{T} tasks ended"):
                summary = asyncio.run(execute(
                    run, tasks, llm=llm, library=Library(tmp / "lib"),
                    overrides={"gate": instant_gate, "acceptance_filter": instant_filter},
                ))
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
            all_events = read_events(events)
            if summary.counts().get("accepted", 0) != T:  # a stand-in no longer fits the graph
                first = next((e.get("error") for e in all_events if e["kind"] == "task_error"), "")
                raise SystemExit(f"only {summary.counts()} of {T} tasks accepted: the measurement "
                                 f"is void; first task error: {first or summary.reasons()}")
            calls_ev = [e for e in all_events if e["kind"] == "llm_call"]
            latencies = [float(e["latency_s"]) - float(e["queued_s"]) for e in calls_ev]
        finally:
            server.kill()
            server.wait()
    calls = T * (1 + K)
    ideal = calls * L / C
    accepted = summary.counts().get("accepted", 0)
    print(f"tasks T={T}  concurrency C={C}  latency L={L}s  calls={calls} (1 draft + K={K} solver per task)")
    print(f"accepted {accepted}/{T}")
    print(f"ideal wall (calls x L / C): {ideal:8.2f} s")
    print(f"achieved wall:              {wall:8.2f} s")
    print(f"wall / ideal:               {wall / ideal:8.3f}x")
    print(f"orchestration CPU per task: {1000 * cpu / T:8.1f} ms  (this process, {os.cpu_count()} cores)")
    print(f"model call time in a slot: mean {sum(latencies) / len(latencies):.3f} s, "
          f"max {max(latencies):.3f} s over {len(latencies)} calls")
    print(f"call slots busy: {sum(latencies) / (C * wall):.1%} of C x wall")


if __name__ == "__main__":
    main()
