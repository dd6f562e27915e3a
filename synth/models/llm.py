"""OpenAI-compatible model client: roles, retries, concurrency limits, usage ledger, transcripts.

Built on the official ``openai`` ``AsyncOpenAI`` client, so any OpenAI-compatible server works
(OpenAI, vLLM, SGLang, llama.cpp's server, ...). The client's own retries are switched off and
replaced by a bounded tenacity policy that retries rate limits, 5xx answers, timeouts, dropped
connections and unparseable answers with exponential backoff and jitter, honouring
``Retry-After``. A call that still fails raises :class:`LLMFailure` with a kind, which the workflow
turns into a typed failure of that one task, never a crash of the run.

Configuration comes in as :class:`ModelSpec` objects built at the CLI edge (which is where
``OPENAI_BASE_URL`` / ``OPENAI_API_KEY`` are read); this module never reads the environment.
A base URL may carry credentials (``http://user:secret@host/v1``, ``?api_key=...``): the client
uses it as given, and everything written (the ledger's ``endpoint``, error texts, a run's
config) goes through :func:`redact_url` / :func:`redact_text` first.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import time
import uuid
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import httpx
import openai
from pydantic import BaseModel, ConfigDict, Field, SecretStr
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    stop_after_delay,
)

from synth.text.utf8 import escape_surrogates, escape_value, json_text

Role = Literal["coder", "solver"]
FailureKind = Literal[
    "rate_limit", "server", "timeout", "connection", "bad_response", "auth", "bad_request"
]
RETRYABLE: frozenset[str] = frozenset({"rate_limit", "server", "timeout", "connection", "bad_response"})


#: query parameters of a base URL shown as they are (every other value may be a key)
PUBLIC_QUERY_KEYS = frozenset({"api-version"})
_URL_IN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>\\]+")


def redact_url(url: str) -> str:
    """``url`` as it may be written (config.json, events, transcripts, logs): user info
    (``user:password@``) becomes ``***@``, every query value but :data:`PUBLIC_QUERY_KEYS`
    becomes ``***``, a fragment ``***``. A URL with none of these comes back unchanged; the
    client keeps the real one in memory."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<a URL that does not parse>"
    if "@" not in parts.netloc and not parts.query and not parts.fragment:
        return url
    netloc = "***@" + parts.netloc.rsplit("@", 1)[1] if "@" in parts.netloc else parts.netloc
    shown = []
    for piece in parts.query.split("&") if parts.query else []:
        key, eq, _ = piece.partition("=")
        shown.append(piece if eq and key.lower() in PUBLIC_QUERY_KEYS else
                     f"{key}=***" if eq else "***")
    query = "&".join(shown)
    return urlunsplit((parts.scheme, netloc, parts.path, query, "***" if parts.fragment else ""))


def redact_text(text: str) -> str:
    """``text`` (an error message, a log line) with every URL in it passed through
    :func:`redact_url`."""
    return _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)


class ModelSpec(BaseModel):
    """One role's model: name, endpoint and sampling settings."""

    model_config = ConfigDict(extra="forbid")

    model: str
    base_url: str | None = None
    api_key: SecretStr | None = Field(default=None, exclude=True)
    temperature: float = Field(default=0.7, ge=0.0, le=2.0)
    top_p: float | None = Field(default=None, gt=0.0, le=1.0)
    max_tokens: int = Field(default=4096, ge=1, le=1_000_000)
    timeout_s: float = Field(default=180.0, gt=0.0, le=3600.0)
    seed: int | None = None

    def endpoint_key(self) -> str:
        """The endpoint as this process tells endpoints apart (the real URL: never write it)."""
        return self.base_url or "default"

    def endpoint_label(self) -> str:
        """The endpoint as files and logs may show it (:func:`redact_url`)."""
        return redact_url(self.endpoint_key())

    def public_dump(self) -> dict[str, Any]:
        """The spec as a file may hold it: the API key left out, the base URL redacted."""
        data = self.model_dump(mode="json")
        if data.get("base_url"):
            data["base_url"] = redact_url(data["base_url"])
        return data


class Price(BaseModel):
    model_config = ConfigDict(extra="forbid")

    input_per_mtok: float = Field(default=0.0, ge=0.0)
    output_per_mtok: float = Field(default=0.0, ge=0.0)
    #: price of prompt tokens served from the endpoint's cache (None: as other prompt tokens)
    cached_input_per_mtok: float | None = Field(default=None, ge=0.0)

    def cost(self, tokens_in: int, tokens_out: int, tokens_cached: int = 0) -> float:
        cached = min(max(tokens_cached, 0), tokens_in)
        rate = self.input_per_mtok if self.cached_input_per_mtok is None else self.cached_input_per_mtok
        return ((tokens_in - cached) * self.input_per_mtok + cached * rate
                + tokens_out * self.output_per_mtok) / 1e6


class RetryPolicy(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_attempts: int = Field(default=6, ge=1, le=50)
    initial_s: float = Field(default=1.0, ge=0.0)
    max_backoff_s: float = Field(default=30.0, ge=0.0)
    max_total_s: float = Field(default=600.0, gt=0.0)
    max_retry_after_s: float = Field(default=120.0, ge=0.0)


class LLMCallRecord(BaseModel):
    """One logical call (all its attempts), as written to the run's ledger."""

    model_config = ConfigDict(extra="forbid")

    call_id: str
    role: str
    model: str
    endpoint: str
    tag: str
    prompt_version: str | None
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = Field(default=0, description="prompt tokens the endpoint served from "
                               "its prefix cache, when it says so (0 when it does not)")
    latency_s: float = 0.0
    prompt_s: float | None = Field(default=None, description="server-side prompt reading time "
                                   "(llama.cpp's timings), when reported")
    generate_s: float | None = Field(default=None, description="server-side generation time "
                                     "(llama.cpp's timings), when reported")
    queued_s: float = Field(default=0.0, description="time spent waiting for a concurrency slot")
    cost_usd: float = 0.0
    attempts: int = 0
    ok: bool = True
    error_kind: str | None = None
    error: str | None = None
    finish_reason: str | None = None
    escaped_surrogates: int = Field(default=0, description="lone surrogates (text no UTF-8 "
                                    "writer takes) in the messages sent or the reply, sent and "
                                    "kept as \\udXXX escapes")


class LLMResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str
    finish_reason: str | None
    record: LLMCallRecord


class LLMFailure(Exception):
    """A model call that failed for good (after retries, or at once for non-retryable kinds)."""

    def __init__(self, kind: FailureKind, message: str, record: LLMCallRecord | None = None):
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.record = record


def _surrogates(text: str) -> int:
    return sum(1 for ch in text if "\ud800" <= ch <= "\udfff")


def classify(exc: BaseException) -> FailureKind:
    """Map an exception from the openai client to a failure kind."""
    if isinstance(exc, LLMFailure):
        return exc.kind
    if isinstance(exc, openai.RateLimitError):
        return "rate_limit"
    if isinstance(exc, openai.APITimeoutError | asyncio.TimeoutError | httpx.TimeoutException):
        return "timeout"
    if isinstance(exc, openai.APIConnectionError | httpx.TransportError):
        return "connection"
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return "auth"
    if isinstance(exc, openai.APIStatusError):
        if exc.status_code >= 500 or exc.status_code in (408, 409):
            return "server"
        return "bad_request"
    return "bad_response"


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value or value < 0:
        return None
    return int(value)


def usage_facts(resp: Any) -> dict[str, Any]:
    """tokens_in, tokens_out, tokens_cached, prompt_s, generate_s of one response, from what it
    carries: ``usage`` (OpenAI and most servers; cached prompt tokens in
    ``usage.prompt_tokens_details.cached_tokens``) and llama.cpp's ``timings`` (``cache_n``,
    ``prompt_ms``, ``predicted_ms``), which the openai client keeps as an extra field. A missing
    or malformed value counts 0 (tokens) or None (seconds)."""
    facts: dict[str, Any] = {"tokens_in": 0, "tokens_out": 0, "tokens_cached": 0,
                             "prompt_s": None, "generate_s": None}
    usage = getattr(resp, "usage", None)
    if usage is not None:
        facts["tokens_in"] = _int(getattr(usage, "prompt_tokens", 0)) or 0
        facts["tokens_out"] = _int(getattr(usage, "completion_tokens", 0)) or 0
        details = getattr(usage, "prompt_tokens_details", None)
        if isinstance(details, dict):
            cached = _int(details.get("cached_tokens"))
        else:
            cached = _int(getattr(details, "cached_tokens", None))
        facts["tokens_cached"] = cached or 0
    extra = getattr(resp, "model_extra", None) or {}
    timings = extra.get("timings") if isinstance(extra, dict) else None
    if isinstance(timings, dict):
        if not facts["tokens_cached"]:
            facts["tokens_cached"] = _int(timings.get("cache_n")) or 0
        for key, field in (("prompt_ms", "prompt_s"), ("predicted_ms", "generate_s")):
            ms = timings.get(key)
            if isinstance(ms, int | float) and not isinstance(ms, bool) and ms == ms and ms >= 0:
                facts[field] = round(float(ms) / 1000.0, 4)
    facts["tokens_cached"] = min(facts["tokens_cached"], facts["tokens_in"]) \
        if facts["tokens_in"] else facts["tokens_cached"]
    return facts


def retry_after_s(exc: BaseException) -> float | None:
    """Seconds requested by a ``Retry-After`` (or ``retry-after-ms``) header, if any."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


#: an external per-endpoint limit (e.g. one that holds across a cluster): called with the
#: endpoint key, returns the async context manager one attempt holds while its request is out
EndpointLimiter = Callable[[str], AbstractAsyncContextManager[Any]]


class LLMClient:
    """Async chat-completion client over roles, with per-endpoint concurrency limits.

    ``max_concurrency`` bounds this client's requests in flight per endpoint; ``limiter``, when
    given, is held as well (after the local slot), so that a limit shared by many clients --
    the Ray executor's cluster-wide one -- applies too. ``queued_s`` counts the wait for both.
    """

    def __init__(
        self,
        roles: dict[str, ModelSpec],
        *,
        prices: dict[str, Price] | None = None,
        retry: RetryPolicy | None = None,
        max_concurrency: int = 16,
        on_record: Callable[[LLMCallRecord], None] | None = None,
        transcript_dir: Path | None = None,
        rng: random.Random | None = None,
        limiter: EndpointLimiter | None = None,
    ) -> None:
        self.roles = roles
        self.limiter = limiter
        self.prices = prices or {}
        self.retry = retry or RetryPolicy()
        self.on_record = on_record
        self.transcript_dir = transcript_dir
        self._transcript_dir_ready = False
        self._rng = rng or random.Random()
        self._max_concurrency = max_concurrency
        self._clients: dict[tuple[str, str], openai.AsyncOpenAI] = {}
        self._limits: dict[str, asyncio.Semaphore] = {}
        self.total_cost_usd = 0.0
        self.total_tokens_in = 0
        self.total_tokens_out = 0
        self.total_tokens_cached = 0

    def _client(self, spec: ModelSpec) -> openai.AsyncOpenAI:
        key = (spec.endpoint_key(), spec.api_key.get_secret_value() if spec.api_key else "")
        client = self._clients.get(key)
        if client is None:
            client = openai.AsyncOpenAI(
                api_key=key[1] or "not-needed",
                base_url=spec.base_url,
                timeout=spec.timeout_s,
                max_retries=0,
            )
            self._clients[key] = client
        return client

    def _limit(self, spec: ModelSpec) -> asyncio.Semaphore:
        sem = self._limits.get(spec.endpoint_key())
        if sem is None:
            sem = self._limits[spec.endpoint_key()] = asyncio.Semaphore(self._max_concurrency)
        return sem

    def cost(self, model: str, tokens_in: int, tokens_out: int, tokens_cached: int = 0) -> float:
        price = self.prices.get(model)
        if price is None:
            return 0.0
        return price.cost(tokens_in, tokens_out, tokens_cached)

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        pol = self.retry
        backoff = min(pol.max_backoff_s, pol.initial_s * (2 ** (state.attempt_number - 1)))
        backoff = self._rng.uniform(backoff / 2, backoff)  # jitter
        requested = retry_after_s(exc) if exc is not None else None
        if requested is not None:
            return min(pol.max_retry_after_s, max(requested, backoff / 2))
        return backoff

    async def _attempt(
        self, spec: ModelSpec, messages: list[dict[str, str]], record: LLMCallRecord
    ) -> tuple[str, str | None]:
        record.attempts += 1
        kwargs: dict[str, Any] = {
            "model": spec.model,
            "messages": messages,
            "temperature": spec.temperature,
            "max_tokens": spec.max_tokens,
        }
        if spec.top_p is not None:
            kwargs["top_p"] = spec.top_p
        if spec.seed is not None:
            kwargs["seed"] = spec.seed
        t_wait = time.perf_counter()
        outer = self.limiter(spec.endpoint_key()) if self.limiter else contextlib.nullcontext()
        async with self._limit(spec), outer:
            record.queued_s = round(record.queued_s + time.perf_counter() - t_wait, 4)
            resp = await asyncio.wait_for(
                self._client(spec).chat.completions.create(**kwargs), timeout=spec.timeout_s + 5
            )
        choices = getattr(resp, "choices", None)
        if not choices or getattr(choices[0], "message", None) is None:
            raise LLMFailure("bad_response", f"answer without choices: {str(resp)[:200]}")
        text = choices[0].message.content
        if not isinstance(text, str):
            raise LLMFailure("bad_response", "answer without text content")
        shown = escape_surrogates(text)  # a JSON "\ud800" escape: no file or sandbox takes it
        if shown is not text:
            record.escaped_surrogates += _surrogates(text)
            text = shown
        facts = usage_facts(resp)
        record.tokens_in += facts["tokens_in"]
        record.tokens_out += facts["tokens_out"]
        record.tokens_cached += facts["tokens_cached"]
        for key in ("prompt_s", "generate_s"):
            if facts[key] is not None:
                setattr(record, key, round((getattr(record, key) or 0.0) + facts[key], 4))
        return text, getattr(choices[0], "finish_reason", None)

    async def complete(
        self,
        role: str,
        messages: list[dict[str, str]],
        *,
        tag: str = "",
        prompt_version: str | None = None,
    ) -> LLMResult:
        """One chat completion for ``role``; raises :class:`LLMFailure` when it fails for good."""
        spec = self.roles[role]
        record = LLMCallRecord(
            call_id=uuid.uuid4().hex[:12],
            role=role,
            model=spec.model,
            endpoint=spec.endpoint_label(),
            tag=tag,
            prompt_version=prompt_version,
        )
        t0 = time.perf_counter()
        text: str | None = None
        finish: str | None = None
        sendable, places = escape_value(messages)  # the request is UTF-8 JSON too
        if places:
            record.escaped_surrogates += sum(_surrogates(m.get("content", "")) for m in messages
                                             if isinstance(m.get("content"), str))
            messages = sendable
        try:
            async for attempt in AsyncRetrying(
                # a cancelled call (the filter's early stop) ends, it is not retried
                retry=retry_if_exception(
                    lambda e: not isinstance(e, asyncio.CancelledError) and classify(e) in RETRYABLE),
                stop=stop_after_attempt(self.retry.max_attempts)
                | stop_after_delay(self.retry.max_total_s),
                wait=self._wait,
                reraise=True,
            ):
                with attempt:
                    text, finish = await self._attempt(spec, messages, record)
        except Exception as exc:
            kind = classify(exc)
            record.ok = False
            record.error_kind = kind
            record.error = redact_text(str(exc))[:500]
            self._finish(record, t0, messages, None)
            raise LLMFailure(kind, record.error, record) from exc
        assert text is not None
        record.finish_reason = finish
        self._finish(record, t0, messages, text)
        return LLMResult(text=text, finish_reason=finish, record=record)

    def _finish(
        self, record: LLMCallRecord, t0: float, messages: list[dict[str, str]], text: str | None
    ) -> None:
        record.latency_s = round(time.perf_counter() - t0, 4)
        record.cost_usd = self.cost(record.model, record.tokens_in, record.tokens_out,
                                    record.tokens_cached)
        self.total_cost_usd += record.cost_usd
        self.total_tokens_in += record.tokens_in
        self.total_tokens_out += record.tokens_out
        self.total_tokens_cached += record.tokens_cached
        if self.transcript_dir is not None:
            self._write_transcript(record, messages, text)
        if self.on_record is not None:
            self.on_record(record)

    def _write_transcript(
        self, record: LLMCallRecord, messages: list[dict[str, str]], text: str | None
    ) -> None:
        """Append the call to ``<transcript_dir>/<task>.jsonl`` (one line per call)."""
        assert self.transcript_dir is not None
        if not self._transcript_dir_ready:
            self.transcript_dir.mkdir(parents=True, exist_ok=True)
            self._transcript_dir_ready = True
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", record.tag.split("|", 1)[0] or "calls")[:120]
        line = json_text(
            {"record": record.model_dump(), "messages": messages, "response": text},
            ensure_ascii=False,
        )
        fd = os.open(self.transcript_dir / f"{stem}.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, (line + "\n").encode("utf-8"))
        finally:
            os.close(fd)

    async def aclose(self) -> None:
        for client in self._clients.values():
            await client.close()
        self._clients.clear()
