"""The contract's runner of reference programs: a Python program run in this process, on a
string as its standard input, and what it wrote to standard output.

A *compiled* bootcamp (:class:`synth.bootcamp.CompiledBootcamp`) embeds its task's verified
reference program; its answer key is the program's output, computed here (:func:`run_program`,
:func:`execute`) -- so the bootcamp itself writes no ``exec`` and starts no process.

This module is part of the contract. :mod:`synth.bootcamp` re-exports its public names (generated
code imports them from there, never from here); every sandbox job gets it with the contract
(:func:`synth.sandbox.methods.contract_files`), and the kit snapshots it with the contract
(:func:`synth.sandbox.kit.contract_modules`): a bootcamp that replaces one of its globals is
reported as a change of the contract, as one that replaces a global of ``synth.bootcamp``.
It must stay dependency-free (standard library only): it is imported inside the sandbox by
untrusted code.
"""

from __future__ import annotations

import _thread
import builtins
import codecs
import copy
import io
import signal
import sys
from time import monotonic as _monotonic
from types import CodeType
from typing import Any

__all__ = [
    "MAX_PROGRAM_OUTPUT",
    "MAX_RECURSION_LIMIT",
    "PROGRAM_FILENAME",
    "PROGRAM_MODULES",
    "PROGRAM_SYS_NAMES",
    "CompiledProgram",
    "ProgramError",
    "UnsupportedProgramError",
    "call_function",
    "compile_program",
    "execute",
    "run_program",
]

#: Modules a program run by :func:`run_program` may import (a subset of the static gate's
#: allowlist); ``sys`` is a stand-in that holds the program's own streams (see
#: :data:`PROGRAM_SYS_NAMES`). Any other import raises :class:`UnsupportedProgramError` when
#: the program does not catch the ``ImportError`` itself. A lint for clear errors, not a
#: boundary: the sandbox's guard watches the program as it watches the bootcamp.
PROGRAM_MODULES: frozenset[str] = frozenset({
    "__future__", "random", "math", "re", "itertools", "collections", "functools", "heapq",
    "bisect", "string", "fractions", "decimal", "json", "typing", "dataclasses", "statistics",
    "operator",
})
#: What the program's ``sys`` holds: its streams and exit, harmless limits, facts.
PROGRAM_SYS_NAMES: frozenset[str] = frozenset({
    "stdin", "stdout", "stderr", "__stdin__", "__stdout__", "__stderr__", "exit", "argv",
    "setrecursionlimit", "getrecursionlimit", "set_int_max_str_digits",
    "get_int_max_str_digits", "maxsize", "maxunicode", "float_info", "int_info", "version",
    "version_info", "hexversion", "byteorder", "platform", "implementation", "getsizeof",
    "intern", "float_repr_style",
})
#: The file name the program's line numbers refer to in a :class:`ProgramError`.
PROGRAM_FILENAME = "<reference program>"
#: Longest standard output (and error) a program may write, in characters.
MAX_PROGRAM_OUTPUT = 1_000_000
#: Deepest recursion limit a program may ask for (deeper Python recursion through C calls
#: such as ``functools.lru_cache`` would overflow the C stack of an 8 MB main thread).
MAX_RECURSION_LIMIT = 10_000
_RECURSION_MARGIN = 200  # frames of the caller below the program
_DEFAULT_RECURSION = 1000  # what a fresh interpreter gives a script
#: Compiled programs are numbered from this line on, so that a traceback tells the program's
#: frames (and their real line numbers) from the contract's and the standard library's.
_LINE_OFFSET = 100_000
_MAX_CODES = 64

# Private references taken when the contract is imported (before any bootcamp code runs).
_real_import = builtins.__import__
_real_print = builtins.print
_BUILTINS = dict(vars(builtins))
_limits_lock = _thread.allocate_lock()
_limits_state = [0, 0, 0]  # active runs, saved recursion limit, saved int digit limit


class ProgramError(RuntimeError):
    """A program run by :func:`run_program` raised, exited with a non-zero status, wrote too
    much or does not compile. ``str()`` is one line for a report; ``stderr`` is what a real
    interpreter would have written to standard error (the program's own writes, then the
    traceback, with the program's line numbers); ``stdout`` is what it printed before."""

    def __init__(self, message: str, *, stderr: str = "", stdout: str = "",
                 exit_code: int = 1) -> None:
        super().__init__(message)
        self.stderr = stderr
        self.stdout = stdout
        self.exit_code = exit_code


class UnsupportedProgramError(ProgramError):
    """The program needs what the runner does not give it: an import outside
    :data:`PROGRAM_MODULES`, a file other than its standard streams, a ``sys`` attribute
    outside :data:`PROGRAM_SYS_NAMES`. Such a task cannot be compiled; use full mode."""


class _Refusal:
    """Marks the exceptions the runner raises inside the program (it may catch them, as it
    may catch a missing module's ImportError: ``try: import numpy ...``)."""


class _RefusedImport(_Refusal, ImportError):
    pass


class _RefusedOpen(_Refusal, PermissionError):
    pass


class _RefusedAttribute(_Refusal, AttributeError):
    pass


class _TooMuchOutput(_Refusal, OSError):
    pass


class _Output:
    """A program's standard output or error: text and ``.buffer`` bytes, in write order."""

    encoding = "utf-8"
    errors = "strict"
    closed = False

    def __init__(self, what: str) -> None:
        self.what = what
        self.parts: list[str] = []
        self.size = 0
        self.buffer = _OutputBuffer(self)

    def write(self, text: str) -> int:
        if type(text) is not str:
            if not isinstance(text, str):
                raise TypeError(f"write() argument must be str, not {type(text).__name__}")
            text = str.__str__(text)
        self.size += len(text)
        if self.size > MAX_PROGRAM_OUTPUT:
            raise _TooMuchOutput(f"the program wrote more than {MAX_PROGRAM_OUTPUT:,} "
                                 f"characters to {self.what}")
        self.parts.append(text)
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True

    def readable(self) -> bool:
        return False

    def fileno(self) -> int:
        raise io.UnsupportedOperation("fileno: a compiled program's streams are in memory")

    def close(self) -> None:
        pass

    def __enter__(self) -> _Output:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def text(self) -> str:
        self.buffer.finish()
        return "".join(self.parts)


class _OutputBuffer:
    """``sys.stdout.buffer``: bytes, decoded as UTF-8 (incrementally) into the same text."""

    closed = False

    def __init__(self, owner: _Output) -> None:
        self.owner = owner
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def write(self, data: Any) -> int:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(f"a bytes-like object is required, not '{type(data).__name__}'")
        raw = bytes(data)
        text = self.decoder.decode(raw)
        if text:
            self.owner.write(text)
        return len(raw)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        pass

    def finish(self) -> None:
        text = self.decoder.decode(b"", final=True)
        if text:
            self.owner.write(text)

    def __enter__(self) -> _OutputBuffer:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


class _Input(io.StringIO):
    """``sys.stdin``: the text with universal newlines, as a real interpreter reads it, and
    ``.buffer``, the raw bytes (a separate position, as with a real buffered reader)."""

    def __init__(self, text: str) -> None:
        super().__init__(text, newline=None)
        self.raw_input = io.BytesIO(text.encode("utf-8", "surrogatepass"))

    @property
    def buffer(self) -> io.BytesIO:
        return self.raw_input

    def fileno(self) -> int:
        raise io.UnsupportedOperation("fileno: a compiled program's streams are in memory")


class _ProgramSys:
    """The ``sys`` a program sees: its own streams, exit, harmless limits and facts."""

    def __init__(self, run: _Run) -> None:
        self.stdin = self.__stdin__ = run.stdin
        self.stdout = self.__stdout__ = run.stdout
        self.stderr = self.__stderr__ = run.stderr
        self.argv = ["reference.py"]
        self.exit = _exit
        self.setrecursionlimit = run.setrecursionlimit
        self.getrecursionlimit = run.getrecursionlimit
        self.set_int_max_str_digits = sys.set_int_max_str_digits
        self.get_int_max_str_digits = sys.get_int_max_str_digits
        for name in ("maxsize", "maxunicode", "float_info", "int_info", "version",
                     "version_info", "hexversion", "byteorder", "platform", "implementation",
                     "getsizeof", "intern", "float_repr_style"):
            setattr(self, name, getattr(sys, name))

    def __getattr__(self, name: str) -> Any:
        raise _RefusedAttribute(f"sys.{name} is not available to a compiled reference program "
                                f"(its sys holds: {', '.join(sorted(PROGRAM_SYS_NAMES))})")


def _exit(code: object = None) -> None:
    raise SystemExit(code)


class _Run:
    """One execution of a program: its streams, its ``sys`` and its builtins."""

    def __init__(self, stdin: str) -> None:
        self.stdin = _Input(stdin)
        self.stdout = _Output("standard output")
        self.stderr = _Output("standard error")
        self.recursion = _DEFAULT_RECURSION
        self.sys = _ProgramSys(self)

    def setrecursionlimit(self, limit: int) -> None:
        if type(limit) is not int:
            raise TypeError("'" + type(limit).__name__ + "' object cannot be interpreted as "
                            "an integer")
        if limit < 1:
            raise ValueError("recursion limit must be greater or equal than 1")
        self.recursion = limit
        wanted = min(limit, MAX_RECURSION_LIMIT) + _RECURSION_MARGIN
        with _limits_lock:
            if wanted > sys.getrecursionlimit():
                sys.setrecursionlimit(wanted)

    def getrecursionlimit(self) -> int:
        return self.recursion

    def namespace(self) -> dict[str, Any]:
        names = dict(_BUILTINS)
        names.update(input=self.input, print=self.print, open=self.open, exit=_exit,
                     quit=_exit, __import__=self.import_)
        return {"__name__": "__main__", "__doc__": None, "__package__": None,
                "__spec__": None, "__file__": "reference.py", "__builtins__": names}

    def input(self, prompt: object = "") -> str:
        if prompt != "":
            self.print(prompt, end="")
        line = self.sys.stdin.readline()
        if not line:
            raise EOFError("EOF when reading a line")
        return line[:-1] if line[-1:] == "\n" else line

    def print(self, *args: object, sep: str | None = " ", end: str | None = "\n",
              file: Any = None, flush: bool = False) -> None:
        if file is None:
            file = self.sys.stdout
            if file is None:
                return
        if type(file) is _Output and (sep is None or type(sep) is str) and \
                (end is None or type(end) is str):
            file.write((" " if sep is None else sep).join(map(str, args))
                       + ("\n" if end is None else end))
            return
        _real_print(*args, sep=sep, end=end, file=file, flush=flush)

    def open(self, file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if type(mode) is str and "r" in mode and "+" not in mode and file in (0, "/dev/stdin"):
            return self.stdin.buffer if "b" in mode else self.stdin
        if type(mode) is str and ("w" in mode or "a" in mode) and file in (1, 2, "/dev/stdout",
                                                                             "/dev/stderr"):
            out = self.stdout if file in (1, "/dev/stdout") else self.stderr
            return out.buffer if "b" in mode else out
        raise _RefusedOpen(f"open({file!r}, {mode!r}): a compiled reference program may only "
                           "read its standard input (open(0)) and write its standard output")

    def import_(self, name: str, globals: Any = None, locals: Any = None,
                fromlist: Any = (), level: int = 0) -> Any:
        if level:
            raise _RefusedImport("relative imports are not available to a reference program")
        if name == "sys":
            return self.sys
        if type(name) is str and name.split(".")[0] in PROGRAM_MODULES:
            return _real_import(name, None, None, fromlist, 0)
        raise _RefusedImport(f"import {name}: a compiled reference program may import only sys "
                             f"and {', '.join(sorted(PROGRAM_MODULES - {'__future__'}))}",
                             name=str(name))


class CompiledProgram:
    """A program's source, its code object and its lines (for tracebacks); made by
    :func:`compile_program`."""

    __slots__ = ("code", "lines", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines = source.splitlines()
        try:
            self.code: CodeType = compile("\n" * (_LINE_OFFSET - 1) + source, PROGRAM_FILENAME,
                                          "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            line = getattr(exc, "lineno", None)
            where = f" (line {line - _LINE_OFFSET + 1})" if type(line) is int else ""
            msg = getattr(exc, "msg", None) or str(exc)
            raise ProgramError(f"the reference program does not compile: "
                               f"{type(exc).__name__}: {msg}{where}",
                               stderr=f"{type(exc).__name__}: {msg}{where}\n") from None


#: source -> compiled program, filled when a CompiledBootcamp class is created (and by
#: run_program on a new source).
_CODES: dict[str, CompiledProgram] = {}


def compile_program(source: str) -> CompiledProgram:
    """``source`` compiled (once per source: the last :data:`_MAX_CODES` are kept). Raises
    :class:`ProgramError` when it does not compile."""
    found = _CODES.get(source)
    if found is None:
        if type(source) is not str:
            raise TypeError(f"a program is a str, not {type(source).__name__}")
        found = CompiledProgram(source)
        while len(_CODES) >= _MAX_CODES:
            _CODES.pop(next(iter(_CODES)))
        _CODES[source] = found
    return found


def run_program(source: str, stdin: str) -> str:
    """Run a Python program on ``stdin`` (a string) and return what it wrote to standard output.

    The program runs in this process, compiled once per source, in a fresh ``__main__``
    namespace per call, and sees what a script run by ``python3`` sees: ``input()``,
    ``print``, ``sys.stdin`` (``read``/``readline``/iteration/``.buffer``), ``sys.stdout``
    (``write``/``.buffer``), ``open(0)``, ``sys.exit``/``exit()``/``quit()``; all of them
    in memory. ``sys.setrecursionlimit`` works up to :data:`MAX_RECURSION_LIMIT` for the
    duration of the call. Imports are limited to :data:`PROGRAM_MODULES` and ``sys``.

    Raises :class:`ProgramError` when the program raises, exits with a non-zero status or
    writes more than :data:`MAX_PROGRAM_OUTPUT` characters, :class:`UnsupportedProgramError`
    when it needs what the runner does not give; ``MemoryError`` and ``BaseException``\\ s
    other than ``SystemExit`` (a timeout, an interrupt) propagate unchanged. There is no
    timeout here: the caller bounds the call (the sandbox kit does).
    """
    if type(stdin) is not str:
        raise TypeError(f"stdin is a str, not {type(stdin).__name__}")
    return execute(compile_program(source), stdin)


def execute(program: CompiledProgram, stdin: str) -> str:
    """:func:`run_program` for a program :func:`compile_program` made."""
    run = _Run(stdin)
    namespace = run.namespace()
    status = 0
    _enter_limits()
    try:
        exec(program.code, namespace)
    except SystemExit as stop:
        status = _exit_status(stop.code, run)
    except Exception as exc:
        if isinstance(exc, MemoryError):
            raise _unchanged(exc) from None  # in the reference program: input too large?
        raise _failure(program, run, exc) from None
    except BaseException as exc:  # a timeout, an interrupt, the sandbox's guard
        raise _unchanged(exc) from None  # in the reference program: input too large?
    finally:
        _leave_limits()
    try:
        out = run.stdout.text()
    except _TooMuchOutput as exc:
        raise _failure(program, run, exc) from None
    if status:
        raise ProgramError(f"the reference program exited with status {status}"
                           + _stdin_note(stdin) + _stderr_note(run),
                           stderr=_tail(run.stderr.text()), stdout=out, exit_code=status)
    return out


class FunctionTimeout(ProgramError):
    """:func:`call_function` ran past its ``timeout_s``."""


def call_function(source: str, entry_point: str, args: list[Any], *,
                  timeout_s: float | None = None) -> Any:
    """Call the function ``entry_point`` of the program ``source`` on the positional ``args``
    and return what it returns (the interface ``function`` of a task's reference, e.g.
    HumanEval's canonical solutions).

    The source runs in a fresh namespace per call (``__name__`` is not ``"__main__"``, so a
    main block does not run), with the runner's imports, in-memory streams (what it prints is
    dropped; ``input()`` meets the end of input) and recursion limit, as :func:`run_program`
    gives them. The arguments are deep-copied first: a function that changes its arguments
    does not change the caller's case. ``timeout_s`` bounds the call with a real-time timer
    when called in the main thread with no timer running (inside the sandbox's method server
    the kit bounds every call instead).

    Raises :class:`ProgramError` when the source raises or has no such function (the message
    names the exception and the call), :class:`FunctionTimeout` past ``timeout_s``;
    ``MemoryError`` and other ``BaseException``\\ s propagate unchanged."""
    if type(entry_point) is not str or not entry_point.isidentifier():
        raise TypeError(f"an entry point is a name, not {entry_point!r}")
    if type(args) is not list:
        raise TypeError(f"the arguments are a list, not {type(args).__name__}")
    program = compile_program(source)
    run = _Run("")
    namespace = run.namespace()
    namespace["__name__"] = "reference"
    namespace["__file__"] = "reference.py"
    call = copy.deepcopy(args)
    armed = _arm(timeout_s)
    _enter_limits()
    try:
        exec(program.code, namespace)
        function = namespace.get(entry_point)
        if not callable(function):
            raise ProgramError(f"the reference program defines no function {entry_point}()")
        return function(*call)
    except ProgramError:
        raise
    except SystemExit as stop:
        raise ProgramError(f"the reference function exited (status {stop.code!r}) on "
                           f"{_call_text(entry_point, args)}") from None
    except Exception as exc:
        if isinstance(exc, MemoryError):
            raise _unchanged(exc) from None
        failure = _failure(program, run, exc)
        message = str(failure).split(" on the input ", 1)[0]
        if isinstance(failure, UnsupportedProgramError):
            raise failure from None
        raise ProgramError(f"{message.replace('reference program', 'reference function')} "
                           f"on {_call_text(entry_point, args)}", stderr=failure.stderr,
                           stdout=failure.stdout) from None
    except BaseException as exc:
        raise _unchanged(exc) from None
    finally:
        _disarm(armed)
        _leave_limits()


def _call_text(entry_point: str, args: list[Any]) -> str:
    try:
        shown = ", ".join(repr(a) for a in args)
    except Exception:
        shown = "..."
    if len(shown) > 160:
        shown = shown[:160] + "..."
    return f"the call {entry_point}({shown})"


def _on_alarm(signum: int, frame: Any) -> None:
    raise FunctionTimeout("the reference function ran past its time limit")


def _arm(timeout_s: float | None) -> Any:
    """Start a real-time timer of ``timeout_s`` (see :func:`call_function`); what to restore:
    the handler before, the outer timer's seconds left (0: none) and when it was read. An
    outer timer that ends sooner is left alone (it bounds the call already)."""
    if timeout_s is None or _thread.get_ident() != _MAIN_THREAD:
        return None
    limit = max(0.001, float(timeout_s))
    outer = signal.getitimer(signal.ITIMER_REAL)[0]
    if 0 < outer <= limit:
        return None
    before = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    return before, outer, _monotonic()


def _disarm(armed: Any) -> None:
    if armed is None:
        return
    before, outer, since = armed
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, before)
    if outer > 0:  # the outer timer goes on with the time it had left
        signal.setitimer(signal.ITIMER_REAL, max(0.001, outer - (_monotonic() - since)))


_MAIN_THREAD = _thread.get_ident()


def _enter_limits() -> None:
    with _limits_lock:
        state = _limits_state
        if state[0] == 0:
            state[1] = sys.getrecursionlimit()
            state[2] = sys.get_int_max_str_digits()
            wanted = _DEFAULT_RECURSION + _RECURSION_MARGIN
            if wanted > state[1]:
                sys.setrecursionlimit(wanted)
        state[0] += 1


def _leave_limits() -> None:
    with _limits_lock:
        state = _limits_state
        state[0] -= 1
        if state[0] == 0:
            sys.setrecursionlimit(state[1])
            sys.set_int_max_str_digits(state[2])


def _exit_status(code: object, run: _Run) -> int:
    if code is None:
        return 0
    if type(code) is int or type(code) is bool:
        return int(code)
    try:
        text = f"{code}\n"  # sys.exit("message"): the message goes to stderr, the status is 1
    except Exception:
        text = "<unprintable exit value>\n"
    run.stderr.parts.append(text[:2000])
    return 1


def _exception_line(exc: BaseException) -> str:
    kind = type(exc)
    name = kind.__qualname__
    if kind.__module__ not in ("builtins", "__main__"):
        name = f"{kind.__module__}.{name}"
    try:
        text = str(exc)
    except Exception:
        text = "<exception str() failed>"
    return f"{name}: {text}"[:2000] if text else name


def _program_frames(exc: BaseException) -> list[int]:
    """The program's line numbers in ``exc``'s traceback, outermost first (its frames are the
    ones numbered from :data:`_LINE_OFFSET` on; reading ``tb_lineno`` is not audited)."""
    frames: list[int] = []
    tb = exc.__traceback__
    while tb is not None:
        line = tb.tb_lineno
        if type(line) is int and line >= _LINE_OFFSET:
            frames.append(line - _LINE_OFFSET + 1)
        tb = tb.tb_next
    return frames


def _unchanged(exc: BaseException) -> BaseException:
    """``exc`` (a MemoryError, a timeout, an interrupt) re-raised as it is, but without the
    program's frames, whose offset line numbers would only confuse a report; a note says where
    in the program it was."""
    frames = _program_frames(exc)
    if frames:
        exc.add_note(f"(in the reference program, line {frames[-1]})")
    return exc.with_traceback(None)


def _failure(program: CompiledProgram, run: _Run, exc: Exception) -> ProgramError:
    """The ProgramError for an exception that left the program, with a traceback of the
    program's own frames (told apart by their line numbers: see :data:`_LINE_OFFSET`)."""
    frames = _program_frames(exc)
    shown = frames[-12:]
    trace = ["Traceback (most recent call last):"]
    if len(frames) > len(shown):
        trace.append(f"  [... {len(frames) - len(shown)} earlier frames ...]")
    for line in shown:
        trace.append(f'  File "{PROGRAM_FILENAME}", line {line}')
        if 1 <= line <= len(program.lines) and program.lines[line - 1].strip():
            trace.append(f"    {program.lines[line - 1].strip()}")
    trace.append(_exception_line(exc))
    try:
        own = run.stderr.text()
    except _TooMuchOutput:
        own = "".join(run.stderr.parts)
    stderr = _tail(own + "\n".join(trace) + "\n")
    try:
        stdout = "".join(run.stdout.parts)
    except Exception:
        stdout = ""
    where = ""
    if frames:
        line = frames[-1]
        code = program.lines[line - 1].strip() if 1 <= line <= len(program.lines) else ""
        where = f" at line {line}" + (f" ({code[:80]})" if code else "")
    stdin = run.stdin.getvalue()
    if isinstance(exc, _Refusal):
        return UnsupportedProgramError(f"the reference program cannot run compiled: "
                                       f"{str(exc)[:300]}{where}", stderr=stderr, stdout=stdout)
    return ProgramError(f"the reference program raised {_exception_line(exc)[:200]}{where}"
                        + _stdin_note(stdin), stderr=stderr, stdout=stdout)


def _stdin_note(stdin: str) -> str:
    head = stdin[:120] + ("..." if len(stdin) > 120 else "")
    return f" on the input {head!r} (is it in the problem's format and within its limits?)"


def _stderr_note(run: _Run) -> str:
    text = "".join(run.stderr.parts).strip()
    return f"; it wrote to stderr: {text[-120:]!r}" if text else ""


def _tail(text: str, cap: int = 3000) -> str:
    return text if len(text) <= cap else "..." + text[-cap:]
