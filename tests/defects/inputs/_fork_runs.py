"""Run one stdin -> stdout program (a reference program of the set_* corpora, or of the subtle
corpus: subtle/_probe.py) on many inputs.

``run_many(program, stdins, timeout)`` gives for each input what
``subprocess.run([sys.executable, "-c", program], input=stdin, capture_output=True, text=True,
timeout=timeout)`` gives (a ``CompletedProcess``; ``TimeoutExpired`` past ``timeout``), but
starts ONE interpreter (this file, as a script) and forks a process per input from it: an
interpreter start costs 25-30 ms of CPU here, a fork about 1 ms (the set_b witness runs a
reference program on 180 inputs for each of 11 modules). Each run is a process of its own with
real descriptors 0, 1 and 2 (temporary files), fresh globals, ``__name__ == "__main__"``, the
exit status of ``sys.exit`` or 1 with a traceback. Written for the corpora's witnesses only:
nothing of synth (its gate or sandbox) is used.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["run_many"]

_SCRIPT = str(Path(__file__).resolve())


def run_many(program: str, stdins: list[str],
             timeout: float) -> list[subprocess.CompletedProcess[str]]:
    """``program``'s run on each of ``stdins``, in order (see the module docstring)."""
    request = json.dumps({"program": program, "inputs": stdins, "timeout": timeout})
    done = subprocess.run([sys.executable, _SCRIPT], input=request, capture_output=True,
                          text=True, timeout=timeout * len(stdins) + 60, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the fork runner failed:\n{done.stderr[-3000:]}")
    runs = []
    for code, out, err in json.loads(done.stdout):
        if code is None:
            raise subprocess.TimeoutExpired(["python", "-c", "<program>"], timeout, out, err)
        runs.append(subprocess.CompletedProcess(["python", "-c", program], code, out, err))
    assert len(runs) == len(stdins), (len(runs), len(stdins))
    return runs


def _child(source: str, code: object, fds: tuple[int, int, int], timeout: float) -> None:
    """In the forked child: run the program once on fd 0, never return."""
    import builtins
    import io
    import threading
    import traceback

    status = 70
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        os.closerange(3, 1 << 16)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(max(1, int(timeout + 0.999)))

        def stream(fd: int, mode: str, **how: object) -> io.TextIOWrapper:
            raw = io.FileIO(fd, mode, closefd=False)
            buffered = io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
            return io.TextIOWrapper(buffered, encoding="utf-8", **how)  # type: ignore[arg-type]

        sys.stdin, sys.stdout = stream(0, "r"), stream(1, "w")
        sys.stderr = stream(2, "w", errors="backslashreplace", line_buffering=True)
        sys.argv = ["-c"]
        status = 0
        try:
            if code is None:  # the program does not compile: what `python -c` reports
                compile(source, "<string>", "exec")
            exec(code, {"__name__": "__main__", "__builtins__": builtins})
            for thread in threading.enumerate():  # the interpreter joins them before it ends
                if thread is not threading.main_thread() and not thread.daemon:
                    thread.join()
        except SystemExit as exc:
            if exc.code is None:
                status = 0
            elif type(exc.code) is int:
                status = exc.code & 0xFF
            else:
                print(exc.code, file=sys.stderr)
                status = 1
        except BaseException:
            traceback.print_exc()
            status = 1
        for out in (sys.stdout, sys.stderr):
            try:
                out.flush()
            except Exception:
                status = status or 120
    finally:
        os._exit(status)


def _main() -> None:
    import builtins  # noqa: F401 -- what every run needs, imported once before the first fork
    import io  # noqa: F401
    import threading  # noqa: F401
    import traceback  # noqa: F401

    request = json.loads(sys.stdin.read())
    timeout = float(request["timeout"])
    source = request["program"]
    try:
        code = compile(source, "<string>", "exec")
    except SyntaxError:
        code = None  # each run then reports it, as `python -c` would
    results = []
    for text in request["inputs"]:
        with tempfile.TemporaryFile() as fin, tempfile.TemporaryFile() as fout, \
                tempfile.TemporaryFile() as ferr:
            fin.write(text.encode("utf-8"))
            fin.flush()
            fin.seek(0)
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _child(source, code, (fin.fileno(), fout.fileno(), ferr.fileno()), timeout)
            _, status = os.waitpid(pid, 0)
            rc = os.waitstatus_to_exitcode(status)
            fout.seek(0)
            ferr.seek(0)
            out = fout.read().decode("utf-8", "replace")
            err = ferr.read().decode("utf-8", "replace")
        results.append([None if rc == -signal.SIGALRM else rc, out, err])
    sys.stdout.write(json.dumps(results))


if __name__ == "__main__":
    _main()
