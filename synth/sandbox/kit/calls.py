"""Bounded calls: every call into the bootcamp runs under a per-call timer and comes back as
its value or as one of the kit's own failures (an error dict: how it raised, ran out of memory
or ran past its limit, with a traceback that shows the bootcamp's frames, not the kit's)."""

from __future__ import annotations

import os
import signal
import types
from typing import Any

from .guard import _allowed_path, _enter, _leave
from .wire import TRACE_CAP, _exc_traceback, _name_of, _safe_str

# -- C functions the server calls, taken when the kit is imported (see the package docstring)
_setitimer, _ITIMER_REAL = signal.setitimer, signal.ITIMER_REAL
_TracebackType = types.TracebackType
#: The kit's folder: a traceback's leading frames in its files are the kit's own, whichever
#: module of the kit they are in (the folder holds nothing else).
_KIT_DIR = os.path.dirname(__file__)

#: The server's state, in the private namespace only (:func:`synth.sandbox.kit.setup.serve`
#: sets it there; here it stays None).
_S: Any = None
#: Marks the kit's own failures: ``Exception(_FAIL, err)`` (a builtin type: no class of the kit
#: a bootcamp could give an ``__init__``).
_FAIL = object()


def _failure(err: dict[str, Any]) -> Exception:
    return Exception(_FAIL, err)


def _failed(exc: BaseException) -> Any:
    """The error dict of one of the kit's own failures, or None."""
    if type(exc) is Exception:
        args = exc.args
        if len(args) == 2 and args[0] is _FAIL:
            return args[1]
    return None


def _usage(message: str) -> Exception:
    return _failure({"kind": "usage", "type": "UsageError", "message": message[:500],
                     "traceback": ""})


def _bounded(fn: Any, args: tuple[Any, ...], limit: float) -> Any:
    """``fn(*args)``: its value, or a failure describing how it raised, ran out of memory or ran
    past ``limit`` seconds (the SIGALRM handler raises KeyboardInterrupt in it)."""
    _setitimer(_ITIMER_REAL, limit if limit > 0.001 else 0.001)
    try:
        return fn(*args)
    except BaseException as exc:
        _setitimer(_ITIMER_REAL, 0)  # first: no interrupt while the kit describes it
        raise _failure(_described(exc, limit)) from None
    finally:
        _setitimer(_ITIMER_REAL, 0)


def _described(exc: BaseException, limit: float) -> dict[str, Any]:
    if isinstance(exc, KeyboardInterrupt):
        last = f"CallTimeout: did not return within {limit:g}s"
        return {"kind": "timeout", "type": "CallTimeout",
                "message": f"did not return within {limit:g}s", "traceback": _trace(exc, last)}
    if isinstance(exc, MemoryError):
        return {"kind": "oom", "type": "MemoryError", "message": "ran out of memory (MemoryError)",
                "traceback": _trace(exc)}
    if isinstance(exc, RecursionError):
        return {"kind": "error", "type": "RecursionError", "message": _message(exc),
                "traceback": _trace(exc)[-1500:]}
    return {"kind": "error", "type": _name_of(exc), "message": _message(exc),
            "traceback": _trace(exc)}


def _message(exc: BaseException) -> str:
    return f"{_name_of(exc)}: {_safe_str(exc)}"[:500]


def _trace(exc: BaseException, last: str = "") -> str:
    """The traceback without the kit's own frames. The frames are read in a critical section
    (it calls nothing of the bootcamp); the source lines come from the files themselves, never
    from ``linecache`` or a module's ``__loader__``."""
    tb = _exc_traceback(exc)
    entries: list[tuple[Any, Any, Any]] = []
    _enter()
    try:
        while type(tb) is _TracebackType:
            code = tb.tb_frame.f_code
            entries.append((code.co_filename, tb.tb_lineno, code.co_name))
            tb = tb.tb_next
    finally:
        _leave()
    start = 0
    while start < len(entries) and type(entries[start][0]) is str \
            and entries[start][0].rpartition("/")[0] == _KIT_DIR:
        start += 1
    lines = []
    for filename, lineno, name in entries[start:][-80:]:
        lines.append(f'  File "{filename}", line {lineno}, in {name}\n')
        source = _source_line(filename, lineno)
        if source:
            lines.append(f"    {source}\n")
    text = "Traceback (most recent call last):\n" + "".join(lines) + (last or _message(exc)) + "\n"
    return text[-TRACE_CAP:]


def _source_line(filename: Any, lineno: Any) -> str:
    lines = _S.sources.get(filename) if type(filename) is str else ()
    if lines is None:
        lines = _S.sources[filename] = _read_source(filename)
    if type(lineno) is int and 0 < lineno <= len(lines):
        return lines[lineno - 1].strip()
    return ""


def _read_source(filename: str) -> tuple[str, ...]:
    if filename.startswith("<") or not _allowed_path(filename):
        return ()
    try:
        with open(filename, encoding="utf-8", errors="replace") as fh:
            return tuple(fh.read(4_000_000).splitlines())
    except (OSError, ValueError):
        return ()


# ------------------------------------------------------------------------------------------
# Snapshots of the contract and the class
