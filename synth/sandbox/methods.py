"""Host side of the method-call protocol: ask a sandboxed bootcamp questions, get plain values.

A :class:`MethodServer` starts the kit's method server (:mod:`synth.sandbox.kit`) for one
bootcamp module in a long-lived sandbox session (any backend with ``spawn``), and turns each
question into one request line and one validated reply::

    with MethodServer(code, backend="bwrap") as server:
        handle = server.call("construct", {"params": {}, "seed": 1}).value
        reply = server.call("generate", {"handle": handle}, timeout_s=2.0)

Every reply is a :class:`Reply` with a typed outcome: ``PASSED`` (``value`` holds the plain
JSON value the server returned), ``ERROR`` (the bootcamp raised: ``error``, ``kind``,
``traceback``), ``TIMEOUT`` (no reply within the call's time: the whole session is killed),
``OOM`` (``MemoryError``, or the session was killed at the memory limit), ``OUTPUT_OVERFLOW``
(a reply larger than ``max_reply_bytes``), ``SANDBOX_ERROR`` (the infrastructure failed: never
the bootcamp's fault). A reply that is not the protocol -- not JSON, the wrong id, the wrong
shape, a line without the session's token -- is ``ERROR`` with ``kind == "protocol"``: only the
untrusted side writes into that pipe, so a corrupt channel is the bootcamp's doing.

The kit's first line is a random token (written before the bootcamp is imported, so the
bootcamp cannot write before it, and it cannot read the pipe); from then on a line counts only
when it starts with that token, so a bootcamp that finds the reply pipe and writes into it (or
answers the requests itself) is a protocol error, never an answer. A server whose first line is
not a token (a scripted test double) is read without one.

Nothing here judges a value. The callers (the gate, the filter, export, review, rewards)
validate each value's type and size for the question they asked, and decide.

Two things are refused here, at the boundary. Text no UTF-8 writer takes
(:mod:`synth.text.utf8`): the kit writes a bootcamp's strings as they are, so a reply can hold lone
surrogates. A value that holds one (a case, a prompt, an answer, an observation, the
handshake) is ``ERROR`` with ``kind == "unencodable"`` naming the place, the session kept (in
a ``batch``, the item alone); an error's message and traceback are only shown, so their
surrogates are escaped (``\\udXXX``) and the error says so. And too much, where the caller
gives a :class:`ReplyBudget`: it caps what the host takes from one candidate, over every session that
shares it (the gate gives one to all the sessions of a candidate), counted as the memory the
replies take once parsed (:func:`reply_weight`: a reply of many small objects costs more than
its bytes); the reply that passes it is ``ERROR`` with ``kind == "reply_budget"`` naming the
call and the totals, its session is killed, and every later call of a session that shares the
budget gets the same answer without asking. The per-reply cap (``max_reply_bytes``) applies
too.

One session serves one bootcamp (``SandboxJob.unit`` is the sha256 of its code, plus a role
suffix when the host needs independent processes of the same code, e.g. the determinism
check's second process); it is discarded after use.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import orjson

import synth.bootcamp
from synth.sandbox.base import (
    Backend,
    Limits,
    Outcome,
    SandboxJob,
    SandboxUnavailableError,
    Session,
    SessionError,
    SpawningBackend,
    classify_exit,
)
from synth.sandbox.kit import (
    AUTH_OPEN,
    KIT_NAME,
    KIT_PACKAGE,
    LAUNCHER,
    REPLY_OPEN,
    contract_modules,
)
from synth.sandbox.runqueue import TreeClock
from synth.text.utf8 import ESCAPED_NOTE, describe, escape_value, find_unencodable

__all__ = [
    "KIT_FILES",
    "OVER_BUDGET",
    "UNENCODABLE",
    "MethodServer",
    "Reply",
    "ReplyBudget",
    "code_unit",
    "contract_files",
    "decode_reply",
    "encode_request",
    "error_reply",
    "kit_files",
    "method_job",
    "reply_weight",
    "server_limits",
    "session_death",
    "spawning_backend",
]

_HERE = Path(__file__).resolve().parent


def kit_files() -> dict[str, str]:
    """The kit as every job gets it (see :mod:`synth.sandbox.kit`): the launcher as
    :data:`KIT_NAME` (the job's ``argv[0]``), and each ``.py`` file of the kit's folder, as it
    is, under :data:`KIT_PACKAGE` -- computed from the folder, so a new module is shipped too."""
    files = {KIT_NAME: LAUNCHER}
    for path in sorted((_HERE / "kit").glob("*.py")):
        files[f"{KIT_PACKAGE}/{path.name}"] = path.read_text(encoding="utf-8")
    return files


KIT_FILES = kit_files()
#: The contract as shipped, path -> source: ``synth/bootcamp.py`` and the modules of ``synth``
#: it imports (:func:`synth.sandbox.kit.contract_modules`: the modules the kit snapshots).
_CONTRACT_FILES = {
    part.__name__.replace(".", "/") + ".py": Path(part.__file__).read_text(encoding="utf-8")
    for part in contract_modules(synth.bootcamp) if part.__file__
}
_ENGINES_SOURCE = (_HERE.parent / "engines.py").read_text(encoding="utf-8")
_SHIM_SOURCE = (_HERE / "intern_shim.py").read_text(encoding="utf-8")
#: Host-side slack on top of a call's own limit (process start-up jitter, pipe latency).
GRACE_S = 1.0
_AUTH_LINE = re.compile(re.escape(AUTH_OPEN) + rb'([0-9a-f]{16,64})"\}')
#: The reply kinds the host gives (never the kit): a value holding text UTF-8 cannot encode,
#: and a candidate whose replies passed its :class:`ReplyBudget`.
UNENCODABLE = "unencodable"
OVER_BUDGET = "reply_budget"
#: A JSON escape of a surrogate code point (a raw one is not valid UTF-8)
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
#: an int orjson may read as a float (beyond 64 bits)
_LONG_NUMBER = re.compile(rb"[0-9]{19}")


def code_unit(code: str, role: str = "") -> str:
    """The isolation unit of a job that runs ``code`` (``role`` separates independent
    processes of the same code that must not share a container)."""
    digest = hashlib.sha256(code.encode("utf-8")).hexdigest()
    return f"{digest}/{role}" if role else digest


def contract_files() -> dict[str, str]:
    """The files every bootcamp job needs: the kit and the contract package (the contract's
    modules and the client of declared engines, :mod:`synth.engines`)."""
    return {**KIT_FILES, "synth/__init__.py": "", **_CONTRACT_FILES,
            "synth/engines.py": _ENGINES_SOURCE}


#: The shim's packages also search the audited library's own folders of the same name on the
#: job's import path (``synth audit --path``), after the shim's: ``internbootcamp.libs.x``
#: resolves there while ``internbootcamp.bootcamp.base`` stays the shim's.
_EXTEND_PATH = (
    "import os as _os, sys as _sys\n"
    "__path__ = [*__path__, *(d for d in (_os.path.join(p, *__name__.split('.'))\n"
    "                                     for p in _sys.path[1:] if p)\n"
    "            if _os.path.isdir(d) and d not in __path__)]\n"
    "del _os, _sys\n"
)


def intern_files(source: str, relative: bool) -> tuple[dict[str, str], str]:
    """(files, module name) laying out an InternBootcamp-style module with the audit shim
    under the import paths such modules use."""
    reexport = "from intern_shim import Basebootcamp  # noqa: F401\n"
    files = {
        "intern_shim.py": _SHIM_SOURCE,
        "bootcamp/__init__.py": reexport + _EXTEND_PATH,
        "internbootcamp/__init__.py": _EXTEND_PATH,
        "internbootcamp/bootcamp/__init__.py": reexport + _EXTEND_PATH,
        "internbootcamp/bootcamp/base.py": reexport,
    }
    module = "internbootcamp.bootcamp.candidate" if relative else "candidate"
    files[module.replace(".", "/") + ".py"] = source
    return files, module


def server_limits(memory_mb: int = 1024, pids: int = 16, max_output_bytes: int = 1_000_000) -> Limits:
    """Limits for a long-lived server: ``wall_s``/``cpu_s`` bound its life, not a call."""
    return Limits(wall_s=3600, cpu_s=3600, memory_mb=memory_mb, file_size_mb=4,
                  open_files=64, pids=pids, max_output_bytes=max_output_bytes)


def method_job(
    code: str,
    *,
    mode: str = "native",
    class_name: str = "",
    relative: bool = False,
    env: dict[str, str] | None = None,
    shift_clock: bool = False,
    role: str = "",
    label: str = "",
) -> SandboxJob:
    """The sandbox job that serves ``code`` (a bootcamp module's source)."""
    files = contract_files()
    if mode == "intern":
        extra, module = intern_files(code, relative)
        files.update(extra)
    elif mode == "checker":  # an independent checker: check(), solve(), probes()
        files = {**KIT_FILES, "checker.py": code}
        module = "checker"
    elif mode == "validator":  # an input validator: validate(stdin) -> None | str
        files = {**KIT_FILES, "validator.py": code}
        module = "validator"
    else:
        files["candidate.py"] = code
        module = "candidate"
    argv = [KIT_NAME, "serve", module, class_name, mode]
    if shift_clock:
        argv.append("--shift-clock")
    if label:
        argv.append(label)
    return SandboxJob(files=files, argv=argv, env=env or {}, unit=code_unit(code, role))


def spawning_backend(backend: str | Backend) -> SpawningBackend:
    """A backend (by name or instance) that can start long-lived sessions, or
    ``SandboxUnavailableError`` saying why not."""
    if isinstance(backend, str):
        from synth.sandbox import get_backend

        backend = get_backend(backend)
    if not isinstance(backend, SpawningBackend):
        raise SandboxUnavailableError(
            f"the {backend.name} backend cannot start long-lived sessions (no spawn())")
    return backend


def encode_request(rid: int, method: str, params: dict[str, Any]) -> bytes:
    """One request line. orjson where it can (fast); json for what it refuses (big ints)."""
    request = [rid, method, params]
    try:
        return orjson.dumps(request) + b"\n"
    except TypeError:
        return json.dumps(request, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n"


@dataclass(slots=True)
class Reply:
    """One answer of the method server (see the module docstring)."""

    outcome: Outcome
    value: Any = None
    kind: str = ""
    error: str = ""
    traceback: str = ""
    elapsed_s: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.PASSED


def _loads(line: bytes) -> tuple[Any, bool]:
    """(value, whether its strings may hold lone surrogates). orjson refuses surrogates and
    reads an int beyond 64 bits as a float: a line with 19 digits in a row goes to json,
    which keeps both exactly."""
    if _LONG_NUMBER.search(line) is None:
        try:
            return orjson.loads(line), False
        except orjson.JSONDecodeError:
            pass
    value = json.loads(line)  # raises ValueError when not JSON
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return value, True
    return value, _SURROGATE_ESCAPE.search(line) is not None


def decode_reply(line: bytes, method: str = "") -> tuple[Any, Reply]:
    """(id, reply) from one line. A line that is not the protocol gives id None and a
    ``protocol`` error. Text UTF-8 cannot encode is refused in a value (``unencodable``; in
    a ``batch`` reply, per item) and escaped in an error (see the module docstring)."""
    try:
        obj, suspect = _loads(line)
    except (ValueError, RecursionError) as exc:
        return None, Reply(Outcome.ERROR, kind="protocol",
                           error=f"the method server wrote a line that is not JSON: {exc}"[:300])
    if type(obj) is not dict or "id" not in obj or ("ok" in obj) == ("err" in obj):
        return None, Reply(Outcome.ERROR, kind="protocol",
                           error="the method server wrote a line that is not a reply")
    rid = obj["id"]
    if "ok" in obj:
        value = obj["ok"]
        if suspect:
            refused, value = _screen(method, value)
            if refused is not None:
                return rid, refused
        return rid, Reply(Outcome.PASSED, value=value)
    return rid, error_reply(obj["err"])


def _screen(method: str, value: Any) -> tuple[Reply | None, Any]:
    """(a refusal, None) when ``value`` holds text UTF-8 cannot encode, else (None, value);
    a ``batch`` keeps its good items and gets an ``unencodable`` error for each bad one."""
    if method == "batch" and type(value) is list:
        items = []
        for item in value:
            if type(item) is dict and "ok" in item:
                places = find_unencodable(item["ok"], 1)
                if places:
                    item = {"err": {"kind": UNENCODABLE, "traceback": "",
                                    "message": _refusal(describe(places[0], "the returned value"))}}
            items.append(item)
        return None, items
    places = find_unencodable(value, 1)
    if not places:
        return None, value
    return Reply(Outcome.ERROR, kind=UNENCODABLE,
                 error=_refusal(describe(places[0], "the returned value"))), None


def _refusal(where: str) -> str:
    return f"returned text that UTF-8 cannot encode, which the host refuses: {where}"


def error_reply(err: Any) -> Reply:
    """The :class:`Reply` of one ``{"kind", "message", "traceback"}`` error object (a reply's
    ``err``, or one item of a batch)."""
    if type(err) is not dict:
        return Reply(Outcome.ERROR, kind="protocol", error="malformed error reply")
    err, escaped = escape_value(err)  # shown, never used: surrogates escaped, and said
    kind = str(err.get("kind", "error"))[:32]
    outcome = {"oom": Outcome.OOM, "timeout": Outcome.TIMEOUT}.get(kind, Outcome.ERROR)
    error, trace = str(err.get("message", ""))[:600], str(err.get("traceback", ""))[-3000:]
    if escaped:  # said at both ends: a reader may see either cut
        error, trace = f"{error} ({ESCAPED_NOTE})", f"{trace}\n({ESCAPED_NOTE})"
    return Reply(outcome, kind=kind, error=error, traceback=trace)


def session_death(session: Session, exc: Exception, what: str) -> tuple[Outcome, str, str]:
    """(outcome, detail, stderr tail) of a session that ended under us: OOM or TIMEOUT when
    its exit status says a limit killed it, else ERROR. Waits up to 1 s for the exit status."""
    code = None
    for _ in range(100):
        code = session.returncode()
        if code is not None:
            break
        time.sleep(0.01)
    tail = session.stderr_tail()
    outcome, detail = Outcome.ERROR, f"{what} died ({exc})"
    if code is not None:
        kind, _, _, why = classify_exit(code, tail)
        if kind in (Outcome.OOM, Outcome.TIMEOUT):
            outcome = kind
        detail = f"{what} died: {why or 'exit status 0'}"
    return outcome, detail, tail[-3000:]


def _mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def reply_weight(size: int, value: Any) -> int:
    """About the bytes a reply takes in the host's memory once parsed: its ``size`` (the
    line's bytes: the text of its strings) plus the objects parsing made of ``value`` -- 64
    per container and 8 per list slot or 100 per dict item, 49 per string, 32 per number.
    Never below tracemalloc's measure for text, numbers or many small objects (an empty dict
    is 64 bytes for 3 of JSON); a case's JSON text, kept as one string, costs its length."""
    extra = 0
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str:
            extra += 49
        elif kind is dict:
            extra += 64 + 100 * len(item)
            stack.extend(item.values())
        elif kind is list:
            extra += 56 + 8 * len(item)
            stack.extend(item)
        elif kind is int or kind is float:
            extra += 32
    return size + extra


class ReplyBudget:
    """What the host takes from one candidate's replies, over every session that shares this
    budget (:func:`reply_weight`: about bytes of memory), and its cap (see the module
    docstring). Thread-safe: a candidate's sessions may run in several threads (the gate's
    second process)."""

    def __init__(self, limit_bytes: int) -> None:
        self.limit_bytes = limit_bytes
        self.used = 0
        self.replies = 0
        #: method -> [replies, weight, the heaviest reply]
        self.by_method: dict[str, list[int]] = {}
        #: the refusal, once the total passed the cap (every later call gets it)
        self.exceeded: Reply | None = None
        self._lock = threading.Lock()

    def charge(self, size: int, weight: int, method: str) -> Reply | None:
        """Count one reply to ``method`` (``size`` bytes, ``weight`` in memory); the refusal
        once the total passed the cap (with this reply or an earlier one), else None."""
        with self._lock:
            if self.exceeded is None:
                self.used += weight
                self.replies += 1
                entry = self.by_method.setdefault(method, [0, 0, 0])
                entry[0] += 1
                entry[1] += weight
                entry[2] = max(entry[2], weight)
                if self.used > self.limit_bytes:
                    self.exceeded = self._refusal(size, weight, method)
        return self.refusal()

    def refusal(self) -> Reply | None:
        """A fresh copy of the refusal, once the total passed the cap; else None."""
        done = self.exceeded
        return None if done is None else replace(done, extra=dict(done.extra))

    def summary(self) -> str:
        """Replies and their weight per method, the heaviest first."""
        rows = sorted(self.by_method.items(), key=lambda kv: -kv[1][1])
        return "; ".join(f"{m}: {n:,} replies, {_mb(w)} (heaviest {top:,} bytes)"
                         for m, (n, w, top) in rows[:8])

    def _refusal(self, size: int, weight: int, method: str) -> Reply:
        error = (f"passed the {_mb(self.limit_bytes)} of replies the host keeps from one "
                 f"candidate: reply {self.replies:,} (to {method}: {size:,} bytes, about "
                 f"{weight:,} in memory) brought the total to about {self.used:,} bytes; make "
                 "observations, states and texts smaller")
        return Reply(Outcome.ERROR, kind=OVER_BUDGET, error=error, extra={
            "call": self.replies, "method": method, "reply_bytes": size, "reply_weight": weight,
            "total": self.used, "limit": self.limit_bytes, "replies": self.summary()})


class MethodServer:
    """A sandboxed method server for one bootcamp module (see the module docstring).

    Synchronous and not thread-safe: one caller asks one question at a time. After a timeout,
    a death or a protocol error the session is closed and every later call returns the same
    failure (``dead``); :meth:`restart` starts a fresh one (the bootcamp's state is lost)."""

    def __init__(
        self,
        code: str,
        *,
        backend: str | Backend = "auto",
        limits: Limits | None = None,
        mode: str = "native",
        class_name: str = "",
        relative: bool = False,
        env: dict[str, str] | None = None,
        shift_clock: bool = False,
        role: str = "",
        label: str = "",
        start_timeout_s: float = 30.0,
        max_reply_bytes: int = 4_000_000,
        budget: ReplyBudget | None = None,
    ) -> None:
        self.backend: SpawningBackend = spawning_backend(backend)
        self.limits = limits or server_limits()
        self.job = method_job(code, mode=mode, class_name=class_name, relative=relative,
                              env=env, shift_clock=shift_clock, role=role, label=label)
        self.start_timeout_s = start_timeout_s
        self.max_reply_bytes = max_reply_bytes
        #: the cap on the reply bytes of the candidate's sessions (None: no total cap)
        self.budget = budget
        self.session: Session | None = None
        self.info: dict[str, Any] = {}
        self.dead: Reply | None = None
        self.load_reply: Reply | None = None
        #: Every reply line of the session starts with this (the kit's token; b"" when the
        #: server announced none).
        self.prefix = b""
        self._ids = 0
        self.calls = 0
        self.started = 0
        #: the session's process tree, read by the kernel's clocks (:meth:`waited`)
        self.clock = TreeClock(None)
        self._waited = 0.0

    # -- life cycle -----------------------------------------------------------------------
    def start(self) -> Reply:
        """Start the session and read the handshake. ``PASSED`` with ``value`` = the load
        info (class name, levels, ...), or why the module did not load."""
        self.close()
        self.dead = None
        t0 = time.monotonic()
        refused = self.budget.refusal() if self.budget is not None else None
        if refused is not None:
            self.dead = self.load_reply = refused
            return refused
        try:
            self.session = self.backend.spawn(self.job, self.limits)
        except Exception as exc:
            reply = Reply(Outcome.SANDBOX_ERROR,
                          error=f"could not start the method server: {type(exc).__name__}: {exc}")
            self.dead = self.load_reply = reply
            return reply
        self.started += 1
        self.clock = TreeClock(self.session.root_pid())
        self.prefix = b""
        reply = self._receive(0, self.start_timeout_s, t0, "load", first=True)
        if reply.ok and type(reply.value) is not dict:
            reply = Reply(Outcome.ERROR, kind="protocol", error="malformed handshake")
        if reply.ok:
            self.info = reply.value
        elif self.dead is None:
            self._kill(reply)
        reply.elapsed_s = time.monotonic() - t0
        self.load_reply = reply
        return reply

    def restart(self) -> Reply:
        return self.start()

    def waited(self) -> float:
        """Seconds this server's sessions' processes have waited for a CPU that the host gave
        to other work, so far (:mod:`synth.sandbox.runqueue`: evidence of a loaded host, never
        subtracted from a time budget's measure). One read of the kernel's clocks per call of
        this method, none per question: the job idles between questions, and a session's
        clocks are read once more as it closes."""
        self._waited += self.clock.sample().wait_s
        return self._waited

    def close(self) -> None:
        if self.session is not None:
            self.waited()  # its processes' clocks go with them
            with contextlib.suppress(Exception):
                self.session.close()
            self.session = None

    def __enter__(self) -> MethodServer:
        if self.session is None:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def alive(self) -> bool:
        return self.session is not None and self.dead is None

    # -- calls ----------------------------------------------------------------------------
    def call(self, method: str, params: dict[str, Any] | None = None,
             timeout_s: float = 5.0) -> Reply:
        """Ask one question. The server bounds the bootcamp's call by ``timeout_s`` (an
        interval timer, for a traceback); the host waits ``timeout_s + GRACE_S`` at most."""
        if self.dead is not None:
            return self.dead
        refused = self.budget.refusal() if self.budget is not None else None
        if refused is not None:
            return self._kill(refused)
        if self.session is None:
            started = self.start()
            if not started.ok:
                return started
        assert self.session is not None
        self._ids += 1
        rid = self._ids
        body = dict(params or {})
        body.setdefault("limit", timeout_s)
        try:
            line = encode_request(rid, method, body)
        except (TypeError, ValueError) as exc:
            return Reply(Outcome.ERROR, kind="usage", error=f"request not JSON: {exc}")
        t0 = time.monotonic()
        try:
            self.session.send(line, timeout_s=timeout_s + GRACE_S)
        except TimeoutError:
            return self._kill(Reply(Outcome.TIMEOUT, kind="timeout",
                                    error=f"the bootcamp did not read its request within "
                                    f"{timeout_s:g}s", elapsed_s=time.monotonic() - t0))
        except SessionError as exc:
            return self._kill(self._died(exc, t0))
        self.calls += 1
        reply = self._receive(rid, timeout_s + GRACE_S, t0, method)
        reply.elapsed_s = time.monotonic() - t0
        return reply

    def _receive(self, rid: int, timeout_s: float, t0: float, method: str,
                 first: bool = False) -> Reply:
        assert self.session is not None
        try:
            line = self.session.recv_line(timeout_s, self.max_reply_bytes)
            if first and line.startswith(AUTH_OPEN):
                token = _AUTH_LINE.fullmatch(line)
                if token is None:
                    return self._kill(Reply(Outcome.ERROR, kind="protocol",
                                            error="a malformed session token"))
                self.prefix = REPLY_OPEN + token.group(1) + b'",'
                left = max(0.0, timeout_s - (time.monotonic() - t0))
                line = self.session.recv_line(left, self.max_reply_bytes)
        except TimeoutError:
            return self._kill(Reply(Outcome.TIMEOUT, kind="timeout",
                                    error=f"no reply within {timeout_s - GRACE_S:g}s "
                                    "(the sandbox session was killed)",
                                    elapsed_s=time.monotonic() - t0))
        except OverflowError:
            return self._kill(Reply(Outcome.OUTPUT_OVERFLOW, kind="overflow",
                                    error=f"a reply longer than {self.max_reply_bytes} bytes",
                                    elapsed_s=time.monotonic() - t0))
        except SessionError as exc:
            return self._kill(self._died(exc, t0))
        if self.prefix and not line.startswith(self.prefix):
            return self._kill(Reply(Outcome.ERROR, kind="protocol", error=(
                "the reply pipe carried a line that the method server did not write (it lacks "
                f"the session's token): {line[:80]!r}")))
        got, reply = decode_reply(line, method)
        if self.budget is not None:
            over = self.budget.charge(len(line), reply_weight(len(line), reply.value), method)
            if over is not None:
                over.elapsed_s = time.monotonic() - t0
                return self._kill(over)
        if reply.kind == "protocol" or type(got) is not int or got != rid:
            if reply.kind != "protocol":
                reply = Reply(Outcome.ERROR, kind="protocol",
                              error=f"a reply for request {got!r:.40} where {rid} was expected")
            return self._kill(reply)
        if reply.outcome in (Outcome.TIMEOUT, Outcome.OOM):
            # The interpreter may be in a bad state after either: nothing more is asked of it.
            return self._kill(reply)
        return reply

    def _kill(self, reply: Reply) -> Reply:
        stderr = self.session.stderr_tail() if self.session is not None else ""
        if stderr and not reply.traceback:
            reply.traceback = stderr[-3000:]
        self.close()
        self.dead = reply
        return reply

    def _died(self, exc: Exception, t0: float) -> Reply:
        """The session ended: say why, as far as its exit status tells."""
        assert self.session is not None
        outcome, detail, tail = session_death(self.session, exc, "the sandboxed bootcamp")
        return Reply(outcome, kind="died", error=detail, traceback=tail,
                     elapsed_s=time.monotonic() - t0)
