"""Declared engines: external programs a bootcamp may consult, behind a vetted client.

A bootcamp that needs an engine -- a Go bootcamp judged by GNU Go -- declares it in its class::

    class GoMoveBootcamp(BaseBootcamp):
        ENGINES = ("gnugo",)

and talks to it through this module only::

    from synth.engines import engine
    gtp = engine("gnugo")
    gtp.new_game(9, komi=7.0, moves=[("B", "E5"), ("W", "C3")])
    best = gtp.reg_genmove("B")

The bootcamp never starts a process. Who does:

* **in the sandbox** the kit calls :func:`start_declared` before the guard is armed (and before
  the candidate is imported): it reads the module's ``ENGINES`` from its source
  (:func:`declared_engines`) and starts one *broker* process -- this file run as
  ``python -s -S -B engines.py broker`` -- which starts each declared engine with the fixed
  command line of :data:`REGISTRY` and answers its version. The bootcamp's process keeps only
  two pipes to the broker;
* **in a trusted host process** (a trainer that loads the library, a test) the first
  :func:`engine` call starts the broker itself.

The broker is the boundary, not this client: it runs only the GTP commands the engine's spec
allows (no file access such as ``loadsgf``/``printsgf``, no clock-dependent play such as
``time_settings``, no seed 0), bounds every command in time (a command that does not answer in
time has its engine killed -- the next command starts a fresh one -- and the client gets
:class:`EngineTimeout` naming the command), caps the size of an answer, and kills its engines and
exits when its request pipe closes (the method server ended). The client bounds its own wait too,
so that no engine call in a bootcamp outlives its timeout by more than a few seconds.

Determinism: an engine runs with fixed settings (level, seed); its answers depend on the commands
sent since it started. GNU Go keeps caches across ``clear_board`` that change its move values in
the second decimal, so :meth:`Engine.restart` (and :meth:`Engine.new_game`) starts a fresh
engine process (a few milliseconds): a result depends only on the position and the engine's
version. Standard library only: shipped into every sandbox job next to ``synth/bootcamp.py``.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import json
import os
import select
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

try:  # the host's thread-safe parse (synth.text.pyast); in the sandbox only this module and the
    from synth.text.pyast import (
        parse as _parse,  # contract are shipped: the plain one, single-threaded
    )
except ImportError:
    _parse = ast.parse

__all__ = [
    "REGISTRY", "Engine", "EngineError", "EngineSpec", "EngineTimeout", "EngineUnavailable",
    "GtpError", "command_log", "declared_engines", "engine", "find_program", "job_programs",
    "probe", "start_declared", "status",
]

#: The longest a bootcamp may ask one engine command to take.
MAX_TIMEOUT_S = 60.0
#: How much longer than a command's timeout the client waits for the broker's answer.
CLIENT_SLACK_S = 3.0
#: The most bytes one engine answer may have (the engine is killed beyond it).
MAX_ANSWER_BYTES = 1 << 20
#: How many of the commands since the last :func:`command_log` the log shows (all are counted
#: and digested).
LOG_HEAD = 64
_MAX_COMMAND_CHARS = 300
_MAX_BATCH = 1000

_GTP_GAME = (
    "protocol_version", "name", "version", "known_command", "list_commands", "boardsize",
    "query_boardsize", "clear_board", "komi", "get_komi", "play", "genmove", "genmove_black",
    "genmove_white", "reg_genmove", "gg_genmove", "undo", "gg-undo", "is_legal", "all_legal",
    "showboard", "list_stones", "color", "countlib", "findlib", "captures", "last_move",
    "move_history", "fixed_handicap", "place_free_handicap", "set_free_handicap",
    "estimate_score", "experimental_score", "final_score", "final_status",
    "final_status_list", "new_score", "top_moves", "top_moves_black", "top_moves_white",
    "all_move_values", "move_reasons", "move_probabilities", "move_uncertainty",
    "dragon_status", "dragon_stones", "same_dragon", "worm_stones", "attack", "defend",
    "ladder_attack", "owl_attack", "owl_defend", "trymove", "tryko", "popgo", "clear_cache",
    "level", "set_random_seed", "get_random_seed", "orientation", "query_orientation",
    "get_handicap", "invariant_hash", "invariant_hash_for_moves", "is_surrounded",
    "unconditional_status", "eval_eye", "restricted_genmove", "limit_search",
)


@dataclass(frozen=True)
class EngineSpec:
    """One known engine: where it is installed, how it is started (fixed, deterministic
    settings), what a bootcamp may ask it and how long a command may take by default."""

    name: str
    paths: tuple[str, ...]
    args: tuple[str, ...]
    package: str
    commands: tuple[str, ...]
    timeout_s: float = 10.0
    #: (first, last) value of the ``level`` command a bootcamp may set
    levels: tuple[int, int] = (0, 10)
    #: how a bootcamp's call times grow when it consults this engine (the gate's budgets)
    time_factor: float = 20.0
    startup_s: float = 10.0


#: The engines a bootcamp may declare, by name.
REGISTRY: dict[str, EngineSpec] = {
    "gnugo": EngineSpec(
        name="gnugo",
        paths=("/usr/games/gnugo", "/usr/bin/gnugo", "/usr/local/bin/gnugo"),
        # level 10 is GNU Go's default strength; a fixed seed makes its choices reproducible
        # (GNU Go reseeds with it before every move); no resignation, no clock
        args=("--mode", "gtp", "--quiet", "--level", "10", "--seed", "1", "--never-resign"),
        package="gnugo (Debian: apt-get install -y gnugo)",
        commands=_GTP_GAME,
    ),
}


class EngineError(RuntimeError):
    """An engine call failed (the message names the engine and the command)."""


class EngineUnavailable(EngineError):
    """The engine is not installed here, not declared, or could not be started."""


class EngineTimeout(EngineError):
    """The engine did not answer in time (it was killed; the next command starts a fresh one)."""


class GtpError(EngineError):
    """The engine refused the command (a GTP ``?`` answer: an illegal move, a bad vertex...)."""


# ------------------------------------------------------------------------------------------
# What a module declares, and what this machine has
# ------------------------------------------------------------------------------------------


def time_factor(source: str) -> float:
    """How much the time budgets of a module's calls grow for the engines it declares (the
    largest declared engine's ``time_factor``; 1.0 when it declares none)."""
    return max((REGISTRY[n].time_factor for n in declared_engines(source) if n in REGISTRY),
               default=1.0)


def declared_engines(source: str) -> tuple[str, ...]:
    """The engine names the classes of a module declare (``ENGINES = ("gnugo",)`` in a class
    body, a tuple or list of string literals), in order, without repeats. Read with ``ast``:
    nothing of the module runs. () when it declares none or does not parse."""
    try:
        tree = _parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        for stmt in node.body:
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                else stmt.target if isinstance(stmt, ast.AnnAssign) else None
            value = getattr(stmt, "value", None)
            if not (isinstance(target, ast.Name) and target.id == "ENGINES"):
                continue
            if isinstance(value, ast.Tuple | ast.List):
                found += [e.value for e in value.elts
                          if isinstance(e, ast.Constant) and type(e.value) is str]
    return tuple(dict.fromkeys(found))


def find_program(name: str) -> str | None:
    """The installed program of engine ``name`` on this machine (the first executable of its
    spec's paths), or None."""
    spec = REGISTRY.get(name)
    if spec is None:
        return None
    for path in spec.paths:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def job_programs(files: dict[str, str]) -> tuple[str, ...]:
    """The host programs of the engines a sandbox job's modules declare (its ``.py`` files but
    the contract package's), for a backend that must make them visible (bwrap binds them)."""
    names: list[str] = []
    for path, text in files.items():
        if path.endswith(".py") and not path.startswith("synth/") and "ENGINES" in text:
            names += declared_engines(text)
    found = [find_program(name) for name in dict.fromkeys(names)]
    return tuple(p for p in found if p is not None)


def probe(name: str, timeout_s: float = 10.0) -> tuple[bool, str]:
    """(True, version) when engine ``name`` starts here and answers its version within
    ``timeout_s``; else (False, why, with what to install). Host side (starts the program)."""
    spec = REGISTRY.get(name)
    if spec is None:
        return False, f"no engine named {name!r} is known (known: {', '.join(sorted(REGISTRY))})"
    program = _Program(spec)
    try:
        return True, program.version(timeout_s)
    except EngineError as exc:
        return False, str(exc)
    finally:
        program.stop()


# ------------------------------------------------------------------------------------------
# The broker: the process that owns the engines (trusted code, never the bootcamp's)
# ------------------------------------------------------------------------------------------


def _spec_of(data: dict[str, Any]) -> EngineSpec:
    return EngineSpec(name=str(data["name"]), paths=tuple(data["paths"]),
                      args=tuple(data["args"]), package=str(data["package"]),
                      commands=tuple(data["commands"]), timeout_s=float(data["timeout_s"]),
                      levels=(int(data["levels"][0]), int(data["levels"][1])),
                      time_factor=float(data["time_factor"]), startup_s=float(data["startup_s"]))


def _refusal(spec: EngineSpec, text: Any) -> str:
    """Why the broker will not send ``text`` to the engine ("" when it will)."""
    if type(text) is not str or not text.strip():
        return "a command is a non-empty string"
    if len(text) > _MAX_COMMAND_CHARS or not all(" " <= ch <= "~" for ch in text):
        return f"a command is one line of printable ASCII, at most {_MAX_COMMAND_CHARS} chars"
    words = text.split()
    if words[0] not in spec.commands:
        return (f"{spec.name} command {words[0][:40]!r} is not allowed in a bootcamp (only the "
                "game and analysis commands: no files, no clocks)")
    if words[0] in ("level", "set_random_seed"):
        if len(words) != 2 or not words[1].isdigit():
            return f"{words[0]} takes one non-negative integer"
        number = int(words[1])
        if words[0] == "level" and not spec.levels[0] <= number <= spec.levels[1]:
            return f"level must be in {spec.levels[0]}..{spec.levels[1]}"
        if words[0] == "set_random_seed" and not 0 < number < 2**31:
            return "set_random_seed takes a seed in 1..2**31-1 (0 would mean a seed from the clock)"
    return ""


class _Inbox:
    """The broker's request pipe, buffered; watched while an engine works too, so that a client
    gone mid-command (its method server ended) stops the engine at once, not at the timeout."""

    def __init__(self, fd: int) -> None:
        self.fd, self.buf = fd, b""

    def pull(self) -> None:
        """Read what the (readable) pipe holds; EOFError at its end: the client is gone."""
        chunk = os.read(self.fd, 1 << 16)
        self.buf += chunk
        if not chunk or len(self.buf) > 4 * MAX_ANSWER_BYTES:
            raise EOFError


class _Program:
    """One engine process, started on demand, talking GTP over its stdin/stdout."""

    def __init__(self, spec: EngineSpec, inbox: _Inbox | None = None) -> None:
        self.spec = spec
        self.proc: Any = None
        self.buf = b""
        self.path = ""
        self.inbox = inbox

    def start(self) -> None:
        import subprocess

        path = ""
        for candidate in self.spec.paths:
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                path = candidate
                break
        if not path:
            raise EngineUnavailable(
                f"{self.spec.name} is not installed here (looked for {', '.join(self.spec.paths)}); "
                f"install {self.spec.package}")
        try:
            self.proc = subprocess.Popen(
                [path, *self.spec.args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, close_fds=True, env={"PATH": "/usr/bin:/bin",
                                                               "LANG": "C"})
        except OSError as exc:
            raise EngineUnavailable(f"{self.spec.name} could not be started ({path}): {exc}") \
                from None
        self.path = path
        self.buf = b""

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            proc.kill()
        for stream in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError):
                stream.close()
        with contextlib.suppress(Exception):
            proc.wait(timeout=5)

    def send(self, text: str, timeout_s: float) -> tuple[bool, str]:
        """(success, answer text) of one GTP command. Raises EngineError (killing the engine)
        when it does not answer in time, exits, or answers too much."""
        if self.proc is None:
            self.start()
        proc = self.proc
        name = self.spec.name
        try:
            proc.stdin.write(text.encode("ascii") + b"\n")
            proc.stdin.flush()
        except OSError:
            self.stop()
            raise EngineError(f"{name} exited before the command {text!r}") from None
        deadline = time.monotonic() + timeout_s
        fd = proc.stdout.fileno()
        inbox = self.inbox
        watched = [fd] if inbox is None else [fd, inbox.fd]
        while b"\n\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                raise EngineTimeout(f"{name} did not answer {text!r} within {timeout_s:g}s "
                                    "(it was killed; the next command starts a fresh one)")
            ready, _, _ = select.select(watched, [], [], left)
            if inbox is not None and inbox.fd in ready:
                inbox.pull()  # the end of the pipe raises EOFError: the broker stops all
            if fd not in ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                code = proc.poll()
                self.stop()
                raise EngineError(f"{name} exited (status {code}) while answering {text!r}")
            self.buf += chunk.replace(b"\r", b"")
            if len(self.buf) > MAX_ANSWER_BYTES:
                self.stop()
                raise EngineError(f"{name} answered {text!r} with more than "
                                  f"{MAX_ANSWER_BYTES} bytes (killed)")
        answer, self.buf = self.buf.split(b"\n\n", 1)
        reply = answer.decode("utf-8", "replace").lstrip("\n")
        if reply[:1] not in ("=", "?"):
            self.stop()
            raise EngineError(f"{name} answered {text!r} with something that is not GTP: "
                              f"{reply[:80]!r}")
        return reply[0] == "=", reply[1:].strip()

    def version(self, timeout_s: float) -> str:
        ok_name, name = self.send("name", timeout_s)
        ok_version, version = self.send("version", timeout_s)
        if not (ok_name and ok_version):
            raise EngineError(f"{self.spec.name} does not answer its name and version")
        return f"{name} {version}".strip()


def _broker(specs: list[EngineSpec], infd: int, outfd: int) -> None:
    """Serve the client's requests (JSON lines) until its pipe closes; then stop the engines.

    First line written: the status of each engine, ``{name: {"ok", "version" | "error",
    "path"}}``. Requests: ``{"id", "engine", "op": "gtp" | "restart", "cmds": [..],
    "timeout"}``; answers ``{"id", "ok": [answer, ...]}`` or ``{"id", "err", "kind", "index"}``
    (kind: refused | gtp | timeout | unavailable | failed). ``{"id", "op": "log"}`` answers the
    command log since the last such request (see :func:`command_log`) and starts a new one."""
    inbox = _Inbox(infd)
    programs = {spec.name: _Program(spec, inbox) for spec in specs}
    journal = _Journal()
    state: dict[str, Any] = {}
    try:
        for name, program in programs.items():
            try:
                state[name] = {"ok": True, "version": program.version(program.spec.startup_s),
                               "path": program.path}
            except EngineError as exc:
                program.stop()
                state[name] = {"ok": False, "error": str(exc)}
        _write_line(outfd, state)
        while True:
            while b"\n" not in inbox.buf:
                inbox.pull()
            line, inbox.buf = inbox.buf.split(b"\n", 1)
            _write_line(outfd, _answer(programs, state, line, journal))
    except EOFError:
        return
    finally:
        for program in programs.values():
            program.stop()


def _answer(programs: dict[str, _Program], state: dict[str, Any], line: bytes,
            journal: _Journal) -> dict[str, Any]:
    try:
        request = json.loads(line)
        rid = request["id"]
        name, op = request["engine"], request["op"]
        cmds = request.get("cmds", [])
        timeout = float(request.get("timeout", 0)) or None
    except (ValueError, KeyError, TypeError):
        return {"id": None, "err": "a malformed request", "kind": "refused"}
    if op == "log":
        return {"id": rid, "ok": journal.take()}
    program = programs.get(name) if type(name) is str else None
    if program is None:
        return {"id": rid, "kind": "unavailable",
                "err": f"engine {name!r:.40} was not declared (add it to the class's ENGINES)"}
    if not state[name]["ok"]:
        return {"id": rid, "kind": "unavailable", "err": state[name]["error"]}
    spec = program.spec
    limit = min(timeout or spec.timeout_s, MAX_TIMEOUT_S)
    if op == "restart":
        journal.add(name, "(restart)")
        program.stop()
        return {"id": rid, "ok": []}
    if op != "gtp" or type(cmds) is not list or len(cmds) > _MAX_BATCH:
        return {"id": rid, "err": "a request is a list of commands", "kind": "refused"}
    out: list[str] = []
    for index, text in enumerate(cmds):
        journal.add(name, text if type(text) is str else repr(text))
        why = _refusal(spec, text)
        if why:
            return {"id": rid, "err": why, "kind": "refused", "index": index, "done": out}
        try:
            ok, answer = program.send(text, limit)
        except EngineTimeout as exc:
            return {"id": rid, "err": str(exc), "kind": "timeout", "index": index, "done": out}
        except EngineUnavailable as exc:
            return {"id": rid, "err": str(exc), "kind": "unavailable", "index": index}
        except EngineError as exc:
            return {"id": rid, "err": str(exc), "kind": "failed", "index": index, "done": out}
        if not ok:
            return {"id": rid, "err": f"{name} refused {text!r}: {answer[:200]}", "kind": "gtp",
                    "index": index, "done": out}
        out.append(answer)
    return {"id": rid, "ok": out}


class _Journal:
    """The commands the broker was asked to run since the last ``log`` request: all of them
    counted and digested (SHA-256 of ``engine: command`` lines), the first :data:`LOG_HEAD`
    kept as text."""

    def __init__(self) -> None:
        self.count = 0
        self.digest = hashlib.sha256()
        self.head: list[str] = []

    def add(self, name: str, text: str) -> None:
        line = f"{name}: {text[:_MAX_COMMAND_CHARS]}"
        self.count += 1
        self.digest.update(line.encode("utf-8", "replace") + b"\n")
        if len(self.head) < LOG_HEAD:
            self.head.append(line)

    def take(self) -> dict[str, Any]:
        """The log so far (``count``, ``digest``, ``head``); the journal starts again."""
        out = {"count": self.count, "digest": self.digest.hexdigest(), "head": self.head}
        self.count, self.digest, self.head = 0, hashlib.sha256(), []
        return out


def _write_line(fd: int, obj: Any) -> None:
    view = memoryview(json.dumps(obj).encode("utf-8") + b"\n")
    while view:
        view = view[os.write(fd, view):]


# ------------------------------------------------------------------------------------------
# The client (in the bootcamp's process)
# ------------------------------------------------------------------------------------------


class _Channel:
    """The pipes to one broker process."""

    def __init__(self, proc: Any, wfd: int, rfd: int, names: tuple[str, ...]) -> None:
        self.proc = proc
        self.wfd, self.rfd = wfd, rfd
        self.names = names
        self.pid = os.getpid()
        self.buf = b""
        self.next_id = 0
        self.broken = ""
        self.state: dict[str, Any] = {}

    def read_line(self, deadline: float) -> bytes | None:
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.rfd], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.rfd, 1 << 16)
            if not chunk:
                self.broken = "the engine broker exited"
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def request(self, body: dict[str, Any], wait_s: float) -> dict[str, Any]:
        if self.broken:
            raise EngineUnavailable(f"engines unavailable: {self.broken}")
        self.next_id += 1
        rid = body["id"] = self.next_id
        data = memoryview(json.dumps(body).encode("utf-8") + b"\n")
        try:
            while data:
                data = data[os.write(self.wfd, data):]
        except OSError as exc:
            self.broken = f"the engine broker is gone ({exc})"
            raise EngineUnavailable(f"engines unavailable: {self.broken}") from None
        deadline = time.monotonic() + wait_s
        while True:
            line = self.read_line(deadline)
            if line is None:
                if not self.broken:
                    self.broken = f"the engine broker did not answer within {wait_s:g}s"
                raise EngineTimeout(f"engines unavailable: {self.broken}")
            try:
                reply = json.loads(line)
            except ValueError:
                self.broken = "the engine broker wrote something that is not JSON"
                raise EngineError(self.broken) from None
            if type(reply) is dict and reply.get("id") == rid:
                return reply
            # an answer to an earlier request whose wait was interrupted: dropped


_channel: _Channel | None = None
#: The engines the sandboxed module declared (None outside a sandbox: start on demand).
_declared: tuple[str, ...] | None = None


def _open_channel(names: tuple[str, ...], startup_s: float = 30.0) -> _Channel:
    """Start a broker for ``names`` (trusted code only: before the guard, or in the host)."""
    import subprocess

    specs = []
    for name in names:
        spec = REGISTRY.get(name)
        if spec is not None:
            specs.append(asdict(spec))
    proc = subprocess.Popen(
        [sys.executable, "-s", "-S", "-B", os.path.abspath(__file__), "broker"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True)
    assert proc.stdin is not None and proc.stdout is not None
    channel = _Channel(proc, proc.stdin.fileno(), proc.stdout.fileno(), names)
    _write_line(channel.wfd, specs)
    line = channel.read_line(time.monotonic() + startup_s)
    try:
        channel.state = json.loads(line) if line is not None else {}
    except ValueError:
        channel.state = {}
    if type(channel.state) is not dict:
        channel.state = {}
    for name in names:
        if name not in REGISTRY:
            channel.state[name] = {"ok": False, "error": f"no engine named {name!r} is known "
                                   f"(known: {', '.join(sorted(REGISTRY))})"}
        elif name not in channel.state:
            channel.state[name] = {"ok": False,
                                   "error": f"the engine broker did not start {name}"}
    return channel


def start_declared(module_path: str) -> dict[str, Any]:
    """Called by the sandbox kit before the guard is armed: start the engines the module at
    ``module_path`` declares; returns their status ``{name: {"ok", "version" | "error"}}`` (plain
    JSON, for the handshake). From then on :func:`engine` serves only these names."""
    global _channel, _declared
    try:
        with open(module_path, encoding="utf-8") as fh:
            names = declared_engines(fh.read())
    except (OSError, ValueError):
        names = ()
    _declared = names
    if not names:
        return {}
    _channel = _open_channel(names)
    return json.loads(json.dumps(_channel.state))


def command_log() -> dict[str, Any]:
    """The commands the declared engines were sent since the last call (``{"count", "digest",
    "head"}``: how many, a SHA-256 over all of them, the first :data:`LOG_HEAD` as text), and a
    new log from here; ``{}`` when no engine was started. The gate compares two processes' logs
    of the same calls: an engine told another seed or level in a second process (a setting drawn
    from the clock or a string's hash) is nondeterminism even where its answers agreed."""
    channel = _channel
    if channel is None or channel.pid != os.getpid() or channel.broken:
        return {}
    reply = channel.request({"engine": "", "op": "log"}, CLIENT_SLACK_S + 5.0)
    value = reply.get("ok")
    return value if type(value) is dict else {}


def status() -> dict[str, Any]:
    """The status of the engines started so far in this process (name -> ok/version/error)."""
    return json.loads(json.dumps(_channel.state)) if _channel is not None else {}


def _channel_for(name: str) -> _Channel:
    global _channel
    if _declared is not None:  # in a sandbox: only what the kit started
        if name not in _declared or _channel is None:
            raise EngineUnavailable(f"engine {name!r} was not declared: add ENGINES = "
                                    f"({name!r},) to the bootcamp class")
        return _channel
    if _channel is None or _channel.pid != os.getpid() or _channel.broken \
            or name not in _channel.names:
        wanted = tuple(dict.fromkeys([*(_channel.names if _channel else ()), name]))
        _close_channel()
        _channel = _open_channel(wanted)
        import atexit

        atexit.register(_close_channel)
    return _channel


def _close_channel() -> None:
    """Host side: close the pipes (the broker kills its engines and exits) and reap it."""
    global _channel
    channel, _channel = _channel, None
    if channel is None or channel.pid != os.getpid():
        return
    for stream in (channel.proc.stdin, channel.proc.stdout):
        with contextlib.suppress(OSError):
            stream.close()
    try:
        channel.proc.wait(timeout=10)
    except Exception:
        channel.proc.kill()
        channel.proc.wait()


_COLORS = {"b": "black", "black": "black", "w": "white", "white": "white"}


def _color(color: str) -> str:
    found = _COLORS.get(str(color).strip().lower())
    if found is None:
        raise ValueError(f"a colour is 'B'/'black' or 'W'/'white', not {color!r}")
    return found


def _floats(text: str) -> list[tuple[str, float]]:
    words = text.split()
    return [(words[i].upper(), float(words[i + 1])) for i in range(0, len(words) - 1, 2)]


class Engine:
    """The vetted client of one declared engine (a GTP engine: GNU Go). Every call is bounded
    in time (``timeout`` seconds, the engine's default when None); a refused command raises
    :class:`GtpError`, a slow one :class:`EngineTimeout`, a missing engine
    :class:`EngineUnavailable` -- all :class:`EngineError`, never a silent default."""

    def __init__(self, name: str) -> None:
        if name not in REGISTRY:
            raise EngineUnavailable(f"no engine named {name!r} is known "
                                    f"(known: {', '.join(sorted(REGISTRY))})")
        self.name = name
        self.spec = REGISTRY[name]

    # -- the protocol ---------------------------------------------------------------------
    def commands(self, texts: list[str], timeout: float | None = None) -> list[str]:
        """Send GTP commands in order (one round trip); their answers (the text after ``=``).
        Stops at the first that fails and raises for it."""
        limit = min(float(timeout) if timeout else self.spec.timeout_s, MAX_TIMEOUT_S)
        channel = _channel_for(self.name)
        wait = limit * max(1, len(texts)) + CLIENT_SLACK_S
        reply = channel.request({"engine": self.name, "op": "gtp", "cmds": list(texts),
                                 "timeout": limit}, wait)
        if "ok" in reply and type(reply["ok"]) is list:
            return [str(a) for a in reply["ok"]]
        message = str(reply.get("err", "the engine call failed"))[:500]
        kind = reply.get("kind")
        raise {"timeout": EngineTimeout, "gtp": GtpError, "unavailable": EngineUnavailable}.get(
            kind if type(kind) is str else "", EngineError)(message)

    def command(self, text: str, timeout: float | None = None) -> str:
        """One GTP command's answer."""
        return self.commands([text], timeout)[0]

    def restart(self) -> None:
        """A fresh engine process for the next command (same fixed settings, empty caches)."""
        channel = _channel_for(self.name)
        channel.request({"engine": self.name, "op": "restart"}, self.spec.timeout_s)

    def version(self) -> str:
        """The engine's name and version, e.g. ``"GNU Go 3.8"``."""
        channel = _channel_for(self.name)
        entry = channel.state.get(self.name) or {}
        if not entry.get("ok"):
            raise EngineUnavailable(str(entry.get("error", f"{self.name} is unavailable")))
        return str(entry.get("version", ""))

    # -- helpers --------------------------------------------------------------------------
    def new_game(self, size: int, komi: float = 7.5, moves: Any = (), level: int | None = None,
                 timeout: float | None = None) -> None:
        """A fresh engine on an empty ``size`` board with ``komi``, at ``level`` (None: the
        spec's), then ``moves`` played in order (pairs of colour and vertex)."""
        self.restart()
        texts = [f"boardsize {int(size)}", "clear_board", f"komi {float(komi):g}"]
        if level is not None:
            texts.append(f"level {int(level)}")
        texts += [f"play {_color(c)} {str(v).strip().upper()}" for c, v in moves]
        self.commands(texts, timeout)

    def boardsize(self, size: int) -> None:
        self.command(f"boardsize {int(size)}")

    def clear_board(self) -> None:
        self.command("clear_board")

    def komi(self, komi: float) -> None:
        self.command(f"komi {float(komi):g}")

    def play(self, color: str, vertex: str) -> None:
        """Play a move (``GtpError`` when it is illegal)."""
        self.command(f"play {_color(color)} {vertex.strip().upper()}")

    def genmove(self, color: str, timeout: float | None = None) -> str:
        """The engine's move for ``color``, played on its board (``PASS`` to pass)."""
        return self.command(f"genmove {_color(color)}", timeout).upper()

    def reg_genmove(self, color: str, timeout: float | None = None) -> str:
        """The engine's move for ``color``, not played (move values are then available)."""
        return self.command(f"reg_genmove {_color(color)}", timeout).upper()

    def is_legal(self, color: str, vertex: str) -> bool:
        return self.command(f"is_legal {_color(color)} {vertex.strip().upper()}") == "1"

    def legal_moves(self, color: str) -> list[str]:
        return self.command(f"all_legal {_color(color)}").upper().split()

    def top_moves(self, color: str, timeout: float | None = None) -> list[tuple[str, float]]:
        """The engine's best moves for ``color`` with their values (points), best first."""
        return _floats(self.command(f"top_moves_{_color(color)}", timeout))

    def move_values(self) -> dict[str, float]:
        """Every move the last move generation valued, with its value (points)."""
        return dict(_floats(self.command("all_move_values")))

    def estimate_score(self) -> float:
        """The engine's quick score estimate, from Black's side (``W+3.5`` -> -3.5)."""
        text = self.command("estimate_score").split()[0]
        if text in ("0", "Jigo"):
            return 0.0
        side, _, points = text.partition("+")
        value = float(points or 0)
        return value if side.upper() == "B" else -value

    def stones(self, color: str) -> list[str]:
        return self.command(f"list_stones {_color(color)}").upper().split()

    def captures(self, color: str) -> int:
        """How many stones ``color`` has captured."""
        return int(self.command(f"captures {_color(color)}"))

    def showboard(self) -> str:
        return self.command("showboard")


def engine(name: str) -> Engine:
    """The client of engine ``name`` (which the bootcamp class declares in ``ENGINES``)."""
    return Engine(name)


if __name__ == "__main__" and sys.argv[1:2] == ["broker"]:
    _first = b""
    while not _first.endswith(b"\n"):
        _chunk = os.read(0, 1 << 16)
        if not _chunk:
            raise SystemExit(0)
        _first += _chunk
    _line, _, _rest = _first.partition(b"\n")
    _specs = [_spec_of(d) for d in json.loads(_line)]
    if _rest:  # (the client writes nothing before the status line: never more than the specs)
        raise SystemExit("the engine broker got a request before its status line")
    _broker(_specs, 0, 1)
