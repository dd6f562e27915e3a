"""A model's reply with lone surrogates (a JSON "\\ud800" escape, high or low, anywhere), and a
prompt with one: the client sends and keeps them escaped and counts them; the transcript, the
run's events and run files are written; nothing raises."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from fakes.openai_server import FakeOpenAI, Reply

from synth.models.llm import LLMClient, ModelSpec, RetryPolicy
from synth.runs import EventLog, read_events

FAST = RetryPolicy(max_attempts=2, initial_s=0.01, max_backoff_s=0.05, max_total_s=30)
REPLIES = ["\ud800", "code = '\udfff'\n", "<answer>4\udbff</answer>", "a\udc00b\ud800c",
           "pair \ud83d\ude00 as two"]


@pytest.mark.parametrize("text", REPLIES)
def test_a_reply_with_surrogates_is_kept_escaped_and_written(text: str, tmp_path: Path):
    records = []
    events = EventLog(tmp_path / "events.jsonl")

    def on_record(record) -> None:  # as the workflow logs every call
        records.append(record)
        events.emit("llm_call", "t", **record.model_dump())

    spec = ModelSpec(model="fake", api_key="k", timeout_s=2.0)
    with FakeOpenAI(lambda r: Reply(text=text)) as server:
        spec = spec.model_copy(update={"base_url": server.base_url})
        client = LLMClient({"coder": spec}, retry=FAST, on_record=on_record,
                           transcript_dir=tmp_path / "t")

        async def call():  # type: ignore[no-untyped-def]
            try:
                return await client.complete(
                    "coder", [{"role": "user", "content": "prompt \ud800 with one too"}],
                    tag="task")
            finally:
                await client.aclose()

        result = asyncio.run(call())
    received = json.loads(json.dumps(text))  # over JSON a valid pair of escapes is one emoji
    result.text.encode("utf-8")
    lone = sum(1 for ch in received if "\ud800" <= ch <= "\udfff")
    assert ("\\ud" in result.text) is (lone > 0)  # escaped, not dropped
    lone += 1  # and the prompt's
    assert result.record.escaped_surrogates == lone
    assert records[0].ok and records[0].attempts == 1  # handled, not retried, not failed
    (line,) = (tmp_path / "t" / "task.jsonl").read_text(encoding="utf-8").splitlines()
    written = json.loads(line)
    assert written["response"] == result.text
    assert written["messages"][0]["content"] == "prompt \\ud800 with one too"
    assert server.history[0].messages[0]["content"] == "prompt \\ud800 with one too"  # as sent
    (event,) = read_events(tmp_path / "events.jsonl")
    assert event["escaped_surrogates"] == lone


def test_events_and_run_files_take_any_text(tmp_path: Path):
    from synth.runs import Run, RunConfig

    log = EventLog(tmp_path / "events.jsonl")
    log.emit("task_error", "t\ud800", error="ValueError: \udfff", nested={"k\udc00": ["\ud800"]})
    (event,) = read_events(tmp_path / "events.jsonl")
    assert event["error"] == "ValueError: \\udfff" and event["task"] == "t\\ud800"
    assert event["nested"] == {"k\\udc00": ["\\ud800"]}
    run = Run(tmp_path, "r", RunConfig.model_construct())
    path = run.write_json("filter/x.json", {"response": "<answer>\ud800</answer>"})
    assert json.loads(path.read_text(encoding="utf-8")) == {"response": "<answer>\\ud800</answer>"}
