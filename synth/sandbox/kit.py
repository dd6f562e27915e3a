"""The sandbox kit: the one standard-library-only module shipped into every sandbox job.

It holds everything the *untrusted* side of a job needs, once:

* :func:`find_bootcamp_class` -- the one way to find a module's bootcamp class;
* :func:`derive_seed` -- the one per-case seed derivation (export, filter, review, gate);
* :func:`json_problem` / :func:`canonical` -- what a case must be (plain JSON) and its text;
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

    -> [id, "method", {params}]
    <- {"id": id, "ok": value}
    <- {"id": id, "err": {"kind": "error"|"oom"|"timeout"|"usage", "type": "...",
                          "message": "...", "traceback": "..."}}

The first line the server writes, before reading anything, is the handshake ``{"id": 0, "ok":
{"class": NAME, ...}}`` or ``{"id": 0, "err": ...}`` when the module did not load. Replies are
flushed whenever the server has no complete request left to read, so a host may pipeline
requests (bounded by the pipe sizes: see ``synth.sandbox.methods``).

Per call, an interval timer raises :class:`CallTimeout` (a ``BaseException``, so a bootcamp's
``except Exception`` does not swallow it) after the request's ``limit`` seconds, so that the
reply can show *where* the bootcamp hung. It is a courtesy: the host enforces its own deadline
and kills the whole job when it passes.

At every scoring call the server checks that the contract is intact -- ``BaseBootcamp``'s
attributes, its ``verify_score`` function and code object, the contract module's globals and
the class's own attributes are the ones seen at load time, and no class below the base
defines ``verify_score`` -- and reports any change in the reply (``tampered``), which the host
turns into a finding. Scores are computed with the base-class ``verify_score`` captured before
the candidate was imported.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import math
import operator
import os
import random
import select
import signal
import sys
import time
import traceback
from typing import Any

__all__ = [
    "CLOCK_SHIFT_S",
    "KIT_NAME",
    "PROTOCOL",
    "CallTimeout",
    "canonical",
    "derive_seed",
    "find_bootcamp_class",
    "json_problem",
    "serve",
]

# The kit's own references to the shared standard-library functions it relies on, taken when
# the kit is imported (before any bootcamp code runs): a bootcamp that patches ``json.loads``
# or ``operator.is_`` in the modules it shares with the kit does not change what the kit uses.
_loads = json.loads
_dumps = json.dumps
_is = operator.is_

#: The file name of this module inside a sandbox job.
KIT_NAME = "_synth_kit.py"
PROTOCOL = 1
SEED_MASK = (1 << 63) - 1
#: How far the determinism check's second process shifts every clock.
CLOCK_SHIFT_S = 86_400.0 * 400 + 3_723.5
TRACE_CAP = 3000
TEXT_CAP = 4000


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
    if obj is None or kind in (bool, str):
        return None
    if kind is int:
        if obj.bit_length() > 13_000:  # ~4,000 decimal digits: JSON parsers refuse more
            return f"{path} is an int of {obj.bit_length()} bits (too large for JSON)"
        return None
    if kind is float:
        return None if math.isfinite(obj) else f"{path} is {obj!r} (not valid JSON)"
    if kind is list:
        for i, item in enumerate(obj):
            problem = json_problem(item, f"{path}[{i}]", depth + 1)
            if problem:
                return problem
        return None
    if kind is dict:
        for key, item in obj.items():
            if type(key) is not str:
                return f"{path} has a {type(key).__name__} key {key!r:.60} (JSON keys are strings)"
            problem = json_problem(item, f"{path}[{key!r}]", depth + 1)
            if problem:
                return problem
        return None
    name = kind.__name__
    hint = " (JSON has lists only: it would come back as a list)" if kind is tuple else ""
    return f"{path} is a {name}{hint}; use only dict/list/str/int/float/bool/None"


def canonical(obj: Any) -> str:
    """The canonical JSON text of a value (sorted keys, no NaN): what the host compares."""
    return _dumps(obj, sort_keys=True, ensure_ascii=False, allow_nan=False)


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
_BLOCKED = ("sys._getframe", "sys._current_frames", "sys.settrace", "sys.setprofile",
            "sys.addaudithook", "sys._getframemodulename", "gc.get_objects", "gc.get_referrers",
            "gc.get_referents", "gc.freeze", "os.fork", "os.forkpty", "os.posix_spawn", "os.exec",
            "os.spawn", "os.system", "os.kill", "os.killpg", "os.chdir", "os.chmod", "os.chown",
            "os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.symlink", "os.link",
            "os.truncate", "os.utime", "os.putenv", "os.unsetenv", "subprocess.Popen",
            "_thread.start_new_thread", "signal.pthread_kill", "resource.setrlimit",
            "marshal.loads", "pickle.find_class", "code.__new__", "function.__new__",
            "object.__delattr__", "sys.monitoring.register_callback", "cpython.run_command")
_BLOCKED_PREFIXES = ("ctypes.", "socket.", "shutil.", "mmap.", "winreg.", "_posixsubprocess")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class SandboxViolation(BaseException):
    """Raised by the guard inside the bootcamp's call (a BaseException: ``except Exception``
    in the bootcamp does not swallow it; every attempt is also recorded and reported)."""


class _Guard:
    """Installed before the candidate is imported (it cannot be removed: audit hooks are
    permanent). While armed it refuses what a bootcamp never needs and an attacker does: frame
    and code-object access, the garbage collector's object lists, processes, signals, files
    other than reading the standard library and the job's own modules, sockets, ctypes, and
    imports beyond the allowlist. Every refusal is recorded; the server reports them, and the
    host turns them into a finding. The kit's own bookkeeping runs in ``trusted()`` blocks that
    call no bootcamp code. In intern mode (auditing third-party libraries, which import what
    they like) imports and reads are not restricted.
    """

    def __init__(self, roots: list[str], strict: bool) -> None:
        self.roots = tuple(os.path.realpath(r) + os.sep for r in roots)
        self.strict = strict
        state = {"armed": False, "trusted": 0}
        events: list[str] = []
        allowed_imports = set(ALLOWED_MODULES)

        def allowed_path(path: Any) -> bool:
            try:
                real = os.path.realpath(os.fsdecode(path)) if isinstance(path, str | bytes) else ""
            except (TypeError, ValueError):
                return False
            return bool(real) and (real + os.sep).startswith(self.roots)

        def hook(event: str, args: tuple[Any, ...]) -> None:
            if not state["armed"] or state["trusted"]:
                return
            why = ""
            if event == "object.__getattr__":
                if len(args) > 1 and args[1] in _FRAME_ATTRS:
                    why = f"reading {args[1]}"
            elif event == "object.__setattr__":
                if len(args) > 1 and args[1] in _SET_ATTRS:
                    why = f"setting {args[1]}"
            elif event in _BLOCKED or event.startswith(_BLOCKED_PREFIXES):
                why = event
            elif event == "open":
                path = args[0] if args else None
                mode = args[1] if len(args) > 1 else None
                flags = args[2] if len(args) > 2 and type(args[2]) is int else 0
                writing = (type(mode) is str and any(c in mode for c in "wax+")) or \
                    bool(flags & _WRITE_FLAGS)
                if type(path) is int:
                    why = "opening a file descriptor"
                elif writing or (self.strict and not allowed_path(path)):
                    why = f"opening {str(path)[:80]}"
            elif event in ("os.listdir", "os.scandir") and self.strict:
                if args and not allowed_path(args[0]):
                    why = f"listing {str(args[0])[:80]}"
            elif event == "import" and self.strict:
                name = str(args[0]) if args else ""
                if name.split(".")[0] not in allowed_imports:
                    why = f"importing {name[:80]}"
            if why:
                if len(events) < 20:
                    events.append(why)
                raise SandboxViolation(f"not allowed in a bootcamp: {why}")

        self._state = state
        self._events = events
        self._allowed_imports = allowed_imports
        sys.addaudithook(hook)

    def allow_import(self, *names: str) -> None:
        for name in names:
            self._allowed_imports.add(name.split(".")[0])

    def arm(self) -> None:
        self._state["armed"] = True

    def events(self) -> list[str]:
        return list(self._events)

    @property
    def blocked(self) -> bool:
        return bool(self._events)

    @contextlib.contextmanager
    def trusted(self) -> Any:
        self._state["trusted"] += 1
        try:
            yield
        finally:
            self._state["trusted"] -= 1


_GUARD: _Guard | None = None


def _trusted() -> Any:
    return _GUARD.trusted() if _GUARD is not None else contextlib.nullcontext()


# ------------------------------------------------------------------------------------------
# Bounded calls
# ------------------------------------------------------------------------------------------


class CallTimeout(BaseException):
    """Raised by the interval timer inside a bootcamp call that ran past its limit."""


class _CallFailed(Exception):
    def __init__(self, err: dict[str, Any]) -> None:
        super().__init__(err.get("message", ""))
        self.err = err


def _on_alarm(signum: int, frame: Any) -> None:
    raise CallTimeout()


def _trace(exc: BaseException) -> str:
    """The traceback without the kit's own frames. Frames are read in trusted mode, which runs
    no bootcamp code; the exception's text (its ``__str__`` may be the bootcamp's) is not."""
    with _trusted():
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
            tb = tb.tb_next
        lines = traceback.format_list(traceback.extract_tb(tb)) if tb is not None else []
    text = "Traceback (most recent call last):\n" + "".join(lines) + _message(exc) + "\n"
    return text[-TRACE_CAP:]


def _message(exc: BaseException) -> str:
    try:
        text = str(exc)
    except BaseException:  # a hostile __str__
        text = "<unprintable>"
    return f"{type(exc).__name__}: {text}"[:500]


def _bounded(fn: Any, args: tuple[Any, ...], limit: float) -> Any:
    signal.setitimer(signal.ITIMER_REAL, max(0.001, limit))
    try:
        return fn(*args)
    except CallTimeout as exc:
        raise _CallFailed({"kind": "timeout", "type": "CallTimeout",
                           "message": f"did not return within {limit:g}s",
                           "traceback": _trace(exc)}) from None
    except MemoryError as exc:
        raise _CallFailed({"kind": "oom", "type": "MemoryError",
                           "message": "ran out of memory (MemoryError)",
                           "traceback": _trace(exc)}) from None
    except RecursionError as exc:
        raise _CallFailed({"kind": "error", "type": "RecursionError", "message": _message(exc),
                           "traceback": _trace(exc)[-1500:]}) from None
    except BaseException as exc:
        raise _CallFailed({"kind": "error", "type": type(exc).__name__,
                           "message": _message(exc), "traceback": _trace(exc)}) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _usage(message: str) -> _CallFailed:
    return _CallFailed({"kind": "usage", "type": "UsageError", "message": message[:500],
                        "traceback": ""})


# ------------------------------------------------------------------------------------------
# The method server
# ------------------------------------------------------------------------------------------


def _shift_clock() -> None:
    for name in ("time", "monotonic", "perf_counter", "process_time"):
        real = getattr(time, name)
        setattr(time, name, lambda real=real: real() + CLOCK_SHIFT_S)
    for name in ("time_ns", "monotonic_ns", "perf_counter_ns"):
        real = getattr(time, name)
        setattr(time, name, lambda real=real: real() + int(CLOCK_SHIFT_S * 1e9))


def _seed_globals(seed: int) -> None:
    """InternBootcamp classes draw from the global generators: seed them (intern mode only)."""
    random.seed(seed)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        with contextlib.suppress(Exception):
            numpy.random.seed(seed % 2**32)


def _functions(owner: Any) -> list[tuple[str, Any]]:
    """The plain functions defined in a class dict (unwrapping class/static methods)."""
    found = []
    for name, value in list(vars(owner).items()):
        fn = getattr(value, "__func__", value) if type(value) in (classmethod, staticmethod) \
            else value
        if type(fn) is type(_functions):
            found.append((f"{owner.__name__}.{name}", fn))
    return found


class _Snapshot:
    """Identity of the objects the scoring path relies on, taken when the snapshot is made.

    Dicts are compared by the identity of every value in insertion order (a replaced, added,
    removed or re-added attribute changes it); functions by their code, defaults, keyword
    defaults and closure; classes by their MRO and metaclass. :meth:`intact` is the per-call
    fast path, :meth:`changes` names what changed. Both run in trusted mode (reading a
    function's ``__code__`` is refused to bootcamp code by the guard)."""

    def __init__(self, dicts: list[tuple[str, Any]], codes: list[tuple[str, Any]],
                 classes: list[Any] | None = None) -> None:
        with _trusted():
            self.dicts = [(label, d, dict(d)) for label, d in dicts]
            self.values = [(d, len(d), tuple(d.values())) for _, d, _ in self.dicts]
            self.codes = [(label, fn, fn.__code__, fn.__defaults__, fn.__kwdefaults__,
                           fn.__closure__) for label, fn in codes]
            self.classes = [(c, c.__mro__, type(c)) for c in classes or []]
            self.calls = 0

    def intact(self) -> bool:
        """Every call: dict values and class MROs by identity (no audited reads). The functions'
        code, defaults and closures every :data:`CODE_CHECK_EVERY` calls: reading ``__code__``
        is an audited event, and while the guard is armed setting it is refused (and recorded)
        anyway, so the periodic comparison is the second line, not the first."""
        for live, size, values in self.values:
            if len(live) != size or not all(map(_is, live.values(), values)):
                return False
        for c, mro, meta in self.classes:
            if c.__mro__ is not mro or type(c) is not meta:
                return False
        self.calls += 1
        if self.calls % CODE_CHECK_EVERY and _GUARD is not None:
            return True
        return self.codes_intact()

    def codes_intact(self) -> bool:
        with _trusted():
            return all(fn.__code__ is code and fn.__defaults__ is defaults
                       and fn.__kwdefaults__ is kwdefaults and fn.__closure__ is closure
                       for _, fn, code, defaults, kwdefaults, closure in self.codes)

    def changes(self) -> list[str]:
        if self.intact() and self.codes_intact():
            return []
        found: list[str] = []
        with _trusted():
            for label, live, seen in self.dicts:
                if len(live) != len(seen) or list(live) != list(seen):
                    added = sorted(set(live) - set(seen))[:5]
                    removed = sorted(set(seen) - set(live))[:5]
                    found.append(f"{label}: attributes added {added} / removed {removed}")
                    continue
                for key, value in seen.items():
                    if live.get(key, _MISSING) is not value:
                        found.append(f"{label}.{key} was replaced")
                        break
            for label, fn, code, defaults, kwdefaults, closure in self.codes:
                if (fn.__code__ is not code or fn.__defaults__ is not defaults
                        or fn.__kwdefaults__ is not kwdefaults or fn.__closure__ is not closure):
                    found.append(f"{label} had its code, defaults or closure replaced")
            for c, mro, meta in self.classes:
                if c.__mro__ is not mro or type(c) is not meta:
                    found.append(f"{c.__name__} had its bases or metaclass replaced")
        return found or ["an attribute was removed and added again"]


_MISSING = object()
#: How often (in scoring calls) the functions' code objects are compared too.
CODE_CHECK_EVERY = 64


class Server:
    """Answers questions about one bootcamp class (see the module docstring)."""

    def __init__(self, module: str, class_name: str, mode: str) -> None:
        self.module_name = module
        self.class_name = class_name
        self.mode = mode
        self.cls: Any = None
        self.base: Any = None
        self.base_verify: Any = None
        self.verify_fn: Any = None
        self.shim: Any = None
        self.snapshot: _Snapshot | None = None
        self.class_snapshot: _Snapshot | None = None
        self.instances: dict[int, Any] = {}
        self.next_handle = 1
        self.checker: Any = None
        self.handlers: dict[str, Any] = {}
        self.levels_at_load: Any = None

    # -- loading ----------------------------------------------------------------------------
    def load(self) -> dict[str, Any]:
        if self.mode == "checker":
            return self.load_checker()
        contract_dicts: list[tuple[str, Any]] = []
        codes: list[tuple[str, Any]] = []
        if self.mode == "intern":
            import intern_shim

            self.shim = intern_shim
            self.base = intern_shim.Basebootcamp
        else:
            from synth import bootcamp as contract

            self.base = contract.BaseBootcamp
            self.base_verify = self.base.__dict__["verify_score"]
            self.verify_fn = self.base_verify.__func__
            contract_dicts = [("BaseBootcamp", self.base.__dict__),
                              ("synth.bootcamp", vars(contract))]
            codes = [("BaseBootcamp.verify_score", self.base_verify.__func__)]
            extract = self.base.__dict__["extract_output"]
            codes.append(("BaseBootcamp.extract_output", extract.__func__))
        snap_before = _Snapshot(contract_dicts, codes, [self.base] if self.mode != "intern" else [])
        module = _bounded(importlib.import_module, (self.module_name,), 30.0)
        self.cls = find_bootcamp_class(module, self.base, self.class_name)
        info: dict[str, Any] = {"class": self.cls.__name__, "protocol": PROTOCOL,
                                "mode": self.mode, "module": self.module_name}
        if self.mode != "intern":
            changed = snap_before.changes()
            overrides = [k.__name__ for k in self.cls.__mro__
                         if k is not self.base and "verify_score" in vars(k)]
            if overrides:
                changed.append(f"{', '.join(overrides)} defines verify_score")
            if type(self.cls) is not type:
                changed.append(f"{self.cls.__name__} has the metaclass {type(self.cls).__name__}")
            if _GUARD is not None and _GUARD.events():
                changed += [f"blocked at import: {e}" for e in _GUARD.events()]
            info["tampered"] = changed
            own = [k for k in self.cls.__mro__ if k is not self.base and k is not object]
            class_dicts: list[tuple[str, Any]] = [(k.__name__, k.__dict__) for k in own]
            # the contract is compared with its state BEFORE the import (an import-time change
            # is reported at every call, not only in the handshake); the class with its own
            self.snapshot = snap_before
            self.class_snapshot = _Snapshot(class_dicts, [f for k in own for f in _functions(k)],
                                            [self.cls, *own])
        info["defines"] = sorted({name for k in self.cls.__mro__
                                  if k is not self.base and k is not object
                                  for name in vars(k)} & _CONTRACT_NAMES)
        levels = getattr(self.cls, "LEVELS", None) if self.mode != "intern" else None
        info["levels"] = _plain(levels)
        # a private deep copy of plain presets (JSON round trip), used by ``sample``
        self.levels_at_load = _loads(_dumps(info["levels"])) if type(info["levels"]) is dict \
            and "__not_plain__" not in info["levels"] else None
        info["yes_no"] = getattr(self.cls, "YES_NO_TASK", False) is True
        return info

    def load_checker(self) -> dict[str, Any]:
        """An independent checker: a plain module with ``check`` (and ``solve``, ``probes``)."""
        module = _bounded(importlib.import_module, (self.module_name,), 30.0)
        self.checker = module
        functions = [name for name in ("check", "solve", "probes")
                     if callable(getattr(module, name, None))]
        if "check" not in functions:
            raise LookupError("the checker module defines no check(identity, answer) function")
        return {"class": "", "checker": True, "functions": functions, "protocol": PROTOCOL,
                "mode": self.mode, "module": self.module_name}

    def _checker_fn(self, name: str) -> Any:
        fn = getattr(self.checker, name, None) if self.checker is not None else None
        if not callable(fn):
            raise _usage(f"the checker defines no {name}()")
        return fn

    # -- checker methods --------------------------------------------------------------------
    def m_check(self, p: dict[str, Any]) -> Any:
        answer = p.get("answer")
        if type(answer) is not str:
            raise _usage("answer must be a string")
        value = _bounded(self._checker_fn("check"), (_case(p), answer), float(p.get("limit", 2.0)))
        return value if type(value) is bool else {"__type__": type(value).__name__,
                                                   "repr": _safe_repr(value)}

    def m_solve(self, p: dict[str, Any]) -> Any:
        return _plain_text(_bounded(self._checker_fn("solve"), (_case(p),),
                                    float(p.get("limit", 2.0))))

    def m_probes(self, p: dict[str, Any]) -> Any:
        value = _bounded(self._checker_fn("probes"), (_case(p),), float(p.get("limit", 2.0)))
        if type(value) in (list, tuple) and all(type(x) is str for x in value):
            return list(value)[:200]
        return {"__type__": type(value).__name__, "repr": _safe_repr(value)}

    # -- helpers ----------------------------------------------------------------------------
    def _instance(self, handle: Any) -> Any:
        inst = self.instances.get(handle) if type(handle) is int else None
        if inst is None:
            raise _usage(f"no instance with handle {handle!r}")
        return inst

    def _method(self, name: str) -> Any:
        fn = getattr(self.cls, name, None)
        if fn is None:
            raise _usage(f"{self.cls.__name__} has no {name}")
        return fn

    # -- methods ----------------------------------------------------------------------------
    def m_construct(self, p: dict[str, Any]) -> int:
        params, seed, limit = p.get("params") or {}, p.get("seed"), float(p.get("limit", 10.0))
        if type(params) is not dict:
            raise _usage("params must be an object")
        if self.mode == "intern":
            if type(seed) is int:
                _seed_globals(seed)
            inst = _bounded(lambda: self.cls(**params), (), limit)
        else:
            inst = _bounded(lambda: self.cls(seed=seed, **params), (), limit)
        handle = self.next_handle
        self.next_handle += 1
        self.instances[handle] = inst
        return handle

    def m_drop(self, p: dict[str, Any]) -> bool:
        return self.instances.pop(p.get("handle", 0), None) is not None

    def m_generate(self, p: dict[str, Any]) -> dict[str, Any]:
        inst = self._instance(p.get("handle"))
        if self.mode == "intern" and type(p.get("reseed")) is int:
            _seed_globals(p["reseed"])
        case = _bounded(inst.case_generator, (), float(p.get("limit", 2.0)))
        return _encode_value(case)

    def m_prompt(self, p: dict[str, Any]) -> Any:
        return _plain_text(_bounded(self._method("prompt_func"), (_case(p),),
                                    float(p.get("limit", 2.0))))

    def m_answer(self, p: dict[str, Any]) -> Any:
        return _plain_text(_bounded(self._method("reference_answer"), (_case(p),),
                                    float(p.get("limit", 2.0))))

    def m_stdin(self, p: dict[str, Any]) -> Any:
        return _plain_text(_bounded(self._method("render_stdin"), (_case(p),),
                                    float(p.get("limit", 2.0))))

    def m_wrap(self, p: dict[str, Any]) -> Any:
        answer = p.get("answer")
        if type(answer) is not str:
            raise _usage("answer must be a string")
        return _plain_text(_bounded(self._method("wrap_answer"), (answer,),
                                    float(p.get("limit", 2.0))))

    def m_score(self, p: dict[str, Any]) -> dict[str, Any]:
        response, fmt = p.get("response"), p.get("format_score", 0.0)
        if type(response) is not str:
            raise _usage("response must be a string")
        identity = _case(p)
        limit = float(p.get("limit", 5.0))
        out: dict[str, Any] = {}
        if self.mode == "intern":
            self.shim.clear_swallowed()
            value = _bounded(self.cls.verify_score, (response, identity, fmt), limit)
            if self.shim.SWALLOWED:
                where, summary, trace = self.shim.SWALLOWED[0]
                out["swallowed"] = {"where": where, "message": summary, "traceback": trace}
        else:
            snapshot, own = self.snapshot, self.class_snapshot
            assert snapshot is not None and own is not None
            if not (snapshot.intact() and own.intact()) or (_GUARD is not None and _GUARD.blocked):
                out["tampered"] = (snapshot.changes() + own.changes()
                                   + [f"blocked: {e}" for e in (_GUARD.events() if _GUARD else [])])
            value = _bounded(self.verify_fn, (self.cls, response, identity, fmt), limit)
        out["score"] = _score_value(value)
        if p.get("check_identity") and canonical(identity) != p.get("case_text"):
            out["identity_changed"] = True
        return out

    def m_batch(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        """Several questions in one request: ``{"calls": [[method, params], ...]}`` -> one
        ``{"ok": value}`` or ``{"err": {...}}`` per call, in order. Each call keeps its own
        ``limit``; the host bounds the whole batch."""
        calls = p.get("calls")
        if type(calls) is not list:
            raise _usage("calls must be a list")
        out: list[dict[str, Any]] = []
        for item in calls:
            try:
                method, params = item
                handler = self.handlers.get(method)
                if handler is None or method == "batch" or type(params) is not dict:
                    raise _usage(f"unknown method {method!r}")
                out.append({"ok": handler(params)})
            except _CallFailed as exc:
                out.append({"err": exc.err})
                if exc.err.get("kind") in ("timeout", "oom"):
                    break  # the rest would only repeat it; the host sees the short list
            except (ValueError, TypeError, KeyError, IndexError) as exc:
                out.append({"err": {"kind": "usage", "type": type(exc).__name__,
                                    "message": _message(exc), "traceback": ""}})
        return out

    def m_sample(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        """Batch: for each (level, seed) spec, construct, generate one case, render its prompt
        (and optionally the reference answer). Used by export, the filter and review."""
        specs = p.get("specs")
        if type(specs) is not list:
            raise _usage("specs must be a list")
        # the presets as the handshake reported them (a copy taken at load): a bootcamp that
        # mutates its LEVELS later cannot change what export, the filter and review construct
        presets = self.levels_at_load if type(self.levels_at_load) is dict else {}
        limit = float(p.get("limit", 5.0))
        rows: list[dict[str, Any]] = []
        for index, spec in enumerate(specs):
            try:
                rows.append(self._sample_one(spec, presets, limit, bool(p.get("answers"))))
            except _CallFailed as exc:
                exc.err["index"] = index  # which spec failed: the host names the row
                raise
        return rows

    def _sample_one(self, spec: Any, presets: dict[str, Any], limit: float,
                    answers: bool) -> dict[str, Any]:
        level, seed = spec[0], spec[1]
        if level == "default":
            params: dict[str, Any] = {}
        elif level in presets and type(presets[level]) is dict:
            params = dict(presets[level])
        else:
            raise _usage(f"{self.cls.__name__} has no level {level!r}")
        handle = self.m_construct({"params": params, "seed": seed, "limit": limit})
        try:
            encoded = self.m_generate({"handle": handle, "limit": limit, "reseed": seed})
        finally:
            self.instances.pop(handle, None)
        row: dict[str, Any] = {"case": encoded}
        if "problem" not in encoded:
            case_text = encoded["text"]
            row["prompt"] = self.m_prompt({"case_text": case_text, "limit": limit})
            if answers:
                row["answer"] = self.m_answer({"case_text": case_text, "limit": limit})
        return row


_CONTRACT_NAMES = frozenset({
    "case_generator", "prompt_func", "reference_answer", "extract_output", "wrap_answer",
    "_verify_correction", "verify_score", "render_stdin", "LEVELS", "__init__",
})


def _case(p: dict[str, Any]) -> Any:
    if "case" in p:
        return p["case"]  # already a fresh object: the request line was just parsed
    text = p.get("case_text")
    if type(text) is not str:
        raise _usage("case_text must be a string of JSON")
    return _loads(text)


def _plain(value: Any) -> Any:
    """A JSON-safe copy of plain data, or a description when it is not plain data."""
    if json_problem(value, "value") is None:
        return value
    return {"__not_plain__": json_problem(value, "value")}


def _plain_text(value: Any) -> Any:
    if type(value) is str:
        return value
    return {"__type__": type(value).__name__, "repr": _safe_repr(value)}


def _safe_repr(value: Any) -> str:
    try:
        return str(_bounded(repr, (value,), 1.0))[:TEXT_CAP]
    except _CallFailed as exc:
        return f"<{type(value).__name__} whose repr failed: {exc.err.get('message', '')}>"


def _encode_value(case: Any) -> dict[str, Any]:
    """A generated case as canonical JSON text, or why it is not plain JSON (with a repr)."""
    problem = (f"case_generator returned a {type(case).__name__}, not a dict"
               if type(case) is not dict else json_problem(case))
    if problem is not None:
        return {"problem": problem, "repr": _safe_repr(case)}
    return {"text": canonical(case)}


def _score_value(value: Any) -> Any:
    """A score as JSON: a float (NaN and infinities as strings), or a description."""
    if type(value) is bool:
        return {"__type__": "bool", "repr": repr(value)}
    if type(value) in (int, float):
        number = float(value)
        return number if math.isfinite(number) else repr(number)
    return {"__type__": type(value).__name__, "repr": _safe_repr(value)}


class _Channel:
    """Line-oriented requests from fd 0, replies to a private duplicate of fd 1."""

    def __init__(self) -> None:
        self.out = os.dup(1)
        st = os.fstat(self.out)
        self.identity = (st.st_dev, st.st_ino)
        self.buf = bytearray()
        self.pos = 0
        self.pending: list[bytes] = []
        self.pending_bytes = 0

    def read_line(self) -> bytes | None:
        while True:
            nl = self.buf.find(b"\n", self.pos)
            if nl >= 0:
                line = bytes(self.buf[self.pos : nl])
                self.pos = nl + 1
                return line
            del self.buf[: self.pos]
            self.pos = 0
            # Nothing complete to answer: flush the replies so far -- unless more requests are
            # already waiting in the pipe (a chunk that arrived in pieces): then read them first.
            if self.pending and not select.select([0], [], [], 0)[0]:
                self.flush()
            data = os.read(0, 1 << 16)
            if not data:
                return None
            self.buf += data

    def send(self, obj: dict[str, Any]) -> None:
        try:
            line = _dumps(obj, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as exc:
            line = _dumps({"id": obj.get("id"), "err": {
                "kind": "error", "type": type(exc).__name__,
                "message": f"reply not JSON-serialisable: {_message(exc)}", "traceback": ""}})
        self.put(line.encode("utf-8", "surrogatepass") + b"\n")

    def put(self, data: bytes) -> None:
        self.pending.append(data)
        self.pending_bytes += len(data)
        if self.pending_bytes > 1 << 16:
            self.flush()

    def flush(self) -> None:
        data = b"".join(self.pending)
        self.pending.clear()
        self.pending_bytes = 0
        st = os.fstat(self.out)
        if (st.st_dev, st.st_ino) != self.identity:  # the bootcamp swapped the reply pipe
            os._exit(70)
        view = memoryview(data)
        while view:
            view = view[os.write(self.out, view) :]


def _arm_guard(here: str, module: str, mode: str) -> None:
    """Pre-import the allowlist, install the guard and arm it (before the candidate runs)."""
    global _GUARD
    for name in ALLOWED_MODULES:
        importlib.import_module(name)
    if mode == "native":
        importlib.import_module("synth.bootcamp")
    stdlib = os.path.dirname(os.path.abspath(os.__file__))
    _GUARD = _Guard([stdlib, here], strict=mode != "intern")
    _GUARD.allow_import(module, "synth", "intern_shim", "bootcamp", "internbootcamp")
    _GUARD.arm()


def serve(argv: list[str]) -> int:
    """``_synth_kit.py serve MODULE CLASS_OR_EMPTY MODE [--shift-clock] [label...]``."""
    module, class_name, mode = argv[0], argv[1], argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    chan = _Channel()
    os.dup2(2, 1)  # the bootcamp's prints go to stderr, never into the protocol
    sys.stdout = sys.stderr
    signal.signal(signal.SIGALRM, _on_alarm)
    if "--shift-clock" in argv[3:]:
        _shift_clock()
    server = Server(module, class_name, mode)
    handlers = {name[2:]: getattr(server, name) for name in dir(server) if name.startswith("m_")}
    server.handlers = handlers
    _arm_guard(here, module, mode)
    try:
        chan.send({"id": 0, "ok": server.load()})
    except _CallFailed as exc:
        chan.send({"id": 0, "err": exc.err})
        chan.flush()
        return 0
    except BaseException as exc:
        chan.send({"id": 0, "err": {"kind": "error", "type": type(exc).__name__,
                                    "message": _message(exc), "traceback": _trace(exc)}})
        chan.flush()
        return 0
    while True:
        line = chan.read_line()
        if line is None:
            chan.flush()
            return 0
        rid: Any = None
        try:
            rid, method, params = _loads(line)
            handler = handlers.get(method)
            if handler is None or type(params) is not dict:
                raise _usage(f"unknown method {method!r}")
            value = handler(params)
            if method == "score" and type(rid) is int and len(value) == 1 \
                    and type(value["score"]) is float:  # the warm pool's hot path
                chan.put(b'{"id":%d,"ok":{"score":%r}}\n' % (rid, value["score"]))
            else:
                chan.send({"id": rid, "ok": value})
        except _CallFailed as exc:
            chan.send({"id": rid, "err": exc.err})
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            chan.send({"id": rid, "err": {"kind": "usage", "type": type(exc).__name__,
                                          "message": _message(exc), "traceback": _trace(exc)}})


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
    if len(sys.argv) >= 5 and sys.argv[1] == "serve":  # MODE: native | intern | checker
        sys.exit(serve(sys.argv[2:]))
    if len(sys.argv) >= 3 and sys.argv[1] == "run-many":
        sys.exit(run_many(sys.argv[2:]))
    sys.exit(f"usage: {KIT_NAME} serve MODULE CLASS MODE [--shift-clock] | run-many PROGRAM")
