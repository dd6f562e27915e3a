"""The model client against a scripted fake endpoint, through the real openai client over HTTP."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from fakes.openai_server import FakeOpenAI, Reply, Request

from synth.models.llm import (
    LLMCallRecord,
    LLMClient,
    LLMFailure,
    ModelSpec,
    Price,
    RetryPolicy,
    usage_facts,
)

FAST = RetryPolicy(max_attempts=4, initial_s=0.01, max_backoff_s=0.05, max_total_s=30)


def client_for(server: FakeOpenAI, **kw) -> LLMClient:
    spec = ModelSpec(model="fake-coder", base_url=server.base_url, api_key="k", timeout_s=1.0)
    return LLMClient({"coder": spec, "solver": spec}, retry=kw.pop("retry", FAST), **kw)


def run(coro):
    return asyncio.run(coro)


def test_success_records_usage_cost_and_transcript(tmp_path: Path):
    records = []
    with FakeOpenAI(lambda r: Reply(text="hello " * 40)) as server:
        client = client_for(
            server,
            prices={"fake-coder": Price(input_per_mtok=1.0, output_per_mtok=2.0)},
            on_record=records.append,
            transcript_dir=tmp_path,
        )
        res = run(client.complete("coder", [{"role": "user", "content": "x" * 400}], tag="t1",
                                  prompt_version="abc"))
    assert res.text.startswith("hello")
    rec = records[0]
    assert rec.ok and rec.attempts == 1 and rec.prompt_version == "abc"
    assert rec.tokens_in == 101 and rec.tokens_out == 61
    assert rec.cost_usd == pytest.approx((101 * 1.0 + 61 * 2.0) / 1e6)
    files = list(tmp_path.glob("*.jsonl"))
    assert [f.name for f in files] == ["t1.jsonl"]
    (line,) = files[0].read_text().splitlines()
    payload = json.loads(line)
    assert payload["response"].startswith("hello") and payload["messages"][0]["content"] == "x" * 400
    assert server.history[0].body["model"] == "fake-coder"


@pytest.mark.parametrize(
    "fault",
    [
        Reply(status=429, headers={"retry-after": "0"}),
        Reply(status=500),
        Reply(status=503),
        Reply(garbage=True),
        Reply(drop=True),
        Reply(delay_s=1.6, text="too late"),
    ],
    ids=["429", "500", "503", "garbage", "drop", "timeout"],
)
def test_transient_faults_are_retried(fault: Reply):
    def script(req: Request) -> Reply:
        return fault if req.index < 2 else Reply(text="ok")

    with FakeOpenAI(script) as server:
        res = run(client_for(server).complete("coder", [{"role": "user", "content": "q"}]))
    assert res.text == "ok"
    assert res.record.attempts == 3


def test_retry_after_is_honoured():
    def script(req: Request) -> Reply:
        return Reply(status=429, headers={"retry-after": "0.6"}) if req.index == 0 else Reply(text="ok")

    with FakeOpenAI(script) as server:
        t0 = time.perf_counter()
        run(client_for(server).complete("coder", [{"role": "user", "content": "q"}]))
        elapsed = time.perf_counter() - t0
    assert elapsed >= 0.55


def test_persistent_failure_is_typed_and_bounded():
    records = []
    with FakeOpenAI(lambda r: Reply(status=500)) as server, pytest.raises(LLMFailure) as info:
        run(client_for(server, on_record=records.append).complete(
            "coder", [{"role": "user", "content": "q"}]))
    assert info.value.kind == "server"
    assert len(server.history) == FAST.max_attempts
    assert records[0].ok is False and records[0].attempts == FAST.max_attempts


@pytest.mark.parametrize(("status", "kind"), [(401, "auth"), (400, "bad_request"), (404, "bad_request")])
def test_non_retryable_errors_fail_at_once(status: int, kind: str):
    with FakeOpenAI(lambda r: Reply(status=status)) as server, pytest.raises(LLMFailure) as info:
        run(client_for(server).complete("coder", [{"role": "user", "content": "q"}]))
    assert info.value.kind == kind and len(server.history) == 1


def test_concurrency_limit_per_endpoint():
    active = 0
    peak = 0
    import threading

    lock = threading.Lock()

    def script(req: Request) -> Reply:
        nonlocal active, peak
        with lock:
            active += 1
            peak = max(peak, active)
        time.sleep(0.1)
        with lock:
            active -= 1
        return Reply(text="ok")

    async def many(client: LLMClient) -> None:
        await asyncio.gather(*[
            client.complete("coder", [{"role": "user", "content": str(i)}]) for i in range(12)
        ])

    with FakeOpenAI(script) as server:
        run(many(client_for(server, max_concurrency=3)))
    assert peak == 3


PREFIX = {"role": "system", "content": "p" * 4000}  # 1000 tokens at chars / 4


@pytest.mark.parametrize("style", ["openai", "llamacpp"])
def test_cached_prompt_tokens_are_recorded_as_the_endpoint_reports_them(style: str):
    """The second call with the same prefix: cached tokens from usage.prompt_tokens_details
    (OpenAI) or from timings.cache_n (llama.cpp's server), with its server-side seconds."""
    records: list[LLMCallRecord] = []
    prices = {"fake-coder": Price(input_per_mtok=1.0, output_per_mtok=2.0, cached_input_per_mtok=0.1)}
    with FakeOpenAI(lambda r: Reply(text="ok"), cache=style) as server:  # type: ignore[arg-type]
        client = client_for(server, on_record=records.append, prices=prices)

        async def two() -> None:
            for task in ("a", "b"):
                await client.complete("coder", [PREFIX, {"role": "user", "content": f"task {task}"}])

        run(two())
    first, second = records
    assert first.tokens_cached == 0 and second.tokens_cached == 1000
    assert second.tokens_in == first.tokens_in > 1000
    assert client.total_tokens_cached == 1000
    assert second.cost_usd == pytest.approx(((second.tokens_in - 1000) * 1.0 + 1000 * 0.1
                                             + second.tokens_out * 2.0) / 1e6)
    if style == "llamacpp":
        assert second.prompt_s == pytest.approx((second.tokens_in - 1000) * 0.5 / 1000, abs=1e-3)
        assert second.generate_s is not None and second.generate_s > 0
    else:
        assert second.prompt_s is None and second.generate_s is None


def test_no_cache_report_counts_zero():
    records: list[LLMCallRecord] = []
    with FakeOpenAI(lambda r: Reply(text="ok"), cache="none") as server:
        client = client_for(server, on_record=records.append)
        for _ in range(2):
            run(client.complete("coder", [PREFIX, {"role": "user", "content": "x"}]))
    assert [r.tokens_cached for r in records] == [0, 0]


def test_usage_facts_read_what_a_response_carries():
    from types import SimpleNamespace as NS

    openai_like = NS(usage=NS(prompt_tokens=100, completion_tokens=7,
                              prompt_tokens_details=NS(cached_tokens=64)), model_extra={})
    assert usage_facts(openai_like) == {"tokens_in": 100, "tokens_out": 7, "tokens_cached": 64,
                                        "prompt_s": None, "generate_s": None}
    llama = NS(usage=NS(prompt_tokens=100, completion_tokens=7, prompt_tokens_details=None),
               model_extra={"timings": {"cache_n": 80, "prompt_ms": 250.0, "predicted_ms": 1500}})
    assert usage_facts(llama) == {"tokens_in": 100, "tokens_out": 7, "tokens_cached": 80,
                                  "prompt_s": 0.25, "generate_s": 1.5}
    both = NS(usage=NS(prompt_tokens=100, completion_tokens=7,
                       prompt_tokens_details={"cached_tokens": 50}),
              model_extra={"timings": {"cache_n": 80}})
    assert usage_facts(both)["tokens_cached"] == 50  # the usage field wins
    junk = NS(usage=NS(prompt_tokens=-3, completion_tokens="x", prompt_tokens_details=NS(cached_tokens=True)),
              model_extra={"timings": {"cache_n": float("nan"), "prompt_ms": -1}})
    assert usage_facts(junk) == {"tokens_in": 0, "tokens_out": 0, "tokens_cached": 0,
                                 "prompt_s": None, "generate_s": None}
    assert usage_facts(NS(usage=None))["tokens_in"] == 0
    over = NS(usage=NS(prompt_tokens=10, completion_tokens=1, prompt_tokens_details=NS(cached_tokens=99)))
    assert usage_facts(over)["tokens_cached"] == 10  # never more than the prompt
