"""The model client's external limiter hook (what the Ray executor's cluster-wide limit plugs
into) and the end of a cancelled call (the filter's early stop): it is not retried."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

from fakes.openai_server import FakeOpenAI, Reply

from synth.models.llm import LLMClient, ModelSpec, RetryPolicy


def _spec(server: FakeOpenAI) -> ModelSpec:
    return ModelSpec(model="fake", base_url=server.base_url, api_key="k", timeout_s=5.0)


class Counting:
    """A shared limit of ``n`` (one asyncio.Semaphore standing in for the cluster's)."""

    def __init__(self, n: int) -> None:
        self.sem = asyncio.Semaphore(n)
        self.endpoints: list[str] = []
        self.held = 0
        self.max_held = 0

    def __call__(self, endpoint: str) -> Any:
        self.endpoints.append(endpoint)
        return self._hold()

    @contextlib.asynccontextmanager
    async def _hold(self) -> AsyncIterator[None]:
        async with self.sem:
            self.held += 1
            self.max_held = max(self.max_held, self.held)
            try:
                yield
            finally:
                self.held -= 1


def test_an_external_limit_holds_across_clients():
    lock = threading.Lock()
    state = {"now": 0, "max": 0}

    def script(_req: Any) -> Reply:
        with lock:
            state["now"] += 1
            state["max"] = max(state["max"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return Reply(text="ok")

    async def main(server: FakeOpenAI) -> tuple[Counting, list[Any]]:
        shared = Counting(2)
        clients = [LLMClient({"solver": _spec(server)}, max_concurrency=8, limiter=shared)
                   for _ in range(3)]  # each alone would allow 8 at once
        results = await asyncio.gather(*[
            c.complete("solver", [{"role": "user", "content": f"q{i}"}])
            for i in range(8) for c in clients])
        for c in clients:
            await c.aclose()
        return shared, results

    with FakeOpenAI(script) as server:
        shared, results = asyncio.run(main(server))
    assert len(results) == 24 and state["max"] <= 2 and shared.max_held == 2
    assert set(shared.endpoints) == {_spec(server).endpoint_key()}
    assert max(r.record.queued_s for r in results) > 0.05  # waited for the shared limit


def test_a_cancelled_call_is_not_retried():
    calls: list[float] = []

    def script(_req: Any) -> Reply:
        calls.append(time.monotonic())
        return Reply(text="late", delay_s=0.5)

    async def main(server: FakeOpenAI) -> list[Any]:
        records: list[Any] = []
        client = LLMClient({"solver": _spec(server)}, on_record=records.append,
                           retry=RetryPolicy(max_attempts=4, initial_s=0.01, max_backoff_s=0.02))
        task = asyncio.create_task(client.complete("solver", [{"role": "user", "content": "q"}]))
        await asyncio.sleep(0.2)
        task.cancel()
        t0 = time.monotonic()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert time.monotonic() - t0 < 0.2 and task.cancelled()
        await asyncio.sleep(0.8)  # a retry, if any, would have been sent by now
        await client.aclose()
        return records

    with FakeOpenAI(script) as server:
        records = asyncio.run(main(server))
    assert len(calls) == 1 and records == []
