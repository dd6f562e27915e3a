"""The in-sandbox side of the program runner pool (:mod:`synth.sandbox.program_pool`): one
untrusted program -- a model's answer to a code task -- run on the tests the host sends, one
test at a time, each run a process of its own forked from this warm interpreter.

Standard library only (plus ``synth/values.py``, shipped beside it, for a function task's
arguments and return value). The host never imports this file except to read its source (and
in tests); it is the job's ``argv[0]``, ``program_runner.py``.

Protocol: one JSON object per line, both ways::

    runner -> host   {"hello": PROTOCOL, "dumpable": false, "subreaper": true}
    host -> runner   {"op": "program", "kind": "stdin" | "function", "source": TEXT,
                      "entry_point": NAME | null, "memory_mb": INT, "time_limit_s": FLOAT,
                      "wall_limit_s": FLOAT}
    runner -> host   {"loaded": true}
    host -> runner   {"op": "test", "stdin": TEXT, "max_output": INT}        (stdin kind)
                     {"op": "test", "args": JSON, "max_output": INT}         (function kind)
    runner -> host   {"status": "exited" | "timeout" | "overflow", "code": INT | null,
                      "stdout": TEXT, "stderr": TAIL, "result": TEXT | null,
                      "elapsed_s": FLOAT, "cpu_s": FLOAT, "left": INT, "clean": BOOL}

What a run sees is what a fresh ``python -s -S -B solution.py`` would (the job's environment,
real descriptors 0, 1 and 2 on pipes, ``__name__ == "__main__"``, ``sys.argv ==
["solution.py"]``, fresh globals, its non-daemon threads joined and its ``atexit`` handlers run
before it ends, the exit status of ``sys.exit`` or 1 with a traceback), under the test's limits:
``RLIMIT_AS`` of ``memory_mb``, ``RLIMIT_CPU`` of the time limit rounded up + 1 s (SIGXCPU; +1 s
more, SIGKILL), no core files, and a wall-clock deadline of ``wall_limit_s`` (then its process
group and every descendant are killed: ``timeout``). ``cpu_s`` is the run's CPU time (user +
system, from ``wait4``: its own and that of the children it waited for); the host compares it
with ``time_limit_s``. A run killed at the CPU limit (SIGXCPU, or SIGKILL past it) is a
``timeout`` too. Its standard output beyond ``max_output`` bytes kills it too
(``overflow``). A function task's run defines the program as the module ``solution`` (not
``__main__``), calls ``entry_point(*args)`` and writes the return value, encoded by
:func:`synth.values.encode`, as JSON on descriptor 3 (``result``); exit status 3 when the value
is not one a function task can carry.

What the runner keeps from the program (the program runs as the runner's uid):

* it is not dumpable (``PR_SET_DUMPABLE`` 0), so a run cannot open ``/proc/<runner>/fd/*``
  (the reply pipe), read its memory or ptrace it (a run itself is dumpable again, as a fresh
  interpreter is: what its memory holds is its own input and program);
* it is a child subreaper (``PR_SET_CHILD_SUBREAPER``), so whatever a run starts -- a daemon
  that called ``setsid``, a fork bomb -- stays below the runner; when the run's main process
  ends (or its deadline passes) the runner kills its process group and then every descendant
  until none is left (``left``: how many it killed; ``clean`` False if some outlived 2 s);
* the host sends a test only after the reply to the previous one: when a run is forked, the
  runner's memory holds that test's input only, and never an expected output (the host judges).

A run may still kill the runner (same uid): the host then sees the session end, fails that
test and starts a fresh runner for the rest. The runner serves one program: the host discards
the whole sandbox afterwards.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import resource
import select
import signal
import sys
import time
from typing import Any

from synth.values import ValueProblem, decode, encode

PROTOCOL = "synth-program-runner/1"
PROGRAM = "solution.py"
PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER = 4, 36
STDERR_TAIL = 4000
KILL_WAIT_S = 2.0
MB = 1024 * 1024


_libc: Any = None


def _prctl(option: int, value: int) -> bool:
    global _libc
    try:
        if _libc is None:
            import ctypes

            _libc = ctypes.CDLL(None, use_errno=True)
        return bool(_libc.prctl(option, value, 0, 0, 0) == 0)
    except Exception:
        return False


def _reply(data: dict[str, Any]) -> None:
    line = (json.dumps(data, ensure_ascii=True) + "\n").encode("ascii")
    view = memoryview(line)
    while view:
        view = view[os.write(1, view) :]


def _exit_status(value: Any) -> int:
    if value is None:
        return 0
    if type(value) is int:
        return value & 0xFF
    with contextlib.suppress(Exception):
        sys.stderr.write(f"{value}\n")
    return 1


# -- the forked run ---------------------------------------------------------------------------


def _child(program: dict[str, Any], test: dict[str, Any], fds: tuple[int, int, int, int]) -> None:
    """Become one run of the program (its input arrives on fd 0); never returns."""
    status = 70
    try:
        import atexit
        import io
        import threading
        import traceback
        import types

        os.setpgid(0, 0)
        _prctl(PR_SET_DUMPABLE, 1)  # as a fresh interpreter is (the runner stays hidden)
        for target, fd in enumerate(fds):
            if fd >= 0:
                os.dup2(fd, target)
        os.closerange(4 if fds[3] >= 0 else 3, 1 << 16)
        limit = program["memory_mb"] * MB
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        cpu = math.ceil(program["time_limit_s"]) + 1  # SIGXCPU; SIGKILL a second later
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        function = program["kind"] == "function"
        args: list[Any] = decode(test["args"]) if function else []
        del test

        def stream(fd: int, mode: str, **how: Any) -> Any:
            raw = io.FileIO(fd, mode, closefd=False)
            buffered = io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
            return io.TextIOWrapper(buffered, encoding="utf-8", newline="\n", **how)

        streams = {"stdin": stream(0, "r"), "stdout": stream(1, "w"),
                   "stderr": stream(2, "w", errors="backslashreplace", line_buffering=True)}
        for name, value in streams.items():
            setattr(sys, name, value)
            setattr(sys, f"__{name}__", value)
        sys.argv = [PROGRAM]
        module = types.ModuleType("solution" if function else "__main__")
        module.__file__ = os.path.abspath(PROGRAM)
        sys.modules[module.__name__] = module
        source = program["source"]
        del program
        status = 0
        try:
            code = compile(source, PROGRAM, "exec", dont_inherit=True)
            del source
            exec(code, module.__dict__)
            if function:
                fn = module.__dict__.get(entry)
                if not callable(fn):
                    raise NameError(f"the program defines no function {entry}()")
                value = fn(*args)
                try:
                    text = json.dumps(encode(value), ensure_ascii=True, allow_nan=False)
                except (ValueProblem, ValueError, TypeError, RecursionError) as exc:
                    sys.stderr.write(f"the return value: {str(exc)[:500]}\n")
                    status = 3
                else:
                    data = memoryview(text.encode("ascii"))
                    while data:
                        data = data[os.write(3, data) :]
                    os.close(3)
        except SystemExit as exc:
            status = status or _exit_status(exc.code)
        except BaseException as exc:  # the program's own error: its traceback, status 1
            tb = exc.__traceback__
            while tb is not None and tb.tb_frame.f_code.co_filename != PROGRAM:
                tb = tb.tb_next
            traceback.print_exception(type(exc), exc, tb)
            status = 1
        try:  # the interpreter's shutdown: non-daemon threads joined, then atexit handlers
            main = threading.main_thread()
            for thread in threading.enumerate():
                if thread is not main and not thread.daemon:
                    thread.join()
            atexit._run_exitfuncs()
        except BaseException:
            status = status or 1
        for out in (sys.stdout, sys.stderr):
            try:
                out.flush()
            except Exception:
                status = status or 120
    finally:
        os._exit(status)


entry = ""  # the function task's entry point (set by "program"; read by the forked run)


# -- the runner's side of one run ---------------------------------------------------------------


def _children() -> list[int]:
    """Our live children (orphans of a run included: we are its subreaper)."""
    me = os.getpid()
    try:
        with open(f"/proc/{me}/task/{me}/children", encoding="ascii") as fh:
            return [int(p) for p in fh.read().split()]
    except (OSError, ValueError):
        pass
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as fh:
                fields = fh.read().rsplit(")", 1)[-1].split()
        except OSError:
            continue
        if len(fields) > 1 and int(fields[1]) == me and fields[0] not in ("Z", "X"):
            found.append(int(name))
    return found


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _kill_everything(pgid: int) -> tuple[int, bool]:
    """Kill the run's process group, then every descendant (they come back to us as orphans)
    until none is left; (how many were killed besides the main process, clean)."""
    with contextlib.suppress(OSError):
        os.killpg(pgid, signal.SIGKILL)
    killed: set[int] = set()
    deadline = time.monotonic() + KILL_WAIT_S
    while True:
        _reap()
        kids = _children()
        if not kids:
            killed.discard(pgid)
            return len(killed), True
        if time.monotonic() > deadline:
            return len(killed), False
        for pid in kids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except OSError:
                pass
        time.sleep(0.0005)


def _run(program: dict[str, Any], test: dict[str, Any]) -> dict[str, Any]:
    function = program["kind"] == "function"
    cap = int(test["max_output"])
    stdin_data = b"" if function else str(test["stdin"]).encode("utf-8")
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    res_r, res_w = os.pipe() if function else (-1, -1)
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(program, test, (in_r, out_w, err_w, res_w))
    for fd in (in_r, out_w, err_w, res_w):
        if fd >= 0:
            os.close(fd)
    deadline = start + float(program["wall_limit_s"])
    cpu_cap = math.ceil(program["time_limit_s"]) + 1  # the run's RLIMIT_CPU (soft)
    try:
        pidfd: int | None = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    sinks = {out_r: bytearray(), err_r: bytearray()}  # what each pipe brought
    if res_r >= 0:
        sinks[res_r] = bytearray()
    reading = set(sinks)  # the pipes still open
    view = memoryview(stdin_data)
    writing: int | None = in_w
    if not view:
        os.close(in_w)
        writing = None
    else:
        os.set_blocking(in_w, False)
    status, code, cpu = "exited", None, 0.0
    ended = False
    while not ended:
        now = time.monotonic()
        if now >= deadline:
            status = "timeout"
            break
        readers = list(reading)
        if pidfd is not None:
            readers.append(pidfd)
        wait = deadline - now if pidfd is not None else min(deadline - now, 0.005)
        ready_r, ready_w, _ = select.select(readers, [writing] if writing is not None else [],
                                            [], wait)
        if writing is not None and ready_w:
            try:
                view = view[os.write(writing, view[: 1 << 16]) :]
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:  # the run closed its stdin: the rest is not read
                view = view[len(view) :]
            if not view:
                os.close(writing)
                writing = None
        for fd in ready_r:
            if fd == pidfd:
                ended = True
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                os.close(fd)
                reading.discard(fd)
                continue
            sink = sinks[fd]
            sink += chunk
            if fd == err_r and len(sink) > 2 * STDERR_TAIL:
                del sink[: len(sink) - STDERR_TAIL]
            elif fd != err_r and len(sink) > cap:
                status = "overflow"
                ended = True
        if pidfd is None and not ended:
            done, raw, usage = os.wait4(pid, os.WNOHANG)
            if done:
                ended, code = True, os.waitstatus_to_exitcode(raw)
                cpu = usage.ru_utime + usage.ru_stime
    elapsed = time.monotonic() - start
    if status == "exited" and code is None:
        # the main process ended: collect its status, then kill what it left behind
        try:
            _, raw, usage = os.wait4(pid, 0)
            code = os.waitstatus_to_exitcode(raw)
            cpu = usage.ru_utime + usage.ru_stime
        except ChildProcessError:
            code = None
    left, clean = _kill_everything(pid)
    if writing is not None:
        os.close(writing)
    if pidfd is not None:
        os.close(pidfd)
    # what is still in the pipes (every writer is dead now, or the pipes are abandoned)
    drain_until = time.monotonic() + 0.5
    while reading and time.monotonic() < drain_until:
        ready, _, _ = select.select(list(reading), [], [], max(0.0, drain_until - time.monotonic()))
        for fd in ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                os.close(fd)
                reading.discard(fd)
            elif len(sinks[fd]) <= 2 * cap + 2 * STDERR_TAIL:
                sinks[fd] += chunk
    for fd in reading:
        os.close(fd)
    out = bytes(sinks[out_r])
    err = bytes(sinks[err_r])
    res = bytes(sinks[res_r]) if res_r >= 0 else b""
    if status == "exited" and max(len(out), len(res)) > cap:
        status = "overflow"
    if status == "exited" and code is not None and (
            code == -signal.SIGXCPU or (code == -signal.SIGKILL and cpu >= cpu_cap)):
        status = "timeout"  # killed at the CPU limit (RLIMIT_CPU: SIGXCPU, then SIGKILL)
    if status != "exited":
        code = None
    return {"status": status, "code": code,
            "stdout": out[: cap + 1].decode("utf-8", "replace"),
            "stderr": err[-STDERR_TAIL:].decode("utf-8", "replace"),
            "result": res.decode("utf-8", "replace") if function and status == "exited" else None,
            "elapsed_s": round(elapsed, 4), "cpu_s": round(cpu, 4), "left": left,
            "clean": clean}


def _lines() -> Any:
    buf = bytearray()
    while True:
        nl = buf.find(b"\n")
        if nl >= 0:
            line = bytes(buf[:nl])
            del buf[: nl + 1]
            yield line
            continue
        chunk = os.read(0, 1 << 16)
        if not chunk:
            return
        buf += chunk


def main() -> int:
    global entry
    protect = {"dumpable": not _prctl(PR_SET_DUMPABLE, 0),
               "subreaper": _prctl(PR_SET_CHILD_SUBREAPER, 1)}
    import atexit  # noqa: F401 -- what every run needs, imported once before the first fork
    import io  # noqa: F401
    import threading  # noqa: F401
    import traceback  # noqa: F401
    import types  # noqa: F401

    _reply({"hello": PROTOCOL, **protect})
    program: dict[str, Any] | None = None
    for line in _lines():
        request = json.loads(line)
        op = request.get("op")
        if op == "program" and program is None:
            program = request
            entry = str(request.get("entry_point") or "")
            with open(PROGRAM, "w", encoding="utf-8", errors="replace") as fh:  # for the tracebacks' lines
                fh.write(request["source"])
            _reply({"loaded": True})
        elif op == "test" and program is not None:
            _reply(_run(program, request))
        else:
            _reply({"error": f"unexpected request {str(op)[:40]}"})
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
