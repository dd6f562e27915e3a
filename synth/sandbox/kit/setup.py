"""Setting the server up, before the candidate is imported: :func:`serve`.

In order: the reply channel and the session's token; the modules a bootcamp may import and the
contract; the private namespace (:func:`_private_namespace`: copies of the functions of every
module of the kit, bound to one new dict) with the server's and the guard's state; the contract
snapshot; then the guard is installed, the kit's modules are taken out of ``sys.modules`` and
emptied, and the server runs from the private namespace until stdin closes.
"""

from __future__ import annotations

import ast
import builtins
import collections
import dataclasses
import importlib
import os
import signal
import sys
import time
import types
import typing
from typing import Any

from .guard import ALLOWED_MODULES, _realpath
from .server import _CONTRACT_NAMES, _HANDLERS, _RUNTIME
from .snapshot import (
    _codes_of,
    _contract_reads,
    _contract_snapshot,
    _names_in,
    contract_modules,
)
from .wire import (
    AUTH_OPEN,
    CLOCK_SHIFT_S,
    KIT_NAME,
    REPLY_OPEN,
    TOKEN_BYTES,
    canonical,
    json_problem,
    loads,
)


def _nested_codes(code: Any) -> list[Any]:
    found = [code]
    for const in code.co_consts:
        if type(const) is types.CodeType:
            found += _nested_codes(const)
    return found


def _private_namespace(scopes: tuple[dict[str, Any], ...], entries: tuple[str, ...],
                       builtins_copy: dict[str, Any]) -> dict[str, Any]:
    """The server's private namespace: copies of the functions ``entries`` lead to (through
    the names their code refers to) in the kit's modules (``scopes``: their dicts), bound to
    ONE new globals dict that holds them, the constants and C functions they use, and
    ``builtins_copy``. A name means one thing across the kit (a module that imports a name
    from another holds the same object); a name two modules bind to different objects is
    refused. No module goes in: the server calls nothing a bootcamp could patch
    (``tests/sandbox/test_kit.py`` checks every global name the copies read)."""
    env: dict[str, Any] = {"__builtins__": builtins_copy, "__name__": "_synth_kit_server"}
    todo = list(entries)
    while todo:
        name = todo.pop()
        found = [scope[name] for scope in scopes if name in scope]
        if name in env or not found:
            continue
        value = found[0]
        if any(other is not value for other in found):
            raise RuntimeError(f"the kit's modules bind {name!r} to different objects")
        if type(value) is types.ModuleType:
            continue
        if type(value) is types.FunctionType and any(value.__globals__ is s for s in scopes):
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


def _shift_clock() -> None:
    def shifted(real: Any, shift: Any) -> Any:
        return lambda: real() + shift

    for name in ("time", "monotonic", "perf_counter", "process_time"):
        setattr(time, name, shifted(getattr(time, name), CLOCK_SHIFT_S))
    for name in ("time_ns", "monotonic_ns", "perf_counter_ns"):
        setattr(time, name, shifted(getattr(time, name), int(CLOCK_SHIFT_S * 1e9)))


def shift_heap() -> list[Any]:
    """Objects of random sizes and counts, for the caller to keep alive: what the bootcamp then
    allocates lands at other addresses than in an unshifted process, so ``id()`` of a fresh
    object (or anything drawn from an address) differs between the determinism check's two
    processes even where the system repeats the address layout (ASLR off, or an offset that
    is a multiple of what the bootcamp reduces the address by)."""
    draw = os.urandom(1100)
    ballast: list[Any] = [bytes(b * 2) for b in draw[:1024]]  # every small-object size class
    ballast += [object() for _ in range(draw[1024])]
    ballast += [bytearray(1 + draw[1025 + k] * 1024) for k in range(8)]  # the malloc heap
    return ballast


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


def _kit_modules() -> list[types.ModuleType]:
    """Every module of the kit: each ``.py`` file of its folder, imported (the package's
    ``__init__`` has imported them all already). The server's functions may come from any of
    them, and each is emptied before the bootcamp is imported: a file added to the folder is
    covered without a list to keep (as it is shipped without one: ``methods.kit_files``)."""
    package = __name__.rpartition(".")[0]
    folder = os.path.dirname(os.path.abspath(__file__))
    names = sorted(name[:-3] for name in os.listdir(folder) if name.endswith(".py"))
    return [importlib.import_module(package if name == "__init__" else f"{package}.{name}")
            for name in names]


def serve(argv: list[str], guard: bool = True) -> int:
    """``_synth_kit.py serve MODULE CLASS_OR_EMPTY MODE [--shift-clock] [label...]``: answer
    questions about one module until stdin closes, then exit the process (this never returns:
    by then the kit's modules are empty). ``guard=False`` (tests only: the defence-in-depth
    tests) leaves the audit hook out and the modules as they are."""
    module, class_name, mode = argv[0], argv[1], argv[2]
    kit = _kit_modules()
    # the job's folder: the launcher, the kit's folder, the contract and the module
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if here not in sys.path:
        sys.path.insert(0, here)
    # 1. the reply channel and the session's token, before anything of the bootcamp runs
    out = os.dup(1)
    token = os.urandom(TOKEN_BYTES).hex().encode("ascii")
    _write_all(out, AUTH_OPEN + token + b'"}\n')
    os.dup2(2, 1)  # the bootcamp's prints go to stderr, never into the protocol
    sys.stdout = sys.stderr
    signal.signal(signal.SIGALRM, signal.default_int_handler)
    ballast = None  # held by this frame, which lives as long as the session
    if "--shift-clock" in argv[3:]:
        _shift_clock()
        ballast = shift_heap()  # noqa: F841 (kept alive, not read)
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
    env = _private_namespace(tuple(vars(m) for m in kit), _RUNTIME, builtins_copy)
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
        set_by=_setters(), stdlib=stdlib + "/", job=_realpath(here) + "/",
        contract_dir=_realpath(here) + "/synth/",
        kit_files=frozenset(_realpath(os.path.abspath(path)) for path in [
            os.path.join(here, KIT_NAME), *(m.__file__ for m in kit if m.__file__)]))
    env["_S"] = s = types.SimpleNamespace(
        mode=mode, module_name=module, class_name=class_name, out=out, out_id=_identity(out),
        in_id=_identity(0), token=token, prefix=REPLY_OPEN + token + b'",', buf=bytearray(),
        pos=0, pending=[], pending_bytes=0, handlers={}, instances={}, next_handle=1, cls=None,
        base=None, multi=None, verify=None, shim=shim, checker=None, contract_snap=None, class_snap=None,
        levels_at_load=None, stress_at_load=None, sources={}, contract_names=_CONTRACT_NAMES, contract_reads={},
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
    # 4. out of the bootcamp's reach: the guard, the modules that lead back here -- every
    # module of the kit and ``__main__`` (the launcher, which holds the kit's ``main``) -- and
    # their dicts, this one's included
    if guard:
        sys.addaudithook(env["_hook"])
        sys.modules["signal"] = _signal_facade()
        sys.modules.pop("_signal", None)
    sys.modules.pop("gc", None)
    gone = [*kit, sys.modules["__main__"]]
    for name, value in list(sys.modules.items()):
        if any([value is m for m in gone]):  # an inert module in its place
            sys.modules[name] = types.ModuleType(name)
    for scope in [vars(m) for m in gone]:
        scope.clear()
    g.armed = guard
    main()
    return 0  # not reached: _main() exits
