"""A long-lived sandboxed job seen from the host: its pipes, with deadlines and caps.

:meth:`~synth.sandbox.process.ProcessBackend.spawn` (and bwrap's) start the job; a
:class:`ProcessSession` then writes requests to its stdin, reads reply lines from its stdout
(never more than the caller's cap, never past a deadline), keeps the last 16 KB of stderr, and
on close kills every process of the job and cleans up after it (:class:`JobRun`).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

from synth.sandbox.base import SessionError

__all__ = ["JobRun", "ProcessSession"]


class JobRun(Protocol):
    """What a session needs of the run that launched its job."""

    #: the launcher's marker, printed on stdout right before the job's own output
    ready: bytes

    def kill_all(self, pgid: int | None = None) -> bool: ...

    def memory_note(self) -> str: ...

    def finish(self) -> None: ...


class ProcessSession:
    """A long-lived job started by :meth:`ProcessBackend.spawn` (see :class:`Session`)."""

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        run: JobRun,
        decode: Callable[[int], int],
    ) -> None:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self._proc = proc
        self._decode = decode  # launcher return code -> the job's (bwrap: 128 + N -> -N)
        self._run = run
        self._expect = run.ready  # the launcher's marker, stripped from the first stdout bytes
        self._buf = bytearray()
        self._err: deque[bytes] = deque()
        self._err_len = 0
        self._closed = False
        self._lock = threading.Lock()
        os.set_blocking(proc.stdout.fileno(), False)
        os.set_blocking(proc.stdin.fileno(), False)
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()

    def _drain_stderr(self) -> None:
        stream = self._proc.stderr
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            while True:
                data = os.read(stream.fileno(), 65536)
                if not data:
                    return
                self._err.append(data)
                self._err_len += len(data)
                while self._err_len > 16384 and len(self._err) > 1:
                    self._err_len -= len(self._err.popleft())

    def send(self, data: bytes, timeout_s: float | None = None) -> None:
        stdin = self._proc.stdin
        assert stdin is not None
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        view = memoryview(data)
        try:
            fd = stdin.fileno()
            with selectors.DefaultSelector() as sel:
                sel.register(fd, selectors.EVENT_WRITE)
                while view:
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        raise TimeoutError(f"worker did not read its input within {timeout_s:g}s")
                    if not sel.select(timeout=left):
                        continue
                    try:
                        view = view[os.write(fd, view[:65536]) :]
                    except BlockingIOError:
                        continue
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise SessionError(f"worker stdin closed: {exc}") from exc

    def _pop_line(self) -> bytes | None:
        nl = self._buf.find(b"\n")
        if nl < 0:
            return None
        line = bytes(self._buf[:nl])
        del self._buf[: nl + 1]
        return line

    def recv_line(self, timeout_s: float, max_bytes: int) -> bytes:
        line = self._pop_line()  # fast path: replies often arrive several at a time
        if line is not None:
            return line
        stdout = self._proc.stdout
        assert stdout is not None
        deadline = time.monotonic() + timeout_s
        fd = stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                line = self._pop_line()
                if line is not None:
                    return line
                if len(self._buf) > max_bytes:
                    raise OverflowError(f"worker reply longer than {max_bytes} bytes")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no reply within {timeout_s:g}s")
                if not sel.select(timeout=left):
                    continue
                try:
                    data = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                if not data:
                    raise SessionError("worker closed its stdout (exited)")
                self._buf += data
                if self._expect:
                    self._strip_ready()

    def _strip_ready(self) -> None:
        """Drop the launcher's marker; a worker whose launcher failed is a SessionError."""
        head = bytes(self._buf[: len(self._expect)])
        if not self._expect.startswith(head):
            raise SessionError(f"the sandbox launcher failed: {self.stderr_tail()[-500:]}")
        if len(head) == len(self._expect):
            del self._buf[: len(self._expect)]
            self._expect = b""

    def root_pid(self) -> int | None:
        """The launcher's pid: the job is its process tree."""
        return self._proc.pid if self._proc.poll() is None else None

    def stderr_tail(self) -> str:
        """The last 4 KB of stderr, plus a line naming a kill at the cgroup memory limit
        (so that ``classify_exit`` on the tail reports OOM)."""
        tail = b"".join(self._err).decode("utf-8", errors="replace")[-4000:]
        note = self._run.memory_note()
        return f"{tail}\n{note}" if note else tail

    def returncode(self) -> int | None:
        code = self._proc.poll()
        return None if code is None else self._decode(code)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._run.kill_all(self._proc.pid)
        with contextlib.suppress(OSError):
            self._proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=5)
        for stream in (self._proc.stdin, self._proc.stdout):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()
        self._stderr_thread.join(timeout=1)
        with contextlib.suppress(OSError, ValueError):
            if self._proc.stderr is not None:
                self._proc.stderr.close()
        self._run.finish()
