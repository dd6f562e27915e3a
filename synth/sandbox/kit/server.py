"""The method server's loop: load the module, send the handshake, then read one request line,
dispatch it to its handler and write one reply line, until stdin closes.

Protocol (JSON lines on stdin/stdout; the bootcamp's own prints go to stderr)::

    <- {"auth": TOKEN}                                   first, before the bootcamp is imported
    -> [id, "method", {params}]
    <- {"t": TOKEN, "id": id, "ok": value}
    <- {"t": TOKEN, "id": id, "err": {"kind": "error"|"oom"|"timeout"|"usage", "type": "...",
                                      "message": "...", "traceback": "..."}}

The first reply, ``id`` 0, is the handshake ``{"class": NAME, ...}`` or why the module did not
load. Replies are flushed whenever the server has no complete request left to read, so a host
may pipeline requests (bounded by the pipe sizes: see ``synth.sandbox.methods``). The channel
reads and writes the descriptors the host gave it and exits when the bootcamp puts others in
their place.
"""

from __future__ import annotations

import importlib
import os
import select
from typing import Any

from .calls import _S, _bounded, _failed, _failure, _message, _trace, _usage
from .episodes import m_engine_log, m_policy, m_reset, m_step
from .guard import _G, _enter, _gc_enable, _leave
from .questions import (
    _plain,
    m_answer,
    m_check,
    m_construct,
    m_drop,
    m_events,
    m_generate,
    m_probes,
    m_prompt,
    m_roundtrip,
    m_sample,
    m_score,
    m_solve,
    m_stdin,
    m_validate,
    m_wrap,
)
from .snapshot import _changes, _functions, _hot, _intact, _snapshot
from .wire import (
    _ENCODE_REPLY,
    _SCAN,
    PROTOCOL,
    _name_of,
    _name_of_class,
    _type_dict,
    _type_mro,
    canonical,
    find_bootcamp_class,
    loads,
)

# -- C functions the channel calls, taken when the kit is imported (see the package docstring)
_os_read, _os_write, _os_fstat, _os_exit = os.read, os.write, os.fstat, os._exit
_select = select.select
#: The one Python function of a shared module the server calls: to import the candidate (or
#: the checker), at load -- the candidate's code runs inside it anyway.
_import_module = importlib.import_module


def _main() -> None:
    """Load the module, send the handshake, answer requests until stdin closes; then exit
    (the process: the kit's modules are empty by then)."""
    try:
        info = _load()
    except BaseException as exc:
        err = _failed(exc)
        if err is None:
            err = {"kind": "error", "type": _name_of(exc), "message": _message(exc),
                   "traceback": _trace(exc)}
        _send({"id": 0, "err": err})
        _flush()
        raise SystemExit(0) from None
    _send({"id": 0, "ok": info})
    _serve_loop()


def _serve_loop() -> None:
    s = _S
    handlers = s.handlers
    while True:
        line = _read_line()
        if line is None:
            _flush()
            raise SystemExit(0)
        rid: Any = None
        try:
            try:  # the host's lines are exactly one JSON value: the scanner alone, on the hot path
                request, end = _SCAN(line.decode("utf-8", "surrogatepass"), 0)
                if end != len(line):
                    request = loads(line)
            except StopIteration:
                request = loads(line)
            if type(request) is not list or len(request) != 3:
                raise _usage("a request is [id, method, params]")
            rid, method, params = request
            value = _dispatch(handlers, method, params)
            if method == "score" and type(rid) is int and len(value) == 1 \
                    and type(value["score"]) is float:  # the warm pool's hot path
                _put(b'%s"id":%d,"ok":{"score":%r}}\n' % (s.prefix, rid, value["score"]))
            else:
                _send({"id": rid, "ok": value})
        except BaseException as exc:
            s.clean = False
            _gc_enable()
            _send({"id": rid, "err": _error_of(exc)})


def _dispatch(handlers: dict[str, Any], method: Any, params: Any) -> Any:
    """One question to its handler. Anything but a score ends the clean state of
    :func:`m_score` (another handler may drop the bootcamp's objects or run its code)."""
    handler = handlers.get(method) if type(method) is str else None
    if handler is None or type(params) is not dict:
        raise _usage(f"unknown method {method!r:.80}")
    if method != "score":
        _S.clean = False
        _gc_enable()
    return handler(params)


def _error_of(exc: BaseException) -> Any:
    err = _failed(exc)
    if err is not None:
        return err
    if isinstance(exc, MemoryError):
        kind = "oom"
    elif isinstance(exc, ValueError | TypeError | LookupError | StopIteration):
        kind = "usage"
    else:
        kind = "error"
    return {"kind": kind, "type": _name_of(exc), "message": _message(exc),
            "traceback": _trace(exc)}


def _load() -> dict[str, Any]:
    s = _S
    if s.mode == "checker" or s.mode == "validator":
        return _load_checker()
    module = _bounded(_import_module, (s.module_name,), 30.0)
    base = s.base
    cls = _bounded(find_bootcamp_class, (module, base, s.class_name), 5.0)
    s.cls = cls
    mro = _type_mro(cls)
    own = [k for k in mro if k is not base and k is not object]
    info: dict[str, Any] = {"class": _name_of_class(cls), "protocol": PROTOCOL,
                            "mode": s.mode, "module": s.module_name}
    if s.mode != "intern":
        # the contract is compared with its state BEFORE the import (an import-time change is
        # reported at every call, not only in the handshake); the class with its own
        changed = [] if _intact(s.contract_snap) else _changes(s.contract_snap)
        overrides = [_name_of_class(k) for k in mro
                     if k is not base and "verify_score" in _type_dict(k)]
        if overrides:
            changed.append(f"{', '.join(overrides)} defines verify_score")
        readers = [f"{_name_of_class(k)} defines {name}" for k in mro if k is not base
                   for name in ("extract_output", "wrap_answer") if name in _type_dict(k)]
        changed += readers  # the answer is read by the contract's own extraction only
        if type(cls) is not type:
            changed.append(f"{info['class']} has the metaclass {_name_of_class(type(cls))}")
        changed += [f"blocked at import: {e}" for e in _G.events]
        info["tampered"] = changed
        s.class_snap = _snapshot([(_name_of_class(k), _type_dict(k)) for k in own], [],
                                 [f for k in own for f in _functions(k)], [cls, *own])
        s.hot = _hot(s.contract_snap, s.class_snap, mro)
    info["defines"] = [name for name in s.contract_names
                       if any(name in _type_dict(k) for k in own)]
    levels = _bounded(getattr, (cls, "LEVELS", None), 5.0) if s.mode != "intern" else None
    info["levels"] = _plain(levels)
    # a private deep copy of plain presets (JSON round trip), used by ``sample``
    s.levels_at_load = loads(canonical(info["levels"])) if type(info["levels"]) is dict \
        and "__not_plain__" not in info["levels"] else None
    # the stress preset (one more set of parameters, for code test suites only), copied alike
    stress = _bounded(getattr, (cls, "STRESS", None), 5.0) if s.mode != "intern" else None
    info["stress"] = _plain(stress)
    s.stress_at_load = loads(canonical(info["stress"])) if type(info["stress"]) is dict \
        and "__not_plain__" not in info["stress"] else None
    info["yes_no"] = _bounded(getattr, (cls, "YES_NO_TASK", False), 5.0) is True
    if s.engine_status:
        info["engine_status"] = s.engine_status  # declared engines: started, with versions
    multi = s.multi
    if multi is not None and any([k is multi for k in mro]):
        # a multi-turn bootcamp: what the host needs to drive its episodes (reset/step)
        info["multi_turn"] = True
        info["max_turns"] = _plain(_bounded(getattr, (cls, "MAX_TURNS", None), 5.0))
        engines = _bounded(getattr, (cls, "ENGINES", None), 5.0)
        info["engines"] = _plain(list(engines) if type(engines) is tuple else engines)
        info["episode_defines"] = [name for name in ("reset", "step", "reference_policy")
                                   if any([name in _type_dict(k) for k in own if k is not multi])]
    return info


def _load_checker() -> dict[str, Any]:
    """An independent checker: a plain module with ``check`` (and ``solve``, ``probes``); in
    ``validator`` mode an input validator: a plain module with ``validate(stdin)``."""
    s = _S
    s.checker = _bounded(_import_module, (s.module_name,), 30.0)
    validator = s.mode == "validator"
    names = ("validate",) if validator else ("check", "solve", "probes")
    functions = [name for name in names
                 if callable(_bounded(getattr, (s.checker, name, None), 5.0))]
    if names[0] not in functions:
        raise _failure({"kind": "error", "type": "LookupError", "traceback": "", "message": (
            "the validator module defines no validate(stdin) function" if validator else
            "the checker module defines no check(identity, answer) function")})
    return {"class": "", "checker": True, "functions": functions, "protocol": PROTOCOL,
            "mode": s.mode, "module": s.module_name}


def m_batch(p: dict[str, Any]) -> list[dict[str, Any]]:
    """Several questions in one request: ``{"calls": [[method, params], ...]}`` -> one
    ``{"ok": value}`` or ``{"err": {...}}`` per call, in order. Each call keeps its own
    ``limit``; the host bounds the whole batch."""
    calls = p.get("calls")
    if type(calls) is not list:
        raise _usage("calls must be a list")
    handlers = _S.handlers
    out: list[dict[str, Any]] = []
    for item in calls:
        try:
            if type(item) is not list or len(item) != 2:
                raise _usage("a call is [method, params]")
            method, params = item
            if method == "batch":
                raise _usage("a batch cannot hold a batch")
            out.append({"ok": _dispatch(handlers, method, params)})
        except Exception as exc:
            _S.clean = False
            _gc_enable()
            err = _failed(exc)
            if err is None:
                if not isinstance(exc, ValueError | TypeError | LookupError):
                    raise
                err = {"kind": "usage", "type": _name_of(exc), "message": _message(exc),
                       "traceback": ""}
            out.append({"err": err})
            if err.get("kind") in ("timeout", "oom"):
                break  # the rest would only repeat it; the host sees the short list
    return out


#: The handlers by name: ``m_NAME`` answers the method ``NAME`` (the server calls the copies of
#: them in its private namespace, looked up by these names).
_HANDLERS = tuple(fn.__name__ for fn in (
    m_batch, m_check, m_construct, m_drop, m_events, m_generate, m_prompt, m_probes,
    m_roundtrip, m_sample, m_score, m_solve, m_stdin, m_wrap, m_answer, m_reset, m_step,
    m_policy, m_engine_log, m_validate))
#: Where the server's private namespace starts (see :func:`.setup._private_namespace`).
_RUNTIME = ("_main", "_hook", "_snapshot", *_HANDLERS)
_CONTRACT_NAMES = ("LEVELS", "__init__", "_verify_correction", "case_generator",
                   "extract_output", "prompt_func", "reference_answer", "render_stdin",
                   "verify_score", "wrap_answer")


# -- the channel ---------------------------------------------------------------------------


def _read_line() -> bytes | None:
    """The next request line from fd 0 (None at the end)."""
    s = _S
    while True:
        nl = s.buf.find(b"\n", s.pos)
        if nl >= 0:
            line = bytes(s.buf[s.pos : nl])
            s.pos = nl + 1
            return line
        del s.buf[: s.pos]
        s.pos = 0
        # Nothing complete to answer: flush the replies so far -- unless more requests are
        # already waiting in the pipe (a chunk that arrived in pieces): then read them first.
        if s.pending and not _select([0], [], [], 0)[0]:
            _flush()
        _enter()
        try:
            # the request pipe is the one the host gave us: a bootcamp that puts a pipe of its
            # own in its place (dup2) would have its rewritten requests answered
            st = _os_fstat(0)
            if (st.st_dev, st.st_ino) != s.in_id:
                _os_exit(71)
            data = _os_read(0, 1 << 16)
        finally:
            _leave()
        if not data:
            return None
        s.buf += data


def _send(obj: dict[str, Any]) -> None:
    """One reply line: the session's token, then the reply's JSON."""
    try:
        text = "".join(_ENCODE_REPLY(obj, 0))
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        rid = obj.get("id")
        text = "".join(_ENCODE_REPLY({"id": rid if type(rid) is int else None, "err": {
            "kind": "error", "type": _name_of(exc),
            "message": f"reply not JSON-serialisable: {_message(exc)}", "traceback": ""}}, 0))
    _put(_S.prefix + text[1:].encode("utf-8", "surrogatepass") + b"\n")


def _put(data: bytes) -> None:
    s = _S
    s.pending.append(data)
    s.pending_bytes += len(data)
    if s.pending_bytes > 1 << 16:
        _flush()


def _flush() -> None:
    s = _S
    data = b"".join(s.pending)
    s.pending.clear()
    s.pending_bytes = 0
    _enter()
    try:
        st = _os_fstat(s.out)
        if (st.st_dev, st.st_ino) != s.out_id:  # the bootcamp swapped the reply pipe
            _os_exit(70)
        view = memoryview(data)
        while view:
            view = view[_os_write(s.out, view) :]
    finally:
        _leave()


# ------------------------------------------------------------------------------------------
