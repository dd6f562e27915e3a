"""What every bench script shares: output that shows up as it is printed, a stop on Ctrl-C or
SIGTERM that runs the script's clean-up, child processes that are stopped with it, and the
named sets of bootcamps a benchmark walks.

    from bench._common import setup, run_child, DEFAULT_BOOTCAMPS, ENGINE_BOOTCAMPS

:func:`setup` makes stdout and stderr line-buffered (a line per measurement reaches a pipe or a
log at once) and turns SIGTERM and SIGHUP into ``SystemExit``, as Ctrl-C is turned into
``KeyboardInterrupt``: ``with`` blocks, ``finally`` clauses and ``atexit`` handlers run (the
docker backend removes its containers there), which Python's default SIGTERM action skips. A
signal that comes while the clean-up runs is reported and ignored, so a second Ctrl-C does not
cut the clean-up short (SIGKILL still does).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

#: The bootcamps a benchmark walks by default: every shipped bootcamp that needs no engine. Each
#: generates a case in well under a millisecond to a few milliseconds.
DEFAULT_BOOTCAMPS = (
    "cipher",
    "code_output",
    "codecontests_06_c_divisors_loyal_to_their_digits",
    "codecontests_16_f_bulbs_without_long_glows",
    "game24",
    "interval_cover",
    "knights_knaves",
    "mastermind",
    "sudoku",
)
#: Engine-backed bootcamps (they declare ``ENGINES``: GNU Go). A case costs GNU Go self-play and
#: analysis (0.1 s to seconds each), so a benchmark measures them in a row of their own, at their
#: smallest level and a few cases, and only when asked to.
ENGINE_BOOTCAMPS = ("go_move", "go_game")
#: Their cheapest level (9x9 opening for go_move, two turns for go_game).
ENGINE_LEVEL = "easy"

_stopping = False


def _stop(signum: int, _frame: Any) -> None:
    global _stopping
    name = signal.Signals(signum).name
    if _stopping:
        print(f"\n[{name} again: still cleaning up; SIGKILL abandons the clean-up]",
              file=sys.stderr, flush=True)
        return
    _stopping = True
    print(f"\n[{name}: stopping, cleaning up]", file=sys.stderr, flush=True)
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise SystemExit(128 + signum)


def setup() -> None:
    """Line-buffered output; SIGINT, SIGTERM and SIGHUP stop the script through its clean-up."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(line_buffering=True)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)
    sys.excepthook = _quiet_interrupt


def _quiet_interrupt(kind: type[BaseException], exc: BaseException, tb: Any) -> None:
    """An interrupt ends the script with one line, not a traceback; anything else as usual."""
    if issubclass(kind, KeyboardInterrupt):
        print("[interrupted; cleaned up]", file=sys.stderr, flush=True)
        return
    sys.__excepthook__(kind, exc, tb)


def run_child(argv: Sequence[str], *, grace_s: float = 15.0, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """``subprocess.run(argv, capture_output=True, text=True, **kwargs)``, except that when this
    script is stopped meanwhile the child gets SIGTERM first (its own clean-up: sandboxes,
    containers), then SIGKILL after ``grace_s`` -- ``subprocess.run`` would SIGKILL it at once."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **kwargs)
    try:
        out, err = proc.communicate()
    except BaseException:
        stop_child(proc, grace_s)
        raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def stop_child(proc: subprocess.Popen[Any], grace_s: float = 15.0) -> None:
    """SIGTERM ``proc`` (its process group when it leads one), SIGKILL after ``grace_s``."""
    if proc.poll() is not None:
        return
    leader = _leads_group(proc.pid)
    try:
        if leader:
            os.killpg(proc.pid, signal.SIGTERM)
        else:
            proc.terminate()
        proc.wait(grace_s)
    except subprocess.TimeoutExpired:
        if leader:
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
        proc.wait()
    except ProcessLookupError:
        proc.wait()


def _leads_group(pid: int) -> bool:
    try:
        return os.getpgid(pid) == pid
    except ProcessLookupError:
        return False


class Ticker:
    """A line every ``every_s`` seconds while a long measurement runs: ``with Ticker(status):``
    prints ``  ... <status()>`` (``status`` is called in a background thread)."""

    def __init__(self, status: Callable[[], str], every_s: float = 15.0) -> None:
        self.status = status
        self.every_s = every_s
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bench-ticker", daemon=True)
        self._t0 = time.monotonic()

    def _run(self) -> None:
        while not self._done.wait(self.every_s):
            try:
                text = self.status()
            except Exception as exc:  # a status line must never stop the measurement
                text = f"(status unavailable: {type(exc).__name__})"
            print(f"  ... {time.monotonic() - self._t0:5.0f}s: {text}", flush=True)

    def __enter__(self) -> Ticker:
        self._t0 = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()


def count_lines(path: Path, needle: str) -> int:
    """Lines of ``path`` containing ``needle`` (0 while the file does not exist)."""
    try:
        with path.open(encoding="utf-8", errors="replace") as fh:
            return sum(needle in line for line in fh)
    except FileNotFoundError:
        return 0
