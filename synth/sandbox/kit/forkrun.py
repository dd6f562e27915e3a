"""``run-many``: a standalone stdin -> stdout program run once per input, each run a process of
its own forked from this warm interpreter (no interpreter start per input).

A run sees what a fresh ``python -s -S -B PROGRAM`` would: real file descriptors 0, 1 and 2
(``open(0)``, ``os.read(0, ...)`` and ``sys.stdin.buffer`` work), ``__name__ == "__main__"``,
``sys.argv == [PROGRAM]``, fresh globals (this process never runs the program itself), its
non-daemon threads joined before it ends, the exit status of ``sys.exit`` or 1 with a traceback
on an uncaught exception. Before the program starts, the child drops the other inputs and the
outputs collected so far. At most :data:`PARALLEL` runs at a time, each with its own timeout
(then its process group is killed: ``code`` None).
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time
from typing import Any

from .wire import TRACE_CAP

#: How many runs at once.
PARALLEL = 4


def _kill(pid: int, group: bool) -> None:
    try:
        os.kill(-pid if group else pid, signal.SIGKILL)
    except OSError:
        return


def _exit_status(value: Any) -> int:
    """What the interpreter's exit status would be for ``SystemExit(value)``."""
    if value is None:
        return 0
    if type(value) is int:
        return value & 0xFF
    try:
        sys.stderr.write(f"{value}\n")
    except Exception:
        return 1
    return 1


#: The job's folder (the program's, and the working directory of every run).
_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _child(program: str, fds: tuple[int, int, int], keep: list[Any]) -> None:
    """In the forked child: become a fresh run of ``program`` (its input arrives on fd 0);
    never returns."""
    status = 70
    try:
        # (imported by run_many before the first fork, with the pkgutil that runpy.run_path
        # imports: these cost nothing here)
        import io
        import runpy
        import threading
        import traceback

        for item in keep:  # what the parent holds of other inputs and outputs
            item.clear()
        os.setpgid(0, 0)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        os.closerange(3, 1 << 16)
        os.chdir(_HERE)
        for name in [k for k in os.environ if k.startswith("PYTHON")]:
            del os.environ[name]
        os.environ.update(PYTHONIOENCODING="utf-8", PYTHONDONTWRITEBYTECODE="1")
        # the interpreter's own streams stay referenced: freeing them would close fds 0-2
        old = (sys.stdin, sys.stdout, sys.stderr, sys.__stdin__, sys.__stdout__, sys.__stderr__)

        def stream(fd: int, mode: str, **how: Any) -> Any:
            raw = io.FileIO(fd, mode, closefd=False)
            buffered = io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
            return io.TextIOWrapper(buffered, encoding="utf-8", newline="\n", **how)

        # as a fresh interpreter has them on pipes (PYTHONIOENCODING=utf-8; stderr line-buffered)
        streams = {"stdin": stream(0, "r"), "stdout": stream(1, "w"),
                   "stderr": stream(2, "w", errors="backslashreplace", line_buffering=True)}
        for name, value in streams.items():
            setattr(sys, name, value)
            setattr(sys, f"__{name}__", value)
        sys.argv = [program]
        status = 0
        try:
            runpy.run_path(program, run_name="__main__")
            main = threading.main_thread()
            for thread in threading.enumerate():
                if thread is not main and not thread.daemon:
                    thread.join()
        except SystemExit as exc:
            status = _exit_status(exc.code)
        except BaseException as exc:  # the program's own error: its traceback, status 1
            tb = exc.__traceback__
            while tb is not None and tb.tb_frame.f_code.co_filename != program:
                tb = tb.tb_next
            traceback.print_exception(type(exc), exc, tb)
            status = 1
        for out in (sys.stdout, sys.stderr):
            try:
                out.flush()
            except Exception:
                status = status or 120
        del old
    finally:
        os._exit(status)


def _start(program: str, text: str, timeout: float, keep: list[Any]) -> dict[str, Any]:
    """Fork one run of ``program`` on ``text``: a dict of its pipes (``stdin``: None once
    closed; ``open``: output fd -> "out" | "err"), what it wrote so far and its deadline (the
    kit defines no class with methods: a plain dict is the run's record)."""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        _child(program, (in_r, out_w, err_w), keep)
    for fd in (in_r, out_w, err_w):
        os.close(fd)
    try:  # readable when the process has ended (Linux 5.3+); else it is polled
        pidfd: int | None = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    os.set_blocking(in_w, False)
    return {"pid": pid, "stdin": in_w, "open": {out_r: "out", err_r: "err"},
            "data": memoryview(text.encode("utf-8")), "out": bytearray(), "err": bytearray(),
            "deadline": time.monotonic() + timeout, "code": None, "timed_out": False,
            "reaped": False, "pidfd": pidfd, "started": time.monotonic(), "wall_s": None,
            "cpu_s": None}


def _close_stdin(run: dict[str, Any]) -> None:
    if run["stdin"] is not None:
        os.close(run["stdin"])
        run["stdin"] = None


def _pump(runs: list[dict[str, Any]], cap: int) -> None:
    """Feed, drain and time every run until each has ended (or was killed at its deadline)."""
    while True:
        for run in runs:
            if not run["reaped"] and not run["open"]:  # its output is closed: has it ended?
                pid, status, usage = os.wait4(run["pid"], os.WNOHANG)
                if pid:
                    run["reaped"] = True
                    run["code"] = None if run["timed_out"] else os.waitstatus_to_exitcode(status)
                    run["wall_s"] = time.monotonic() - run["started"]
                    run["cpu_s"] = usage.ru_utime + usage.ru_stime
                    _close_stdin(run)
        live = [r for r in runs if r["open"] or not r["reaped"]]
        if not live:
            break
        now = time.monotonic()
        for run in live:
            if run["timed_out"] and now > run["deadline"] + 2.0:  # a process out of its group
                for fd in list(run["open"]):  # still holds the pipes: they are not read further
                    os.close(fd)
                    del run["open"][fd]
            if now >= run["deadline"] and not run["timed_out"]:
                run["timed_out"] = True
                _kill(run["pid"], group=True)
                _kill(run["pid"], group=False)
        readers = {fd: run for run in live for fd in run["open"]}
        writers = {run["stdin"]: run for run in live if run["stdin"] is not None}
        wait = max(0.0, min((r["deadline"] for r in live if not r["timed_out"]), default=now + 0.05)
                   - now)
        # a run whose output has ended: its pidfd says when it has ended too (else: polled)
        exits = {r["pidfd"]: r for r in live if not r["open"] and r["pidfd"] is not None}
        polling = any(not r["open"] and r["pidfd"] is None for r in live)
        ready_r, ready_w, _ = select.select([*readers, *exits], list(writers), [],
                                            min(wait, 0.005 if polling else 1.0))
        ready_r = [fd for fd in ready_r if fd in readers]
        for fd in ready_w:
            run = writers[fd]
            try:
                sent = os.write(fd, run["data"][:1 << 16])
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:  # the program closed its stdin (or ended): the rest is not read
                _close_stdin(run)
                continue
            run["data"] = run["data"][sent:]
            if not run["data"]:
                _close_stdin(run)
        for fd in ready_r:
            run = readers[fd]
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                os.close(fd)
                del run["open"][fd]
                continue
            if run["open"][fd] == "out":
                if len(run["out"]) < cap:
                    run["out"] += chunk[: cap - len(run["out"])]
            else:
                run["err"] += chunk
                if len(run["err"]) > 2 * TRACE_CAP:
                    del run["err"][: len(run["err"]) - TRACE_CAP]
    for run in runs:
        if run["pidfd"] is not None:
            os.close(run["pidfd"])
        _kill(run["pid"], group=True)  # what the program left behind in its group


def run_many(argv: list[str]) -> int:
    """``_synth_kit.py run-many PROGRAM``: stdin is ``{"inputs": [str, ...], "timeout": s,
    "max_output": n}``; runs PROGRAM once per input (forked, up to :data:`PARALLEL` at a time)
    and writes ONE JSON line: a list of ``{"stdout", "stderr", "code", "wall_s", "cpu_s"}``
    (``code`` None on a timeout, negative for a signal; ``wall_s`` from the fork to the reaping,
    ``cpu_s`` the run's user + system CPU seconds from ``wait4``)."""
    import io  # noqa: F401 -- what every run needs, imported once before the first fork
    import pkgutil  # noqa: F401 -- runpy.run_path imports it in every run otherwise
    import runpy  # noqa: F401
    import threading  # noqa: F401
    import traceback  # noqa: F401

    program = argv[0]
    request = json.loads(sys.stdin.read())
    inputs = [str(text) for text in request["inputs"]]
    timeout = float(request["timeout"])
    cap = int(request.get("max_output", 1_000_000))
    del request
    sys.stdout.flush()
    sys.stderr.flush()
    results: list[dict[str, Any]] = []
    for start in range(0, len(inputs), PARALLEL):
        batch = inputs[start : start + PARALLEL]
        runs: list[dict[str, Any]] = []
        for text in batch:  # a child drops every list that holds another input or an output
            runs.append(_start(program, text, timeout, [inputs, results, batch, runs]))
        _pump(runs, cap)
        for run in runs:
            results.append({"stdout": bytes(run["out"]).decode("utf-8", "replace"),
                            "stderr": bytes(run["err"][-TRACE_CAP:]).decode("utf-8", "replace"),
                            "code": run["code"], "wall_s": run["wall_s"], "cpu_s": run["cpu_s"]})
    sys.stdout.write(json.dumps(results) + "\n")
    return 0
