"""A scripted fake OpenAI-compatible HTTP server on 127.0.0.1 (test double).

    with FakeOpenAI(script) as server:
        client = openai.AsyncOpenAI(base_url=server.base_url, api_key="x")

``script(request) -> Reply`` decides every answer; ``request`` is the parsed JSON body plus the
call index. Replies can be text, an HTTP error (with headers such as Retry-After), a delay
(to provoke client timeouts), a garbage body, or a dropped connection. ``history`` records
every request in order. Only the loopback interface is ever bound.

A prefix cache is emulated: a request whose first message (the stable prefix, sent as a system
message) was seen before reports that message's tokens as cached, the way the server named by
``cache`` does: ``openai`` in ``usage.prompt_tokens_details.cached_tokens``, ``llamacpp`` in a
top-level ``timings`` object (``cache_n``, ``prompt_n``, ``prompt_ms``, ``predicted_ms``), ``none``
not at all. Tokens are counted as characters / 4.
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

CacheStyle = Literal["openai", "llamacpp", "none"]


@dataclass
class Reply:
    text: str = ""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    garbage: bool = False
    drop: bool = False
    finish_reason: str = "stop"


@dataclass
class Request:
    index: int
    body: dict[str, Any]

    @property
    def model(self) -> str:
        return str(self.body.get("model", ""))

    @property
    def messages(self) -> list[dict[str, str]]:
        return list(self.body.get("messages", []))

    @property
    def last_user(self) -> str:
        users = [m.get("content", "") for m in self.messages if m.get("role") == "user"]
        return users[-1] if users else ""


Script = Callable[[Request], Reply]


class FakeOpenAI:
    def __init__(self, script: Script, cache: CacheStyle = "openai") -> None:
        self.script = script
        self.cache = cache
        self.history: list[Request] = []
        self._lock = threading.Lock()
        self._seen_prefixes: set[str] = set()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # headers and body go out in two writes: without this, Nagle's algorithm and the
            # client's delayed ACK add ~40 ms to every answer
            disable_nagle_algorithm = True

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {}
                with outer._lock:
                    req = Request(index=len(outer.history), body=body)
                    outer.history.append(req)
                reply = outer.script(req)
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if reply.drop:
                    try:
                        self.connection.shutdown(socket.SHUT_RDWR)
                    finally:
                        self.connection.close()
                    self.close_connection = True
                    return
                if reply.garbage:
                    payload = b"{this is not json at all"
                elif reply.status != 200:
                    payload = json.dumps(
                        {"error": {"message": f"scripted {reply.status}", "type": "fake"}}
                    ).encode()
                else:
                    payload = json.dumps(outer._completion(req, reply, outer._cached(req))).encode()
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(payload)

        class Server(ThreadingHTTPServer):
            request_queue_size = 256  # many clients connect at once

        self._server = Server(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def _cached(self, req: Request) -> int:
        """Tokens of the request's first message if an earlier request began with it."""
        msgs = req.messages
        if len(msgs) < 2:
            return 0
        first = str(msgs[0].get("content", ""))
        key = hashlib.sha256(f"{msgs[0].get('role')}\0{first}".encode()).hexdigest()
        with self._lock:
            seen = key in self._seen_prefixes
            self._seen_prefixes.add(key)
        return len(first) // 4 if seen else 0

    def _completion(self, req: Request, reply: Reply, cached: int = 0) -> dict[str, Any]:
        prompt_tokens = sum(len(m.get("content", "")) for m in req.messages) // 4 + 1
        body = {
            "id": f"chatcmpl-fake-{req.index}",
            "object": "chat.completion",
            "created": 0,
            "model": req.model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.text},
                    "finish_reason": reply.finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": len(reply.text) // 4 + 1,
                "total_tokens": prompt_tokens + len(reply.text) // 4 + 1,
            },
        }
        if self.cache == "openai":
            body["usage"]["prompt_tokens_details"] = {"cached_tokens": cached}
        elif self.cache == "llamacpp":
            body["timings"] = {"cache_n": cached, "prompt_n": prompt_tokens - cached,
                               "prompt_ms": (prompt_tokens - cached) * 0.5,
                               "predicted_n": len(reply.text) // 4 + 1,
                               "predicted_ms": (len(reply.text) // 4 + 1) * 2.0}
        return body

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)
