"""The sandbox kit: the one standard-library-only module shipped into every sandbox job.

It holds everything the *untrusted* side of a job needs, once:

* :func:`find_bootcamp_class` -- the one way to find a module's bootcamp class;
* :func:`derive_seed` -- the one per-case seed derivation (export, filter, review, gate);
* :func:`json_problem` / :func:`canonical` / :func:`loads` -- what a case must be (plain
  JSON), its text, and the parser (the C scanner and encoder of ``_json``, never the ``json``
  module's Python functions, which a bootcamp could patch);
* the *method server* (:func:`serve`): it imports one bootcamp module and answers questions
  about it -- construct an instance, generate a case, render a prompt or stdin, give a
  reference answer, score a response -- with plain JSON values, one reply line per request
  line. It decides nothing: every judgement (comparisons, thresholds, determinism, diversity,
  mutation outcomes, timing, the verdict) is made by trusted code on the host from these values
  (``synth/gate``). Whatever the untrusted code prints, writes or returns is, at most, a
  different answer to a question: never a verdict.

The host imports this module too (``synth.sandbox.kit``) for the same seed derivation and the
same protocol constants; inside a job it is the file :data:`KIT_NAME` next to the candidate.

Protocol (JSON lines on stdin/stdout; the bootcamp's own prints go to stderr)::

    <- {"auth": TOKEN}                                   first, before the bootcamp is imported
    -> [id, "method", {params}]
    <- {"t": TOKEN, "id": id, "ok": value}
    <- {"t": TOKEN, "id": id, "err": {"kind": "error"|"oom"|"timeout"|"usage", "type": "...",
                                      "message": "...", "traceback": "..."}}

The server's first line is a random per-session token, written before anything of the
bootcamp runs; every later line starts with it (:data:`REPLY_OPEN`), so a line the bootcamp
writes into the reply pipe itself (it can find the descriptor) is never taken for a reply. The
first reply, ``id`` 0, is the handshake ``{"class": NAME, ...}`` or why the module did not
load. Replies are flushed whenever the server has no complete request left to read, so a host
may pipeline requests (bounded by the pipe sizes: see ``synth.sandbox.methods``).

Per call, an interval timer (SIGALRM, handled by the C-level ``signal.default_int_handler``)
interrupts a bootcamp call that runs past the request's ``limit`` seconds, so that the reply
can show *where* it hung (``CallTimeout``). It is a courtesy: the host enforces its own deadline
and kills the whole job when it passes.

**What the bootcamp cannot reach.** The candidate runs in this interpreter, so the server
keeps nothing it could reach or change. Before the import, everything the server needs --
its functions, its state, the reply writer, the parser, score validation, the guard's state,
the contract snapshots, a private copy of ``builtins`` and the C functions it calls -- is moved
into a private namespace (:func:`_private_namespace`): copies of this module's functions whose
globals are a dict no module, class or object refers to; this module's own dict is then
emptied, ``sys.modules["__main__"]`` is an inert module, and ``signal`` and ``gc`` are out of
``sys.modules`` (a Python signal handler is handed the running frame; ``gc.set_debug`` would
keep the server's garbage). The server defines no class with methods (``object.__subclasses__()``
leads nowhere) and calls no Python function of a module the bootcamp shares. The guard (an
audit hook, which cannot be listed or removed) refuses frames and code objects -- the one way
left into the private namespace -- and code evaluated on the bootcamp's behalf at run time;
while the server reads its own audited attributes (its critical sections) the garbage
collector is off, so that no finalizer of the bootcamp runs with the guard looking away. Scores are computed by the
contract's ``verify_score`` code bound to a copy of the contract's globals (and of
``builtins``) taken before the import; at every scoring call the server also checks that the
contract -- the dicts of its modules (``synth.bootcamp`` and the runner it imports) and of
every class they define, their functions, the builtins and module attributes the contract uses
-- and the class are the ones seen before the import, and
reports any change in the reply (``tampered``), which the host turns into a finding.
"""

from __future__ import annotations

import _json
import ast
import builtins
import collections
import dataclasses
import gc
import hashlib
import importlib
import json
import math
import operator
import os
import random
import select
import signal
import stat
import sys
import time
import types
import typing
from typing import Any

__all__ = [
    "AUTH_OPEN",
    "CLOCK_SHIFT_S",
    "KIT_NAME",
    "PROTOCOL",
    "REPLY_OPEN",
    "SandboxViolation",
    "canonical",
    "derive_seed",
    "find_bootcamp_class",
    "json_problem",
    "loads",
    "serve",
]

#: The file name of this module inside a sandbox job.
KIT_NAME = "_synth_kit.py"
PROTOCOL = 2
SEED_MASK = (1 << 63) - 1
#: How far the determinism check's second process shifts every clock.
CLOCK_SHIFT_S = 86_400.0 * 400 + 3_723.5
TRACE_CAP = 3000
TEXT_CAP = 4000
#: The server's first line is ``AUTH_OPEN + token + b'"}'``; every later line starts with
#: ``REPLY_OPEN + token + b'",'`` (the token: TOKEN_BYTES random bytes in hex).
AUTH_OPEN = b'{"auth":"'
REPLY_OPEN = b'{"t":"'
TOKEN_BYTES = 12
#: How often (in scoring calls) the functions' code objects are compared too.
CODE_CHECK_EVERY = 64
#: The module a probe response of the audit asks to import (``__import__(CANARY) or ...``): an
#: import of it means the audited code executed the text of a response (eval, exec). The guard
#: refuses and records it in every mode.
CANARY = "zq_synth_canary"

# -- the C functions the server calls, taken when the kit is imported (before any bootcamp code
# runs): a bootcamp that patches ``os.write``, ``json._default_decoder`` or ``builtins.float``
# in the modules it shares with the kit does not change what the kit uses ----------------------
_is, _eq, _call = operator.is_, operator.eq, operator.call
_isfinite = math.isfinite
_os_read, _os_write, _os_fstat, _os_exit = os.read, os.write, os.fstat, os._exit
_os_lstat, _os_readlink, _os_getcwd = os.lstat, os.readlink, os.getcwd
_select = select.select
_setitimer, _ITIMER_REAL = signal.setitimer, signal.ITIMER_REAL
_getframe = sys._getframe
_S_ISLNK = stat.S_ISLNK
_gc_disable, _gc_enable, _gc_isenabled = gc.disable, gc.enable, gc.isenabled
_gc_referents = gc.get_referents
_FS_ENCODING = sys.getfilesystemencoding()
_FunctionType, _CodeType, _TracebackType = types.FunctionType, types.CodeType, types.TracebackType
_Namespace = types.SimpleNamespace
#: Class and exception attributes read through their C descriptors (a metaclass or an
#: exception class cannot put its own code in the way).
_type_dict = type.__dict__["__dict__"].__get__
_type_mro = type.__dict__["__mro__"].__get__
_type_name = type.__dict__["__name__"].__get__
_exc_traceback = BaseException.__dict__["__traceback__"].__get__
#: The one Python function of a shared module the server calls: to import the candidate (or
#: the checker), at load -- the candidate's code runs inside it anyway.
_import_module = importlib.import_module
_random_seed = random.seed
_sys_modules = sys.modules
_KIT_FILE = __file__


def _not_json(obj: Any) -> Any:
    """The encoders' ``default``: it reads builtins only (it may run once this module's dict
    is empty)."""
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


_CONSTANTS = {"-Infinity": -math.inf, "Infinity": math.inf, "NaN": math.nan}
_SCAN = _json.make_scanner(types.SimpleNamespace(  # type: ignore[arg-type]
    strict=True, object_hook=None, object_pairs_hook=None, parse_float=float, parse_int=int,
    parse_constant=_CONSTANTS.__getitem__, memo={}))
#: json.dumps(obj, sort_keys=True, ensure_ascii=False, allow_nan=False), in C
_ENCODE_CANONICAL = _json.make_encoder(None, _not_json, _json.encode_basestring, None, ": ",
                                       ", ", True, False, False)
#: compact replies, keys in insertion order
_ENCODE_REPLY = _json.make_encoder(None, _not_json, _json.encode_basestring, None, ":", ",",
                                   False, False, False)
_WHITESPACE = " \t\n\r"

#: The server's state and the guard's, in the private namespace only (see :func:`serve`).
_S: Any = None
_G: Any = None
#: Marks the kit's own failures: ``Exception(_FAIL, err)`` (a builtin type: no class of the kit
#: a bootcamp could give an ``__init__``).
_FAIL = object()


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from its parts (sha256 of their text joined by US): the one derivation."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") & SEED_MASK


def find_bootcamp_class(module: Any, base: type, wanted: str = "") -> type:
    """The single bootcamp class a module defines: a subclass of ``base`` defined in the module
    itself (imported helpers do not count), the most derived one when several chain, or the one
    named ``wanted``. Raises ``LookupError`` naming what it found otherwise."""
    name = getattr(module, "__name__", "")
    found = [
        obj
        for key, obj in list(vars(module).items())
        if isinstance(obj, type)
        and issubclass(obj, base)
        and obj is not base
        and getattr(obj, "__module__", None) == name
        and (not wanted or key == wanted)
    ]
    leaves = [c for c in found if not any(o is not c and issubclass(o, c) for o in found)]
    unique = list(dict.fromkeys(leaves))
    if len(unique) != 1:
        names = ", ".join(c.__name__ for c in unique) or "none"
        raise LookupError(f"expected exactly one {base.__name__} subclass, found: {names}")
    return unique[0]


def json_problem(obj: Any, path: str = "case", depth: int = 0) -> str | None:
    """Why ``obj`` would not survive a JSON round trip unchanged, or None (exact types only:
    a subclass could change what JSON or ``==`` sees)."""
    if depth > 200:
        return f"{path} is nested more than 200 levels deep"
    kind = type(obj)
    if obj is None or kind is bool or kind is str:
        return None
    if kind is int:
        if obj.bit_length() > 13_000:  # ~4,000 decimal digits: JSON parsers refuse more
            return f"{path} is an int of {obj.bit_length()} bits (too large for JSON)"
        return None
    if kind is float:
        return None if _isfinite(obj) else f"{path} is {obj!r} (not valid JSON)"
    if kind is list:
        for i, item in enumerate(obj):
            problem = json_problem(item, f"{path}[{i}]", depth + 1)
            if problem:
                return problem
        return None
    if kind is dict:
        for key, item in obj.items():
            if type(key) is not str:
                return f"{path} has a {_name_of(key)} key {_safe_str(key, repr)[:60]} (JSON keys are strings)"
            problem = json_problem(item, f"{path}[{key!r}]", depth + 1)
            if problem:
                return problem
        return None
    hint = " (JSON has lists only: it would come back as a list)" if kind is tuple else ""
    return f"{path} is a {_name_of(obj)}{hint}; use only dict/list/str/int/float/bool/None"


def canonical(obj: Any) -> str:
    """The canonical JSON text of a value (sorted keys, no NaN): what the host compares. The
    same text as ``json.dumps(obj, sort_keys=True, ensure_ascii=False, allow_nan=False)``."""
    return "".join(_ENCODE_CANONICAL(obj, 0))


def loads(text: str | bytes) -> Any:
    """One JSON text (``str``, or UTF-8 ``bytes``) parsed by the C scanner; ``ValueError`` when
    it is not exactly one JSON value."""
    string = text.decode("utf-8", "surrogatepass") if type(text) is bytes else text
    if type(string) is not str:
        raise TypeError("loads() takes a str or UTF-8 bytes")
    start = len(string) - len(string.lstrip(_WHITESPACE))
    try:
        value, end = _SCAN(string, start)
    except StopIteration as exc:
        raise ValueError(f"not JSON at character {exc.value}") from None
    if end != len(string) and string[end:].strip(_WHITESPACE):
        raise ValueError(f"extra data after the JSON value (character {end})")
    return value


def _name_of(obj: Any) -> str:
    """The name of ``obj``'s type (read through the C descriptor)."""
    name = _type_name(type(obj))
    return name if type(name) is str else "?"


def _name_of_class(cls: Any) -> str:
    name = _type_name(cls)
    return name if type(name) is str else "?"


def _safe_str(value: Any, how: Any = str) -> str:
    """``str(value)`` (or ``how(value)``), or a placeholder when that raises or is not a str."""
    try:
        text = how(value)
    except BaseException:  # a hostile __str__ (or __repr__)
        return "<unprintable>"
    return text if type(text) is str else "<unprintable>"



# ------------------------------------------------------------------------------------------
# The guard: an audit hook that keeps the bootcamp away from the server it runs in
# ------------------------------------------------------------------------------------------

#: The standard-library modules a bootcamp may import (the static gate's allowlist); they are
#: imported before the guard is armed, so that their own imports are already done.
ALLOWED_MODULES = ("random", "math", "re", "itertools", "collections", "functools", "heapq",
                   "bisect", "string", "fractions", "decimal", "json", "typing", "dataclasses",
                   "statistics", "operator")
_FRAME_ATTRS = frozenset({"gi_frame", "cr_frame", "ag_frame", "tb_frame", "f_back", "__code__",
                          "__globals__", "__closure__", "__builtins__"})
_SET_ATTRS = frozenset({"__code__", "__defaults__", "__kwdefaults__", "__closure__", "__bases__",
                        "__class__", "__globals__", "__mro__"})
_BLOCKED = frozenset({
    "sys._getframe", "sys._current_frames", "sys._current_exceptions", "sys.settrace",
    "sys.setprofile", "sys.addaudithook", "sys._getframemodulename", "gc.get_objects",
    "gc.get_referrers", "gc.get_referents", "gc.freeze", "os.fork", "os.forkpty",
    "os.posix_spawn", "os.exec", "os.spawn", "os.system", "os.kill", "os.killpg", "os.chdir",
    "os.chmod", "os.chown", "os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.symlink",
    "os.link", "os.truncate", "os.utime", "os.putenv", "os.unsetenv", "subprocess.Popen",
    "_thread.start_new_thread", "signal.pthread_kill", "resource.setrlimit", "marshal.loads",
    "pickle.find_class", "code.__new__", "function.__new__", "object.__delattr__",
    "sys.monitoring.register_callback", "cpython.run_command"})
_BLOCKED_PREFIXES = ("ctypes.", "socket.", "shutil.", "mmap.", "winreg.", "_posixsubprocess")
#: pathlib's path types (by name: the kit imports no pathlib), read as their text in intern mode
_PATHS = frozenset({"PosixPath", "PurePosixPath", "Path", "PurePath"})
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class SandboxViolation(BaseException):
    """Raised by the guard inside the bootcamp's call (a BaseException: ``except Exception``
    in the bootcamp does not swallow it; every attempt is also recorded and reported)."""


def _hook(event: str, args: tuple[Any, ...]) -> None:
    """The guard (installed before the candidate is imported; audit hooks cannot be listed or
    removed). While armed it refuses what a bootcamp never needs and an attacker does: frame
    and code-object access, the garbage collector's object lists, processes, signals, files
    other than reading the standard library and the job's own modules, sockets, ctypes,
    imports beyond the allowlist, and code compiled or run on its behalf at run time (but for
    the import system, dataclasses, namedtuple, the bootcamp's own code and the contract's
    runner of the module's own reference program). Every refusal is recorded; the server
    reports them, and the host turns them into a finding. In intern mode (auditing third-party
    libraries, which import and evaluate what they like) imports and run-time code are not
    restricted, and reads only outside the standard library, the job's folder and the import
    path are refused (a verifier that depends on a file of the machine it runs on); the host
    collects the refusals with the ``events`` question."""
    g = _G
    if not g.armed or (g.trusted and _kit_caller(g)):
        return
    why = ""
    if event == "object.__getattr__":
        if len(args) > 1 and args[1] in _FRAME_ATTRS:
            why = f"reading {args[1]}"
    elif event == "object.__setattr__":
        if len(args) > 1 and args[1] in _SET_ATTRS and \
                g.set_by.get(args[1]) is not _caller_code(2):
            why = f"setting {args[1]}"
    elif event in _BLOCKED or event.startswith(_BLOCKED_PREFIXES):
        if g.strict or event != "sys._getframe" or not _stdlib_caller(g):
            why = event
    elif event == "open":
        why = _open_problem(args)
    elif event == "os.listdir" or event == "os.scandir":
        path = args[0] if args else None
        if g.strict and not _allowed_path("." if path is None else path):
            why = f"listing {_safe_str(path)[:80]}"
    elif event == "import":
        name = args[0] if args else None
        if type(name) is not str:
            why = "importing a module by a name that is not a plain string"
        elif name.split(".")[0] == CANARY:
            why = "executing the text of a response (it imported the audit's canary module)"
        elif g.strict and name.split(".")[0] not in g.imports:
            why = f"importing {name[:80]}"
    elif (event == "compile" or event == "exec") and g.strict:
        why = _code_problem(event, args)
    if why:
        if len(g.events) < 20:
            g.events.append(why)
        raise SandboxViolation(f"not allowed in a bootcamp: {why}")


def _stdlib_caller(g: Any) -> bool:
    """Intern mode: is the code that raised the event the standard library's own? The
    standard library reads its caller's frame at a fixed depth (``namedtuple`` names its
    module, ``enum`` and ``typing`` likewise), also in the modules an audited library imports;
    every frame attribute that leads further (``f_back``, ``tb_frame``, ...) stays refused."""
    filename = _caller_code(3).co_filename  # 0: _caller_code, 1: here, 2: the hook, 3: raiser
    return type(filename) is str and _realpath(filename).startswith(g.stdlib)


def _kit_caller(g: Any) -> bool:
    """In a critical section: is the code that raised the event the server's own? Told by the
    identity of the caller's code object, so that a count of critical sections left set (say,
    by an interrupt in the wrong place) never lets the bootcamp's own events through."""
    if g.inside:
        return True  # the events of the line below
    g.inside = True
    try:  # (id() is audited too)
        return id(_getframe(2).f_code) in g.kit_codes  # 0: here, 1: the hook, 2: the raiser
    finally:
        g.inside = False


def _open_problem(args: tuple[Any, ...]) -> str:
    path = args[0] if args else None
    mode = args[1] if len(args) > 1 else None
    flags = args[2] if len(args) > 2 and type(args[2]) is int else 0
    writing = (type(mode) is str and ("w" in mode or "a" in mode or "x" in mode or "+" in mode)) \
        or bool(flags & _WRITE_FLAGS)
    if type(path) is int:
        return "opening a file descriptor"
    if writing or (_G.strict and not _allowed_path(path)):
        return f"opening {_safe_str(path)[:80]}"
    if _G.strict:
        return ""
    # intern mode (the roots hold the import path too): a read of the machine's own files
    if type(path) is not str and type(path) is not bytes and _type_name(type(path)) in _PATHS:
        path = _safe_str(path)
    if (type(path) is str or type(path) is bytes) and not _allowed_path(path):
        return (f"reading {_safe_str(path)[:80]}, a file outside the module's folder, the "
                "standard library and the import path")
    return ""


def _allowed_path(path: Any) -> bool:
    """Is ``path`` (an exact str or bytes: a path-like object could answer differently the next
    time it is asked) inside the standard library or the job's directory?"""
    if type(path) is bytes:
        path = path.decode(_FS_ENCODING, "surrogateescape")
    if type(path) is not str or not path or "\x00" in path:
        return False
    real = _realpath(path)
    return bool(real) and (real + "/").startswith(_G.roots)


def _realpath(path: str) -> str:
    """``os.path.realpath`` from C primitives only (``lstat``, ``readlink``): the guard calls no
    code a bootcamp could patch. "" when it cannot tell (a symlink loop, an unreadable link)."""
    if not path.startswith("/"):
        try:
            path = _os_getcwd() + "/" + path
        except OSError:
            return ""
    todo = path.split("/")
    todo.reverse()
    done: list[str] = []
    links = 0
    while todo:
        part = todo.pop()
        if part == "" or part == ".":
            continue
        if part == "..":
            if done:
                done.pop()
            continue
        here = "/" + "/".join(done) + ("/" if done else "") + part
        try:
            mode = _os_lstat(here).st_mode
        except (OSError, ValueError):
            done.append(part)  # missing: the rest stays as written (as os.path.realpath does)
            continue
        if not _S_ISLNK(mode):
            done.append(part)
            continue
        links += 1
        if links > 40:
            return ""
        try:
            target = _os_readlink(here)
        except (OSError, ValueError):
            return ""
        if target.startswith("/"):
            done = []
        parts = target.split("/")
        parts.reverse()
        todo += parts
    return "/" + "/".join(done)


def _caller_code(depth: int) -> Any:
    """The code object of the frame ``depth`` levels up (0: here, 1: its caller in the guard),
    read in a critical section."""
    _enter()
    try:
        return _getframe(depth).f_code
    finally:
        _leave()


def _code_problem(event: str, args: tuple[Any, ...]) -> str:
    """Code compiled or run at run time on the bootcamp's behalf by code it does not own --
    ``typing.get_type_hints`` evaluating a string annotation: an ``eval`` the static gate
    cannot see -- is refused. The bootcamp's own ``eval``/``exec``/``compile`` (its module's
    code; the static gate names them) may run; so may the import system, dataclasses and
    namedtuple (and typing's compile of a string annotation, which runs nothing), and the
    contract's own functions, which may compile only the reference program the module embeds.
    The caller is told apart by the identity of its code object (a bootcamp cannot set
    ``__code__``), or by its file: the job's own modules but the kit and the contract."""
    g = _G
    code = _caller_code(3)  # 0: _caller_code, 1: here, 2: the hook, 3: what called compile()
    for allowed in (g.exec_callers if event == "exec" else g.compile_callers):
        if code is allowed:
            return ""
    for allowed in g.contract_codes:
        if code is allowed:
            if event == "exec":
                return ""
            source = args[0] if args else None
            if type(source) is bytes:
                source = source.decode("utf-8", "surrogateescape")
            # (the runner numbers the program's lines from an offset: leading newlines)
            if type(source) is str and source.lstrip("\n") in g.programs:
                return ""
            return "compiling a program other than the module's embedded reference program"
    filename = code.co_filename
    if type(filename) is str:
        real = _realpath(filename)
        if real.startswith(g.job) and not real.startswith(g.contract_dir) and real != g.kit:
            return ""  # the bootcamp's own code
    verb = "compiling" if event == "compile" else "running"
    return f"{verb} code at run time (in {code.co_name})"


def _enter() -> None:
    """A critical section of the server: the guard lets the server's own audited reads (frames,
    code objects) through, and the garbage collector is off, so that no finalizer of the
    bootcamp can run inside it. Nothing of the bootcamp is called in one."""
    g = _G
    if not g.trusted:
        g.collecting = _gc_isenabled()
        _gc_disable()
    g.trusted += 1


def _leave() -> None:
    g = _G
    g.trusted -= 1
    if not g.trusted and g.collecting:
        _gc_enable()


# ------------------------------------------------------------------------------------------
# Bounded calls
# ------------------------------------------------------------------------------------------


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
    while start < len(entries) and entries[start][0] == _KIT_FILE:
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
# ------------------------------------------------------------------------------------------


def _functions(owner: Any) -> list[tuple[str, Any]]:
    """(label, function) for the plain functions defined in a class dict (class and static
    methods unwrapped)."""
    found = []
    owner_name = _name_of_class(owner)
    for name, value in tuple(_type_dict(owner).items()):
        fn = value.__func__ if type(value) is classmethod or type(value) is staticmethod \
            else value
        if type(fn) is _FunctionType:
            found.append((f"{owner_name}.{name if type(name) is str else '?'}", fn))
    return found


def _snapshot(dicts: list[tuple[str, Any]], views: list[tuple[str, Any, tuple[str, ...]]],
              fns: list[tuple[str, Any]], classes: list[Any],
              cold_dicts: tuple[tuple[str, Any], ...] = (),
              cold_views: tuple[tuple[str, Any, tuple[str, ...]], ...] = ()) -> Any:
    """Identity of what the scoring path relies on, now: mappings (every key and value, in
    order: a replaced, added, removed or re-added attribute changes them), views (some keys of
    a big mapping: the builtins and module attributes the contract reads), functions (code,
    defaults, keyword defaults, closure) and classes (MRO and metaclass). ``dicts``, ``views``
    and the classes are compared at every call; the cold ones and the functions every
    :data:`CODE_CHECK_EVERY` calls and whenever something changed."""
    return _Namespace(
        dicts=[(label, d, tuple(d), tuple(d.values())) for label, d in dicts],
        views=[(label, d, keys, tuple(map(d.get, keys))) for label, d, keys in views],
        cold_dicts=[(label, d, tuple(d), tuple(d.values())) for label, d in cold_dicts],
        cold_views=[(label, d, keys, tuple(map(d.get, keys))) for label, d, keys in cold_views],
        labels=[label for label, _ in fns], fns=[fn for _, fn in fns],
        codes=_read_codes([fn for _, fn in fns]),
        classes=[(c, _type_mro(c), type(c)) for c in classes])


def _read_codes(fns: list[Any]) -> list[Any]:
    out: list[Any] = []
    _enter()
    try:
        for fn in fns:
            out += (fn.__code__, fn.__defaults__, fn.__kwdefaults__, fn.__closure__)
    finally:
        _leave()
    return out


def _dicts_intact(states: list[Any]) -> bool:
    for _, d, keys, values in states:
        if len(d) != len(keys) or not all(map(_is, d.values(), values)) \
                or not all(map(_is, d, keys)):
            return False
    return True


def _views_intact(states: list[Any]) -> bool:
    return all([all(map(_is, map(d.get, keys), values)) for _, d, keys, values in states])


def _classes_intact(states: list[Any]) -> bool:
    return all([_type_mro(c) is mro and type(c) is meta for c, mro, meta in states])


def _intact(snap: Any) -> bool:
    """Everything in a snapshot, by identity: mappings, views, classes, and the functions'
    code, defaults and closures (read in a critical section)."""
    return _dicts_intact(snap.dicts) and _dicts_intact(snap.cold_dicts) \
        and _views_intact(snap.views) and _views_intact(snap.cold_views) \
        and _classes_intact(snap.classes) and all(map(_is, _read_codes(snap.fns), snap.codes))


def _scoring_intact() -> bool:
    """The check before and after every scoring call (no audited reads; two C-level passes):
    everything a score depends on -- the class's own attributes, MRO and metaclass, the
    contract attributes on the scoring path (``verify_score``, ``extract_output``,
    ``_verify_correction``, ... where the class inherits them), the contract globals, builtins
    and module attributes their code reads, and the size of the class dicts, of
    ``BaseBootcamp``'s and of the contract module's (an added global could shadow a builtin).
    The rest of the contract and the functions' code, defaults and closures are compared every
    :data:`CODE_CHECK_EVERY` calls (while the guard is armed, setting code or defaults is
    refused and recorded anyway)."""
    hot = _S.hot
    return all(map(_eq, map(len, hot.sized), hot.sizes)) \
        and all(map(_is, map(_call, hot.getters, hot.keys), hot.values))


def _hot(contract_snap: Any, class_snap: Any, mro: Any) -> Any:
    """What :func:`_scoring_intact` compares, flattened: a getter and a key per value, and the
    values they gave when the snapshots were taken (the contract's: before the import). Class dicts
    are read through the dict behind their mappingproxy (``mappingproxy.get`` is a Python-level
    method call; ``dict.get`` is not). Of the contract: the names its scoring path reads in
    ``BaseBootcamp`` and in its modules, every attribute of the contract classes on that path
    (``CompiledBootcamp``, the runner's stream classes), and the size of every dict."""
    names: set[str] = set()
    reached: list[Any] = []
    for k in mro:
        reads = _S.contract_reads.get(k)
        if reads is not None:
            names.update(reads[0])
            reached += reads[1]
    reached_dicts = [_real_dict(_type_dict(k)) for k in reached if k is not _S.base]
    groups: list[tuple[Any, tuple[Any, ...], tuple[Any, ...]]] = []
    sized = []
    for _, d, keys, values in class_snap.dicts:
        real = _real_dict(d)
        sized.append(real)
        groups.append((real.get, keys, values))
    for label, d, keys, values in contract_snap.cold_dicts:
        real = _real_dict(d)
        sized.append(real)
        if type(d) is not dict and label != "BaseBootcamp":  # a contract class: whole or cold
            if any([real is r for r in reached_dicts]):
                groups.append((real.get, keys, values))
            continue
        pairs = [(k, v) for k, v in zip(keys, values, strict=True)
                 if k in names or (label == "BaseBootcamp" and k in _SCORING)]
        groups.append((real.get, tuple(k for k, _ in pairs), tuple(v for _, v in pairs)))
    contract_dicts = [d for _, d, _, _ in contract_snap.cold_dicts]
    for _, d, keys, values in contract_snap.cold_views:  # builtins, module attributes
        if not any([d is c for c in contract_dicts]):  # (the contract modules' dicts: above)
            pairs = [(k, v) for k, v in zip(keys, values, strict=True) if k in names]
            groups.append((d.get, tuple(k for k, _ in pairs), tuple(v for _, v in pairs)))
    classes = list({id(c): (c, m, t) for c, m, t in contract_snap.classes + class_snap.classes}
                   .values())
    cs = tuple(c for c, _, _ in classes)
    groups.append((_type_mro, cs, tuple(m for _, m, _ in classes)))
    groups.append((type, cs, tuple(t for _, _, t in classes)))
    return _Namespace(sized=tuple(sized), sizes=tuple(map(len, sized)),
                      getters=tuple(g for g, keys, _ in groups for _ in keys),
                      keys=tuple(k for _, keys, _ in groups for k in keys),
                      values=tuple(v for _, _, values in groups for v in values))


def _real_dict(mapping: Any) -> Any:
    """The dict behind a class's mappingproxy (a dict stays itself), read in a critical
    section."""
    if type(mapping) is dict:
        return mapping
    _enter()
    try:
        found = [ref for ref in _gc_referents(mapping) if type(ref) is dict]
    finally:
        _leave()
    if len(found) != 1:
        raise _failure({"kind": "error", "type": "RuntimeError", "traceback": "",
                        "message": "cannot read a class dict (the kit needs the one behind it)"})
    return found[0]


def _changes(snap: Any) -> list[str]:
    """What changed since the snapshot, named (everything is compared)."""
    found: list[str] = []
    for label, d, keys, values in snap.dicts + snap.cold_dicts:
        live = tuple(d)
        if len(live) != len(keys) or not all(map(_is, live, keys)):
            try:
                added = sorted(str(k) for k in set(live) - set(keys))[:5]
                removed = sorted(str(k) for k in set(keys) - set(live))[:5]
                found.append(f"{label}: attributes added {added} / removed {removed}")
            except BaseException:  # keys with a hostile __hash__ or __eq__
                found.append(f"{label}: attributes added or removed")
            continue
        for key, old, new in zip(keys, values, tuple(d.values()), strict=False):
            if old is not new:
                found.append(f"{label}.{key if type(key) is str else '?'} was replaced")
                break
    for label, d, keys, values in snap.cold_views or snap.views:
        replaced = [key for key, old in zip(keys, values, strict=True) if d.get(key) is not old]
        if replaced:
            found.append(f"{label}: {', '.join(replaced[:5])} replaced")
    codes = _read_codes(snap.fns)
    for i, label in enumerate(snap.labels):
        if not all(map(_is, codes[4 * i : 4 * i + 4], snap.codes[4 * i : 4 * i + 4])):
            found.append(f"{label} had its code, defaults or closure replaced")
    for c, mro, meta in snap.classes:
        if _type_mro(c) is not mro or type(c) is not meta:
            found.append(f"{_name_of_class(c)} had its bases or metaclass replaced")
    return found or ["an attribute was removed and added again"]


def _tampered() -> list[str]:
    s = _S
    out: list[str] = []
    for snap in (s.contract_snap, s.class_snap):
        if not _intact(snap):
            out += _changes(snap)
    return out + [f"blocked: {e}" for e in _G.events]


# ------------------------------------------------------------------------------------------
# The method server
# ------------------------------------------------------------------------------------------


def _main() -> None:
    """Load the module, send the handshake, answer requests until stdin closes; then exit
    (the process: this module's own dict is empty by then)."""
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


def _checker_fn(name: str) -> Any:
    s = _S
    fn = _bounded(getattr, (s.checker, name, None), 5.0) if s.checker is not None else None
    if not callable(fn):
        raise _usage(f"the checker defines no {name}()")
    return fn


def _instance(handle: Any) -> Any:
    inst = _S.instances.get(handle) if type(handle) is int else None
    if inst is None:
        raise _usage(f"no instance with handle {handle!r:.40}")
    return inst


def _method(name: str, limit: float) -> Any:
    fn = _bounded(getattr, (_S.cls, name, None), limit)
    if fn is None:
        raise _usage(f"{_name_of_class(_S.cls)} has no {name}")
    return fn


def _limit(p: dict[str, Any], default: float) -> float:
    value = p.get("limit", default)
    if type(value) is not int and type(value) is not float:
        raise _usage("limit must be a number")
    return float(value)


def _case(p: dict[str, Any]) -> Any:
    if "case" in p:
        return p["case"]  # already a fresh object: the request line was just parsed
    text = p.get("case_text")
    if type(text) is not str:
        raise _usage("case_text must be a string of JSON")
    return loads(text)


def _plain(value: Any) -> Any:
    """A JSON-safe copy of plain data, or a description when it is not plain data."""
    problem = json_problem(value, "value")
    return value if problem is None else {"__not_plain__": problem}


def _plain_text(value: Any) -> Any:
    if type(value) is str:
        return value
    return {"__type__": _name_of(value), "repr": _safe_repr(value)}


def _safe_repr(value: Any) -> str:
    try:
        text = _bounded(repr, (value,), 1.0)
    except Exception as exc:
        err = _failed(exc) or {}
        return f"<{_name_of(value)} whose repr failed: {err.get('message', '')}>"
    return text[:TEXT_CAP] if type(text) is str else f"<{_name_of(value)}>"


def _encode_value(case: Any) -> dict[str, Any]:
    """A generated case as canonical JSON text, or why it is not plain JSON (with a repr)."""
    problem = (f"case_generator returned a {_name_of(case)}, not a dict"
               if type(case) is not dict else json_problem(case))
    if problem is not None:
        return {"problem": problem, "repr": _safe_repr(case)}
    return {"text": canonical(case)}


def _score_value(value: Any) -> Any:
    """A score as JSON: a float (NaN and infinities as strings), or a description."""
    kind = type(value)
    if kind is bool:
        return {"__type__": "bool", "repr": "True" if value else "False"}
    if kind is int and value.bit_length() > 1024:  # float() would raise OverflowError
        return {"__type__": "huge int", "repr": f"an int of {value.bit_length()} bits"}
    if kind is float or kind is int:
        number = float(value)
        return number if _isfinite(number) else repr(number)
    return {"__type__": _name_of(value), "repr": _safe_repr(value)}


def _seed_globals(seed: int) -> None:
    """InternBootcamp classes draw from the global generators: seed them (intern mode only)."""
    _random_seed(seed)
    numpy = _sys_modules.get("numpy")
    if numpy is not None:
        try:  # noqa: SIM105 -- the server references no module (contextlib)
            numpy.random.seed(seed % 2**32)
        except Exception:
            pass


# -- the questions -------------------------------------------------------------------------


def m_check(p: dict[str, Any]) -> Any:
    answer = p.get("answer")
    if type(answer) is not str:
        raise _usage("answer must be a string")
    value = _bounded(_checker_fn("check"), (_case(p), answer), _limit(p, 2.0))
    return value if type(value) is bool else {"__type__": _name_of(value),
                                               "repr": _safe_repr(value)}


def m_validate(p: dict[str, Any]) -> Any:
    """An input validator's verdict on one standard input: None (the input is legal), the
    reason it is not (a str, cut to :data:`TEXT_CAP`), or a description of anything else it
    returned (the host refuses that)."""
    stdin = p.get("stdin")
    if type(stdin) is not str:
        raise _usage("stdin must be a string")
    value = _bounded(_checker_fn("validate"), (stdin,), _limit(p, 2.0))
    if value is None:
        return None
    if type(value) is str:
        return value[:TEXT_CAP]
    return {"__type__": _name_of(value), "repr": _safe_repr(value)}


def m_solve(p: dict[str, Any]) -> Any:
    return _plain_text(_bounded(_checker_fn("solve"), (_case(p),), _limit(p, 2.0)))


def m_probes(p: dict[str, Any]) -> Any:
    value = _bounded(_checker_fn("probes"), (_case(p),), _limit(p, 2.0))
    if (type(value) is list or type(value) is tuple) and all(type(x) is str for x in value):
        return list(value)[:200]
    return {"__type__": _name_of(value), "repr": _safe_repr(value)}


def m_construct(p: dict[str, Any]) -> int:
    s = _S
    params, seed, limit = p.get("params") or {}, p.get("seed"), _limit(p, 10.0)
    if type(params) is not dict:
        raise _usage("params must be an object")
    cls = s.cls
    if s.mode == "intern":
        if type(seed) is int:
            _seed_globals(seed)
        inst = _bounded(lambda: cls(**params), (), limit)
    else:
        inst = _bounded(lambda: cls(seed=seed, **params), (), limit)
    handle = s.next_handle
    s.next_handle += 1
    s.instances[handle] = inst
    return handle


def m_drop(p: dict[str, Any]) -> bool:
    handle = p.get("handle", 0)
    return type(handle) is int and _S.instances.pop(handle, None) is not None


def m_generate(p: dict[str, Any]) -> dict[str, Any]:
    inst = _instance(p.get("handle"))
    limit = _limit(p, 2.0)
    if _S.mode == "intern" and type(p.get("reseed")) is int:
        _seed_globals(p["reseed"])
    generate = _bounded(getattr, (inst, "case_generator"), limit)
    case = _bounded(generate, (), limit)
    return _encode_intern(case) if _S.mode == "intern" else _encode_value(case)


#: How many converted cases (as generated) the server keeps for ``roundtrip``.
ORIGINALS_KEPT = 16


def _encode_intern(case: Any) -> dict[str, Any]:
    """Intern mode: a case that only ``json.dumps`` changes (tuples become lists, int keys
    strings), as InternBootcamp's data pipeline stores it, is sent in its JSON form with
    ``converted`` (what changed); the case as generated is kept for ``roundtrip``."""
    out = _encode_value(case)
    if "problem" not in out or type(case) is not dict:
        return out
    converted = _as_json(case, 0)
    problem = json_problem(converted)
    if problem is not None:
        return {"problem": problem, "repr": out.get("repr", "")}
    text = canonical(converted)
    kept = _S.originals
    if len(kept) < ORIGINALS_KEPT and text not in kept:
        kept[text] = case
    return {"text": text, "converted": out["problem"]}


def _as_json(obj: Any, depth: int) -> Any:
    """``obj`` as ``json.dumps`` would store it, for exact tuples (lists) and exact int keys
    (their decimal text, unless that key is already there); anything else is left as it is
    (for :func:`json_problem` to name)."""
    kind = type(obj)
    if depth > 200:
        return obj
    if kind is tuple or kind is list:
        return [_as_json(x, depth + 1) for x in obj]
    if kind is dict:
        out: dict[Any, Any] = {}
        for key, value in obj.items():
            if type(key) is int and key.bit_length() <= 13_000:
                text = str(key)
                key = key if text in obj or text in out else text
            out[key] = _as_json(value, depth + 1)
        return out
    return obj


def _intern_verify(response: str, identity: Any, fmt: Any, limit: float) -> tuple[Any, Any]:
    """Intern mode: ``verify_score`` and the first exception it swallowed ((where, exc) or
    None), as the audit shim recorded it."""
    s = _S
    s.shim.clear_swallowed()
    value = _bounded(_bounded(getattr, (s.cls, "verify_score"), limit),
                     (response, identity, fmt), limit)
    swallowed = s.shim.SWALLOWED
    first = swallowed[0] if type(swallowed) is list and swallowed else None
    s.shim.clear_swallowed()
    return value, first if type(first) is tuple and len(first) == 2 else None


def _swallowed_info(first: Any) -> dict[str, Any]:
    where, exc = first
    if not isinstance(exc, BaseException):  # the shim's record, changed by the audited code
        return {"where": _safe_str(where)[:100], "type": _name_of(exc),
                "message": "(not an exception)", "traceback": ""}
    return {"where": _safe_str(where)[:100], "type": _name_of(exc),
            "message": _bounded(_message, (exc,), 1.0), "traceback": _trace(exc)}


def m_roundtrip(p: dict[str, Any]) -> list[Any]:
    """Intern mode: each response scored on a converted case as it was generated and as the
    JSON round trip gives it back: ``[[[score, swallowed type], [score, swallowed type]], ...]``
    (scores as in ``score``; the type is "" when nothing was swallowed)."""
    s = _S
    text, responses = p.get("case_text"), p.get("responses")
    if type(text) is not str:
        raise _usage("case_text must be a string of JSON")
    original = s.originals.get(text) if s.mode == "intern" else None
    if original is None:
        raise _usage("no converted case with this text was generated")
    if type(responses) is not list or not all(type(r) is str for r in responses):
        raise _usage("responses must be a list of strings")
    limit = _limit(p, 2.0)
    out: list[Any] = []
    for response in responses[:64]:
        pair = []
        for identity in (original, loads(text)):
            value, first = _intern_verify(response, identity, 0.0, limit)
            score = value if type(value) is float and _isfinite(value) else _score_value(value)
            pair.append([score, _name_of(first[1]) if first is not None else ""])
        out.append(pair)
    return out


def m_prompt(p: dict[str, Any]) -> Any:
    limit = _limit(p, 2.0)
    return _plain_text(_bounded(_method("prompt_func", limit), (_case(p),), limit))


def m_answer(p: dict[str, Any]) -> Any:
    limit = _limit(p, 2.0)
    return _plain_text(_bounded(_method("reference_answer", limit), (_case(p),), limit))


def m_stdin(p: dict[str, Any]) -> Any:
    limit = _limit(p, 2.0)
    return _plain_text(_bounded(_method("render_stdin", limit), (_case(p),), limit))


def m_wrap(p: dict[str, Any]) -> Any:
    answer = p.get("answer")
    if type(answer) is not str:
        raise _usage("answer must be a string")
    limit = _limit(p, 2.0)
    return _plain_text(_bounded(_method("wrap_answer", limit), (answer,), limit))


def m_score(p: dict[str, Any]) -> dict[str, Any]:
    s = _S
    response, fmt, limit = p.get("response"), p.get("format_score", 0.0), p.get("limit", 5.0)
    if type(response) is not str:
        raise _usage("response must be a string")
    if type(fmt) is not float and type(fmt) is not int:
        raise _usage("format_score must be a number")
    if type(limit) is not float:
        limit = _limit(p, 5.0)
    identity = p["case"] if "case" in p else _case(p)
    out: dict[str, Any] = {}
    if s.mode == "intern":
        value, first = _intern_verify(response, identity, fmt, limit)
        if first is not None:
            out["swallowed"] = _swallowed_info(first)
        changed = p.get("check_identity") and canonical(identity) != p.get("case_text")
    else:
        # Before: skipped when nothing of the bootcamp can have run since the last clean check
        # (see the end). The call itself runs with the collector on.
        before = s.clean or _scoring_intact()
        s.clean = False
        _gc_enable()
        value = _bounded(s.verify, (s.cls, response, identity, fmt), limit)
        # may run bootcamp code (a dict subclass put in the case): before the check
        changed = p.get("check_identity") and canonical(identity) != p.get("case_text")
        identity = None
        p.clear()  # the case, and whatever the bootcamp hung on it, go now: before the check
        s.calls += 1
        if not (before and _scoring_intact()) or _G.events or not (
                s.calls % CODE_CHECK_EVERY or (_intact(s.contract_snap) and _intact(s.class_snap))):
            out["tampered"] = _tampered() or ["changed during the call, then restored"]
        else:
            # Clean: from here to the next scoring call the kit drops nothing of the bootcamp's
            # and calls none of its code, and with the collector off no finalizer runs; any
            # other request, and any error, ends it (``_dispatch``).
            _gc_disable()
            s.clean = True
    out["score"] = value if type(value) is float and _isfinite(value) else _score_value(value)
    if changed:
        out["identity_changed"] = True
    return out


def _state_value(state: Any, out: dict[str, Any]) -> dict[str, Any]:
    """``out`` with the episode state a reset or step returned: ``state`` when it is a plain
    JSON dict, else ``state_problem`` (why not) and ``state_repr``."""
    problem = (f"the state is a {_name_of(state)}, not a dict" if type(state) is not dict
               else json_problem(state, "state"))
    if problem is None:
        out["state"] = state
    else:
        out["state_problem"] = problem
        out["state_repr"] = _safe_repr(state)
    return out


def _episode_state(p: dict[str, Any]) -> Any:
    state = p.get("state")
    if type(state) is not dict:
        raise _usage("state must be an object")
    return state  # a fresh object: the request line was just parsed


def m_reset(p: dict[str, Any]) -> dict[str, Any]:
    """Multi-turn: ``reset(identity)`` as ``{"observation", "state"}`` (see :func:`_state_value`;
    a value that is not a pair is ``{"problem", "repr"}``)."""
    limit = _limit(p, 5.0)
    value = _bounded(_method("reset", limit), (_case(p),), limit)
    if (type(value) is not tuple and type(value) is not list) or len(value) != 2:
        return {"problem": f"reset returned a {_name_of(value)}, not (observation, state)",
                "repr": _safe_repr(value)}
    return _state_value(value[1], {"observation": _plain_text(value[0])})


def m_step(p: dict[str, Any]) -> dict[str, Any]:
    """Multi-turn: ``step(state, action)`` as ``{"result": {...}, "reward": score}``: the
    result's plain JSON entries but the reward, and the reward as in ``score`` (NaN as a
    string, a bool or any other type described); a result that is not plain JSON is
    ``{"problem", "repr"}``. The host checks the keys and types."""
    action = p.get("action")
    if type(action) is not str:
        raise _usage("action must be a string")
    limit = _limit(p, 5.0)
    value = _bounded(_method("step", limit), (_episode_state(p), action), limit)
    if type(value) is not dict:
        return {"problem": f"step returned a {_name_of(value)}, not a dict",
                "repr": _safe_repr(value)}
    rest = dict(value)
    missing = "reward" not in rest
    reward = rest.pop("reward", None)
    problem = json_problem(rest, "step's result")
    if problem is not None:
        return {"problem": problem, "repr": _safe_repr(value)}
    return {"result": rest, "reward": {"__type__": "missing", "repr": "no reward"} if missing
            else _score_value(reward)}


def m_policy(p: dict[str, Any]) -> Any:
    """Multi-turn: ``reference_policy(state)``, the action as text (or its description)."""
    limit = _limit(p, 5.0)
    return _plain_text(_bounded(_method("reference_policy", limit), (_episode_state(p),), limit))


def m_events(p: dict[str, Any]) -> list[str]:
    """Intern mode: what the guard refused since the last ``events`` question (subprocesses,
    reads outside the allowed folders, executed response text), then forgotten."""
    if _S.mode != "intern":
        raise _usage("events are reported in intern mode only")
    events = _G.events
    out = [_safe_str(e)[:300] for e in events]
    del events[:]
    return out


def m_engine_log(p: dict[str, Any]) -> dict[str, Any]:
    """Engine-backed bootcamps: the commands the declared engines were sent since the last
    ``engine_log`` question (``{"count", "digest", "head"}``), then forgotten; ``{}`` without
    engines. The log is kept by the engine broker and read through the bootcamp's own client,
    as a bootcamp call: the bootcamp could hide its commands, never make a verdict -- the host
    only compares the logs of the same calls in two processes."""
    fn = _S.engine_log
    if fn is None:
        return {}
    limit = _limit(p, 15.0)
    value = _bounded(fn, (), limit)
    if type(value) is not dict or json_problem(value, "the engine log") is not None:
        return {"problem": f"the engine log is a {_name_of(value)}, not plain JSON"}
    return loads(canonical(value))


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


def m_sample(p: dict[str, Any]) -> list[dict[str, Any]]:
    """Batch: for each (level, seed) spec, construct, generate one case, render its prompt
    (and optionally the reference answer). Used by export, the filter and review."""
    specs = p.get("specs")
    if type(specs) is not list:
        raise _usage("specs must be a list")
    # the presets as the handshake reported them (a copy taken at load): a bootcamp that
    # mutates its LEVELS later cannot change what export, the filter and review construct
    presets = _S.levels_at_load if type(_S.levels_at_load) is dict else {}
    limit = _limit(p, 5.0)
    answers = p.get("answers") is True
    rows: list[dict[str, Any]] = []
    for index, spec in enumerate(specs):
        try:
            rows.append(_sample_one(spec, presets, limit, answers))
        except Exception as exc:
            err = _failed(exc)
            if err is not None:
                err["index"] = index  # which spec failed: the host names the row
            raise
    return rows


def _sample_one(spec: Any, presets: dict[str, Any], limit: float,
                answers: bool) -> dict[str, Any]:
    if type(spec) is not list or len(spec) < 2:
        raise _usage("a spec is [level, seed]")
    level, seed = spec[0], spec[1]
    if level == "default":
        params: dict[str, Any] = {}
    elif type(level) is str and type(presets.get(level)) is dict:
        params = dict(presets[level])
    else:
        raise _usage(f"{_name_of_class(_S.cls)} has no level {level!r:.80}")
    handle = m_construct({"params": params, "seed": seed, "limit": limit})
    try:
        encoded = m_generate({"handle": handle, "limit": limit, "reseed": seed})
    finally:
        _S.instances.pop(handle, None)
    row: dict[str, Any] = {"case": encoded}
    if "problem" not in encoded:
        case_text = encoded["text"]
        row["prompt"] = m_prompt({"case_text": case_text, "limit": limit})
        if answers:
            row["answer"] = m_answer({"case_text": case_text, "limit": limit})
    return row


_HANDLERS = ("m_batch", "m_check", "m_construct", "m_drop", "m_events", "m_generate", "m_prompt",
             "m_probes", "m_roundtrip", "m_sample", "m_score", "m_solve", "m_stdin", "m_wrap",
             "m_answer", "m_reset", "m_step", "m_policy", "m_engine_log", "m_validate")
#: Where the server's private namespace starts (see :func:`_private_namespace`).
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
# Setting the server up (before the candidate is imported)
# ------------------------------------------------------------------------------------------


def _nested_codes(code: Any) -> list[Any]:
    found = [code]
    for const in code.co_consts:
        if type(const) is types.CodeType:
            found += _nested_codes(const)
    return found


def _names_in(code: Any) -> list[str]:
    """Every name a code object (and the code nested in it) refers to."""
    names = list(code.co_names)
    for const in code.co_consts:
        if type(const) is _CodeType:
            names += _names_in(const)
    return names


def _private_namespace(module_globals: dict[str, Any], entries: tuple[str, ...],
                       builtins_copy: dict[str, Any]) -> dict[str, Any]:
    """The server's private namespace: copies of the functions ``entries`` lead to (through
    the names their code refers to), bound to a new globals dict that holds them, the
    constants and C functions they use, and ``builtins_copy``. No module goes in: the server
    calls nothing a bootcamp could patch (``tests/sandbox/test_kit.py`` checks every global
    name the copies read)."""
    env: dict[str, Any] = {"__builtins__": builtins_copy, "__name__": "_synth_kit_server"}
    todo = list(entries)
    while todo:
        name = todo.pop()
        if name in env or name not in module_globals:
            continue
        value = module_globals[name]
        if type(value) is types.ModuleType:
            continue
        if type(value) is types.FunctionType and value.__globals__ is module_globals:
            copy = types.FunctionType(value.__code__, env, value.__name__, value.__defaults__,
                                      value.__closure__)
            copy.__kwdefaults__ = value.__kwdefaults__
            env[name] = copy
            todo += _names_in(value.__code__)
        else:
            env[name] = value
    return env


def _contract_copy(fn: Any, builtins_copy: dict[str, Any]) -> Any:
    """``fn`` bound to a copy of its module's globals taken now, in which every module is a
    frozen namespace of its attributes, and to ``builtins_copy``: the contract's code, as the
    contract defines it, whatever the bootcamp later does to the shared modules."""
    env = {name: types.SimpleNamespace(**vars(value)) if type(value) is types.ModuleType
           else value for name, value in fn.__globals__.items()}
    env["__builtins__"] = builtins_copy
    copy = types.FunctionType(fn.__code__, env, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    return copy


def _codes_of(module: Any) -> tuple[Any, ...]:
    """The code objects of a module's own functions and classes (nested ones included)."""
    found: list[Any] = []

    def add(code: Any) -> None:
        found.append(code)
        for const in code.co_consts:
            if type(const) is types.CodeType:
                add(const)

    for value in vars(module).values():
        if getattr(value, "__module__", None) != module.__name__:
            continue
        members = list(vars(value).values()) if isinstance(value, type) else [value]
        for member in members:
            if isinstance(member, property):
                fns = [member.fget, member.fset, member.fdel]
            else:
                fns = [getattr(member, "__func__", member)]
            for fn in fns:
                if type(fn) is types.FunctionType:
                    add(fn.__code__)
    return tuple(found)


def _embedded_programs(path: str) -> frozenset[str]:
    """The reference programs a compiled bootcamp module embeds (``_REFERENCE_PROGRAM = "..."``
    at module level or ``REFERENCE_PROGRAM = "..."`` in a class body), without leading
    newlines: the only source the contract's runner may compile once the guard is armed."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, ValueError):
        return frozenset()
    if "REFERENCE_PROGRAM" not in text:
        return frozenset()
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    found = set()
    for node in ast.walk(tree):
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 \
            else node.target if isinstance(node, ast.AnnAssign) else None
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and target.id in ("_REFERENCE_PROGRAM", "REFERENCE_PROGRAM") \
                and isinstance(value, ast.Constant) and type(value.value) is str:
            found.add(value.value.lstrip("\n"))
    return frozenset(found)


def _code_callers() -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(exec callers, compile callers): the standard-library functions that may compile and run
    code while the guard is armed -- the import system, dataclasses' method factory and
    namedtuple -- and typing's ForwardRef, which compiles a string annotation (running it is
    refused)."""
    importer = sys.modules["_frozen_importlib"]
    fns = [getattr(importer, "_call_with_frames_removed", None),
           getattr(dataclasses, "_create_fn", None), collections.namedtuple]
    exec_callers = tuple(fn.__code__ for fn in fns if type(fn) is types.FunctionType)
    forward = getattr(typing.ForwardRef, "__init__", None)
    extra = (forward.__code__,) if type(forward) is types.FunctionType else ()
    return exec_callers, exec_callers + extra


def _setters() -> dict[str, Any]:
    """Attributes the guard lets one standard-library function set: namedtuple sets its
    ``__new__``'s ``__defaults__``, typing.NamedTuple the ``__bases__`` of the class it makes."""
    found = {"__defaults__": collections.namedtuple.__code__}
    meta = getattr(typing, "NamedTupleMeta", None)
    new = getattr(vars(meta).get("__new__"), "__func__", None) if isinstance(meta, type) else None
    if type(new) is types.FunctionType:
        found["__bases__"] = new.__code__
    return found


def contract_modules(contract: Any) -> list[Any]:
    """The modules of the contract: ``contract`` (``synth.bootcamp``) and the modules of its
    package that its functions and classes come from or that it imports, and theirs (found in
    the modules' globals, so a module the contract comes to import is one of them without
    a list to keep). The host ships exactly these into a job
    (:func:`synth.sandbox.methods.contract_files`); the kit snapshots them as one contract,
    and their code may compile and run the module's embedded reference program."""
    prefix = contract.__name__.rpartition(".")[0] + "."
    found = {contract.__name__: contract}
    todo = [contract]
    while todo:
        for value in list(vars(todo.pop()).values()):
            if type(value) is types.ModuleType:
                name = value.__name__
            elif type(value) is types.FunctionType or isinstance(value, type):
                name = value.__module__
            else:
                continue
            module = sys.modules.get(name) if type(name) is str and name.startswith(prefix) \
                else None
            if module is not None and name not in found:
                found[name] = module
                todo.append(module)
    return [found[name] for name in sorted(found)]


def _contract_classes(modules: list[Any]) -> list[Any]:
    """Every class the contract's modules define (``BaseBootcamp``, ``CompiledBootcamp``, the
    runner's stream and error classes, ...), each once, in the modules' order."""
    own = {module.__name__ for module in modules}
    found: dict[int, Any] = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ in own:
                found.setdefault(id(value), value)
    return list(found.values())


def _contract_snapshot(env: dict[str, Any], modules: list[Any], base: type,
                       builtins_dict: dict[str, Any]) -> Any:
    """The contract as it is before the import: the dicts of the contract's modules
    (:func:`contract_modules`) and of every class they define (``BaseBootcamp``'s, the runner's
    ``_Output``'s, ...), the builtins, module globals and module attributes the contract's
    code reads (a global added under a builtin's name included), the functions of the modules
    and classes, the classes' MROs and metaclasses. The part a class's scores depend on is
    compared at every call (:func:`_hot`), all of it every :data:`CODE_CHECK_EVERY` calls."""
    names: set[str] = set()
    for module in modules:
        for code in _codes_of(module):
            names.update(_names_in(code))
    scopes = [(module.__name__, vars(module)) for module in modules]
    views = [(label, scope, tuple(sorted(names & (set(scope) | set(builtins_dict)))))
             for label, scope in scopes]
    views.append(("builtins", builtins_dict, tuple(sorted(names & set(builtins_dict)))))
    seen = {id(builtins_dict), *(id(scope) for _, scope in scopes)}
    for _, scope in scopes:
        for gname, value in scope.items():
            if type(value) is types.ModuleType and id(vars(value)) not in seen:
                seen.add(id(vars(value)))
                keys = sorted(n for n in names & set(vars(value)) if not n.startswith("__"))
                if keys:
                    views.append((f"{gname} (module)", vars(value), tuple(keys)))
    classes = [base, *(c for c in _contract_classes(modules) if c is not base)]
    fns = [f for c in classes for f in env["_functions"](c)]
    fns += [(f"{label}.{name}", fn) for label, scope in scopes for name, fn in scope.items()
            if type(fn) is types.FunctionType and fn.__module__ == label]
    class_dicts = [("BaseBootcamp", _type_dict(base))]
    class_dicts += [(f"{c.__module__}.{c.__qualname__}", _type_dict(c)) for c in classes[1:]]
    return env["_snapshot"]([], [], fns, classes, (*class_dicts, *scopes), tuple(views))


#: The methods a score goes through (where a class inherits them from the contract): the
#: contract globals, builtins and module attributes their code reads are checked at every
#: scoring call. (``verify_score`` itself is on the list of attributes, not of readers: the
#: kit scores with its own copy of its code, bound to the globals taken before the import.)
_SCORING = ("verify_score", "extract_output", "_verify_correction", "reference_answer",
            "check_output")
_SCORING_READERS = _SCORING[1:]


def _contract_reads(modules: list[Any]) -> dict[type, tuple[frozenset[str], tuple[type, ...]]]:
    """For each class of the contract: every name its scoring methods (:data:`_SCORING`) read,
    and the functions and classes of the contract they name read (in whichever of the
    contract's modules they live), and so on -- the contract globals, builtins and module
    attributes a score can depend on; with them, the contract classes a score can depend on:
    every class of each contract module that code on the path comes from (an instance's
    attribute -- ``program.remember`` -- leads to a class no name on the path shows: for a
    compiled bootcamp, every class of ``synth.bootcamp`` and of the runner)."""
    out: dict[type, tuple[frozenset[str], tuple[type, ...]]] = {}
    own = {module.__name__ for module in modules}
    classes = _contract_classes(modules)
    for cls in classes:
        names: set[str] = set()
        todo = [fn for name, fn in _plain_functions(cls) if name in _SCORING_READERS]
        seen: set[int] = set()
        on_path = {cls.__module__}
        while todo:
            fn = todo.pop()
            if id(fn) in seen:
                continue
            seen.add(id(fn))
            on_path.add(fn.__module__)
            scope = fn.__globals__
            for name in _names_in(fn.__code__):
                names.add(name)
                value = scope.get(name)
                if type(value) is types.FunctionType:
                    todo.append(value)
                elif isinstance(value, type) and value.__module__ in own:
                    todo += [f for _, f in _plain_functions(value)]
        out[cls] = (frozenset(names), tuple(c for c in classes if c.__module__ in on_path))
    return out


def _plain_functions(cls: type) -> list[tuple[str, Any]]:
    found = []
    for name, value in vars(cls).items():
        fn = getattr(value, "__func__", value)
        if isinstance(value, property):
            fn = value.fget
        if type(fn) is types.FunctionType:
            found.append((name, fn))
    return found


def _shift_clock() -> None:
    def shifted(real: Any, shift: Any) -> Any:
        return lambda: real() + shift

    for name in ("time", "monotonic", "perf_counter", "process_time"):
        setattr(time, name, shifted(getattr(time, name), CLOCK_SHIFT_S))
    for name in ("time_ns", "monotonic_ns", "perf_counter_ns"):
        setattr(time, name, shifted(getattr(time, name), int(CLOCK_SHIFT_S * 1e9)))


def _signal_facade() -> types.ModuleType:
    """What a bootcamp gets for ``import signal`` in the guarded server: the real module's
    constants, and functions that do nothing (each with empty globals and builtins). The real
    module is out of reach: a Python handler would be handed the running frame -- the
    server's -- and ``setitimer`` or ``raise_signal`` would call it at will."""
    facade = types.ModuleType("signal", "The signal module is not available in a bootcamp.")
    inert = types.FunctionType((lambda *args, **kwargs: None).__code__, {"__builtins__": {}})
    for name, value in vars(signal).items():
        if name.startswith("__"):
            continue
        if isinstance(value, int | type):
            setattr(facade, name, value)
        elif callable(value):
            setattr(facade, name, inert)
    return facade


def _start_engines(here: str, module: str) -> tuple[dict[str, Any], Any]:
    """The engines the module declares (``ENGINES``), started by ``synth.engines`` before the
    guard is armed: the bootcamp talks to them through its client and starts no process. Their
    status (name -> ok, version or error) goes into the handshake; with it, the client's
    ``command_log`` (None without engines), which :func:`m_engine_log` asks."""
    if not os.path.isfile(os.path.join(here, "synth", "engines.py")):
        return {}, None
    engines = importlib.import_module("synth.engines")
    found = engines.start_declared(os.path.join(here, *module.split(".")) + ".py")
    if type(found) is not dict or json_problem(found) is not None or not found:
        return {}, None
    return loads(canonical(found)), engines.command_log


def _identity(fd: int) -> tuple[int, int]:
    st = os.fstat(fd)
    return st.st_dev, st.st_ino


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def serve(argv: list[str], guard: bool = True) -> int:
    """``_synth_kit.py serve MODULE CLASS_OR_EMPTY MODE [--shift-clock] [label...]``: answer
    questions about one module until stdin closes, then exit the process (this never returns:
    by then this module's dict is empty). ``guard=False`` (tests only: the defence-in-depth
    tests) leaves the audit hook out and the modules as they are."""
    module, class_name, mode = argv[0], argv[1], argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    # 1. the reply channel and the session's token, before anything of the bootcamp runs
    out = os.dup(1)
    token = os.urandom(TOKEN_BYTES).hex().encode("ascii")
    _write_all(out, AUTH_OPEN + token + b'"}\n')
    os.dup2(2, 1)  # the bootcamp's prints go to stderr, never into the protocol
    sys.stdout = sys.stderr
    signal.signal(signal.SIGALRM, signal.default_int_handler)
    if "--shift-clock" in argv[3:]:
        _shift_clock()
    # 2. what the bootcamp may import, and the contract, before the guard
    for name in ALLOWED_MODULES:
        importlib.import_module(name)
    contract = importlib.import_module("synth.bootcamp") if mode == "native" else None
    parts = contract_modules(contract) if contract is not None else []
    program_modules: list[str] = []
    for name in getattr(contract, "PROGRAM_MODULES", ()) or ():
        if type(name) is str:
            try:
                importlib.import_module(name)
                program_modules.append(name)
            except ImportError:
                pass
    shim = importlib.import_module("intern_shim") if mode == "intern" else None
    engine_status, engine_log = _start_engines(here, module) if mode == "native" else ({}, None)
    # 3. the private namespace: the server's code, state and guard
    builtins_copy = dict(vars(builtins))
    env = _private_namespace(globals(), _RUNTIME, builtins_copy)
    exec_callers, compile_callers = _code_callers()
    stdlib = _realpath(os.path.dirname(os.path.abspath(os.__file__)))
    roots: tuple[str, ...] = (stdlib + "/", _realpath(here) + "/")
    if mode == "intern":
        # reads: also the import path (an audited library's folders, its dependencies'); later
        # imports compile from source, so that loading them needs no marshal.loads (refused:
        # crafted bytecode is a way past the guard) -- a folder that never exists, and -B
        # writes nothing there
        found = [_realpath(os.path.abspath(entry)) for entry in sys.path
                 if type(entry) is str and entry and os.path.isdir(entry)]
        roots = tuple(dict.fromkeys([*roots, *(r + "/" for r in found if r and r != "/")]))
        sys.dont_write_bytecode = True
        if sys.pycache_prefix is None:
            sys.pycache_prefix = os.path.join(here, ".no-bytecode")
    imports = {*ALLOWED_MODULES, module.split(".")[0], "synth", "intern_shim", "bootcamp",
               "internbootcamp", *program_modules}
    env["_G"] = g = types.SimpleNamespace(
        armed=False, trusted=0, inside=False, collecting=True, events=[], imports=imports,
        strict=mode != "intern",
        kit_codes=frozenset(id(code) for value in env.values() if type(value) is types.FunctionType
                            for code in _nested_codes(value.__code__)),
        roots=roots, exec_callers=exec_callers,
        compile_callers=compile_callers, contract_codes=(), programs=frozenset(),
        set_by=_setters(), stdlib=stdlib + "/", job=_realpath(here) + "/", contract_dir=_realpath(here) + "/synth/",
        kit=_realpath(os.path.abspath(__file__)))
    env["_S"] = s = types.SimpleNamespace(
        mode=mode, module_name=module, class_name=class_name, out=out, out_id=_identity(out),
        in_id=_identity(0), token=token, prefix=REPLY_OPEN + token + b'",', buf=bytearray(),
        pos=0, pending=[], pending_bytes=0, handlers={}, instances={}, next_handle=1, cls=None,
        base=None, multi=None, verify=None, shim=shim, checker=None, contract_snap=None, class_snap=None,
        levels_at_load=None, sources={}, contract_names=_CONTRACT_NAMES, contract_reads={},
        hot=None, calls=0, clean=False, originals={}, engine_status=engine_status,
        engine_log=engine_log)
    s.handlers = {name[2:]: env[name] for name in _HANDLERS}
    if shim is not None:
        s.base = shim.Basebootcamp
    if contract is not None:
        s.base = base = contract.BaseBootcamp
        multi = vars(contract).get("MultiTurnBootcamp")
        s.multi = multi if isinstance(multi, type) else None
        s.verify = _contract_copy(base.__dict__["verify_score"].__func__, builtins_copy)
        s.contract_snap = _contract_snapshot(env, parts, base, vars(builtins))
        s.contract_reads = _contract_reads(parts)
        g.contract_codes = tuple(code for part in parts for code in _codes_of(part))
        g.programs = _embedded_programs(os.path.join(here, *module.split(".")) + ".py")
    main = env["_main"]
    # 4. out of the bootcamp's reach: the guard, the modules that lead back here, this dict
    if guard:
        sys.addaudithook(env["_hook"])
        sys.modules["signal"] = _signal_facade()
        sys.modules.pop("_signal", None)
    sys.modules.pop("gc", None)
    me = sys.modules.get(__name__)
    for name, value in list(sys.modules.items()):
        if value is me:  # "__main__" (or "_synth_kit"): an inert module in its place
            sys.modules[name] = types.ModuleType(name)
    mine = globals()
    mine.clear()
    g.armed = guard
    main()
    return 0  # not reached: _main() exits


# ------------------------------------------------------------------------------------------
# Running a standalone program on many inputs (the oracle's reference program)
# ------------------------------------------------------------------------------------------


def run_many(argv: list[str]) -> int:
    """``_synth_kit.py run-many PROGRAM``: stdin is ``{"inputs": [str, ...], "timeout": s,
    "max_output": n}``; runs ``python PROGRAM`` once per input (up to 4 at a time) and writes
    ONE JSON line: a list of ``{"stdout", "stderr", "code"}`` (``code`` None on a timeout)."""
    import subprocess

    program = argv[0]
    request = json.loads(sys.stdin.read())
    inputs, timeout = request["inputs"], float(request["timeout"])
    cap = int(request.get("max_output", 1_000_000))
    here = os.path.dirname(os.path.abspath(__file__))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONIOENCODING="utf-8", PYTHONDONTWRITEBYTECODE="1")
    results: list[dict[str, Any]] = []
    for start in range(0, len(inputs), 4):
        procs = []
        for text in inputs[start : start + 4]:
            proc = subprocess.Popen(
                [sys.executable, "-s", "-S", "-B", program], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=here)
            procs.append((proc, text))
        for proc, text in procs:
            try:
                out, err = proc.communicate(text.encode("utf-8"), timeout=timeout)
                code: int | None = proc.returncode
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
                code = None
            results.append({"stdout": out[:cap].decode("utf-8", "replace"),
                            "stderr": err[-TRACE_CAP:].decode("utf-8", "replace"), "code": code})
    sys.stdout.write(json.dumps(results) + "\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "serve":  # MODE: native|intern|checker|validator
        serve(sys.argv[2:])
    if len(sys.argv) >= 3 and sys.argv[1] == "run-many":
        sys.exit(run_many(sys.argv[2:]))
    sys.exit(f"usage: {KIT_NAME} serve MODULE CLASS MODE [--shift-clock] | run-many PROGRAM")
