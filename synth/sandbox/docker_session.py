"""The host's end of a job in a container: the ``docker exec`` stream and the session FIFOs.

:class:`ExecStream` is the hijacked connection of one ``docker exec`` (stdin out, stdout and
stderr multiplexed in); :class:`DockerSession` is a long-lived worker in a container of its own,
talking over the session FIFOs when the backend has them, else over the stream. The containers
themselves -- created, kept warm, bound to one isolation unit, removed -- are the backend's
(:class:`synth.sandbox.docker.DockerBackend`); a session hands its container back to it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import select
import selectors
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from synth.sandbox.base import SessionError

__all__ = ["Container", "ContainerGone", "DockerSession", "ExecStream", "frame", "open_writer",
           "remove_io_dir"]

IO_OPEN_TIMEOUT_S = 30.0  # the runner opens its FIFO ends within this after the payload (a loaded machine: 10 s was seen to pass)


def frame(payload: dict[str, Any]) -> bytes:
    data = json.dumps(payload).encode("utf-8")
    return struct.pack(">Q", len(data)) + data


class ExecStream:
    """The hijacked connection of one ``docker exec``: stdin out, multiplexed stdout/stderr in."""

    def __init__(self, sock: Any) -> None:
        self._holder = sock  # the SDK's SocketIO (keeps the HTTP response alive)
        self.sock: socket.socket = getattr(sock, "_sock", sock)
        self._buf = bytearray()
        self.eof = False

    def send(self, data: bytes, timeout_s: float = 30.0) -> None:
        self.sock.settimeout(timeout_s)
        self.sock.sendall(data)

    def pump(self, deadline: float, on_stdout: Any, on_stderr: Any) -> str:
        """Read until ``deadline`` or end of stream, handing frames to the callbacks (which may
        return True to stop early). Returns ``"eof"``, ``"stop"`` or ``"deadline"``."""
        self.sock.settimeout(None)
        self.sock.setblocking(False)
        with selectors.DefaultSelector() as sel:
            sel.register(self.sock, selectors.EVENT_READ)
            while not self.eof:
                left = deadline - time.monotonic()
                if left <= 0:
                    return "deadline"
                if not sel.select(timeout=left):
                    continue
                try:
                    data = self.sock.recv(262144)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.eof = True
                    break
                self._buf += data
                if self._dispatch(on_stdout, on_stderr):
                    return "stop"
        return "eof"

    def _dispatch(self, on_stdout: Any, on_stderr: Any) -> bool:
        stop = False
        while len(self._buf) >= 8:
            kind, size = struct.unpack(">BxxxL", self._buf[:8])
            if len(self._buf) < 8 + size:
                break
            chunk = bytes(self._buf[8 : 8 + size])
            del self._buf[: 8 + size]
            stop = bool((on_stderr if kind == 2 else on_stdout)(chunk)) or stop
        return stop

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.sock.close()
        response = getattr(self._holder, "_response", None)
        with contextlib.suppress(Exception):
            self._holder.close()
        if response is not None:
            with contextlib.suppress(Exception):
                response.close()


def remove_io_dir(path: str | None) -> None:
    """Remove a container's session FIFO folder (after the container is gone)."""
    if path is None:
        return
    for name in ("in", "out"):
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(path, name))
    with contextlib.suppress(OSError):
        os.rmdir(path)


def open_writer(path: str, agent: ExecStream) -> int:
    """Open the session's request FIFO for writing once the runner has opened its read end
    (within :data:`IO_OPEN_TIMEOUT_S`; a runner that ends first -- it refused the payload --
    is an error with its stderr)."""
    deadline = time.monotonic() + IO_OPEN_TIMEOUT_S
    err: list[bytes] = []
    while True:
        try:
            return os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as exc:
            if exc.errno != errno.ENXIO:  # ENXIO: no reader yet
                raise
        agent.pump(time.monotonic() + 0.002, lambda _chunk: False, err.append)
        if agent.eof or time.monotonic() > deadline:
            why = b"".join(err).decode("utf-8", "replace")[-300:]
            raise ContainerGone(f"the runner did not open the session FIFOs: {why or 'timeout'}")


class ContainerGone(RuntimeError):
    """The container stopped or disappeared (engine restart, external ``docker rm``)."""


@dataclass
class Container:
    id: str
    key: tuple[int, int]
    agent: ExecStream | None = None  # the runner ("serve"), started with the container
    agent_exec: str = ""
    unit: str | None = None  # None: a never-used spare; "": one job only; else its unit
    session: bool = False
    runs: int = 0
    removed: bool = False
    io_dir: str | None = None  # host folder with the session FIFOs "in" and "out" (io="fifo")

    def drop_agent(self) -> None:
        if self.agent is not None:
            self.agent.close()  # the runner sees EOF on stdin and exits
            self.agent = None


class DockerSession:
    """A worker process in a container of its own (base.Session): its stdin/stdout are the two
    session FIFOs when the backend's session io is ``fifo`` (the kernel carries the bytes, no
    engine in between), else the ``docker exec`` stream. Its stderr is always the exec stream.

    The container is dedicated to the session and removed by :meth:`close` (with everything
    the session started).
    """

    def __init__(
        self, cont: Container, exec_id: str, stream: ExecStream,
        fds: tuple[int, int] | None = None, *,
        inspect: Callable[[str], dict[str, Any]], dispose: Callable[[Container], None],
    ) -> None:
        self._inspect = inspect  # the engine's exec_inspect
        self._dispose = dispose  # the backend takes the container back (killed, removed)
        self._cont = cont
        self._exec_id = exec_id
        self._stream = stream
        self._fds = fds  # (request FIFO write end, reply FIFO read end), non-blocking
        self._out_eof = False
        self._out = bytearray()
        self._err: deque[bytes] = deque(maxlen=64)
        self._closed = False
        self._lock = threading.Lock()

    @property
    def container_id(self) -> str:
        return self._cont.id

    @property
    def io(self) -> str:
        """``fifo`` or ``stream``: how requests and replies travel."""
        return "fifo" if self._fds is not None else "stream"

    def send(self, data: bytes, timeout_s: float = 30.0) -> None:
        if self._closed or (self._fds is None and self._stream.eof) or self._out_eof:
            raise SessionError("worker stream is closed")
        if self._fds is None:
            try:
                self._stream.send(data, timeout_s)
            except OSError as exc:
                raise SessionError(f"worker stdin closed: {exc}") from exc
            return
        deadline = time.monotonic() + timeout_s
        view = memoryview(data)
        fd = self._fds[0]
        while view:
            try:
                view = view[os.write(fd, view):]
                continue
            except BlockingIOError:
                pass
            except OSError as exc:  # EPIPE: the worker is gone
                raise SessionError(f"worker stdin closed: {exc}") from exc
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the worker read no request within {timeout_s:g}s")
            select.select([], [fd], [], min(left, 0.05))

    def recv_line(self, timeout_s: float, max_bytes: int) -> bytes:
        deadline = time.monotonic() + timeout_s
        while True:
            nl = self._out.find(b"\n")
            if nl >= 0:
                line = bytes(self._out[:nl])
                del self._out[: nl + 1]
                return line
            if len(self._out) > max_bytes:
                raise OverflowError(f"worker reply longer than {max_bytes} bytes")
            if self._out_eof or (self._fds is None and self._stream.eof):
                raise SessionError("worker closed its stdout (exited)")
            if time.monotonic() >= deadline:
                raise TimeoutError(f"no reply within {timeout_s:g}s")
            if self._fds is None:

                def on_out(chunk: bytes) -> bool:
                    self._out.extend(chunk)
                    return b"\n" in chunk or len(self._out) > max_bytes

                self._stream.pump(deadline, on_out, self._on_err)
            else:
                self._read_fifo(deadline)

    def _read_fifo(self, deadline: float) -> None:
        """Wait for the reply FIFO (draining stderr from the exec stream meanwhile) and read
        what it has; at its end mark the worker's stdout closed."""
        assert self._fds is not None
        fd = self._fds[1]
        sock_fd = -1 if self._stream.eof else self._stream.sock.fileno()
        watch = [fd] if sock_fd < 0 else [fd, sock_fd]
        ready = select.select(watch, [], [], max(0.0, deadline - time.monotonic()))[0]
        if sock_fd >= 0 and sock_fd in ready:
            self._stream.pump(time.monotonic() + 0.001, lambda _c: False, self._on_err)
        if fd in ready:
            try:
                data = os.read(fd, 1 << 18)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if data:
                self._out.extend(data)
            else:
                self._out_eof = True

    def _on_err(self, chunk: bytes) -> bool:
        self._err.append(chunk)
        return False

    def root_pid(self) -> int | None:
        """None: the job runs under the engine's shim, not under a process of the host's."""
        return None

    def stderr_tail(self) -> str:
        if not self._stream.eof:  # what is waiting on the stream (stdout kept for recv_line)
            self._stream.pump(time.monotonic() + 0.05, self._keep_out, self._on_err)
        return b"".join(self._err).decode("utf-8", errors="replace")[-4000:]

    def _keep_out(self, chunk: bytes) -> bool:
        self._out.extend(chunk)
        return False

    def returncode(self) -> int | None:
        try:
            info = self._inspect(self._exec_id)
        except Exception:
            return None
        if info.get("Running"):
            return None
        code = info.get("ExitCode")
        if code is None:
            return None
        return -(code - 128) if 128 < code <= 128 + 64 else int(code)

    def close(self) -> None:
        """Kill the worker and everything it started (its container is stopped now and removed
        in the background)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if self._fds is not None:
            for fd in self._fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._stream.close()
        self._dispose(self._cont)
