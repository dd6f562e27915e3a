"""The guard: an audit hook that keeps the bootcamp away from the server it runs in.

:func:`_hook` is installed before the candidate is imported (an audit hook cannot be listed or
removed) and armed just before the server answers. It refuses what a bootcamp never needs and
an attacker does, records every refusal, and lets the server's own audited reads through only
inside a critical section (:func:`_enter`), where it tells the server's frames from the
bootcamp's by the identity of their code objects (``_G.kit_codes``: the code of every function
in the private namespace, whichever file of the kit defines it). Code compiled or run at run
time is told apart by its caller's code object or file; the kit's own files never count as the
bootcamp's (``_G.kit_files``: the launcher and every file of the kit's folder).
"""

from __future__ import annotations

import gc
import os
import stat
import sys
from typing import Any

from .wire import _safe_str, _type_name

#: The module a probe response of the audit asks to import (``__import__(CANARY) or ...``): an
#: import of it means the audited code executed the text of a response (eval, exec). The guard
#: refuses and records it in every mode.
CANARY = "zq_synth_canary"

# -- C functions the guard calls, taken when the kit is imported (see the package docstring)
_os_lstat, _os_readlink, _os_getcwd = os.lstat, os.readlink, os.getcwd
_getframe = sys._getframe
_S_ISLNK = stat.S_ISLNK
_gc_disable, _gc_enable, _gc_isenabled = gc.disable, gc.enable, gc.isenabled
_FS_ENCODING = sys.getfilesystemencoding()

#: The guard's state, in the private namespace only (:func:`synth.sandbox.kit.setup.serve`
#: sets it there; here it stays None).
_G: Any = None


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
    ``__code__``), or by its file: the job's own modules but the kit's files and the contract."""
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
        if real.startswith(g.job) and not real.startswith(g.contract_dir) \
                and real not in g.kit_files:
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
