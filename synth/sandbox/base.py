"""The sandbox contract: the types every backend speaks.

A *job* (:class:`SandboxJob`) is a small Python program plus its files: the files are written
into a fresh, private work directory (the job's cwd), and ``argv`` is run there by a plain
CPython (>= 3.11, standard library only: site-packages are never importable). A backend
(:class:`Backend`) runs the job under :class:`Limits` and returns a :class:`RunResult` with a
typed :class:`Outcome`.

How the interpreter is started (identical in every backend; see :data:`PYTHON_FLAGS`)::

    <python> -s -S -B <argv...>

with an environment built from scratch by :func:`build_env` (never inherited from the parent, so
no API key or other secret can reach the job). This is ``python -I -S`` in effect -- ``-I``
means "ignore ``PYTHON*`` variables, no user site, do not put the script's directory on
``sys.path``" -- with two deliberate differences: the environment is ours, so ``PYTHON*``
variables are honoured but only those in :data:`ALLOWED_PYTHON_VARS` (``PYTHONHASHSEED`` must
work: the determinism check runs two processes with different hash seeds); and the script's
directory (the work dir, when ``argv[0]`` is a relative ``.py`` path) IS ``sys.path[0]``, so a
job can ``import synth.bootcamp`` from the ``synth/bootcamp.py`` it ships in ``files``.

Outcomes are backend-level: ``PASSED`` (exit status 0), ``ERROR`` (non-zero exit, or death by a
signal that is not one of the limits), ``TIMEOUT`` (wall clock or CPU limit), ``OOM`` (memory
limit: ``MemoryError`` or a kill attributable to the address-space/cgroup limit),
``OUTPUT_OVERFLOW`` (stdout or stderr exceeded ``Limits.max_output_bytes``; the job is killed),
``SANDBOX_ERROR`` (the infrastructure failed: never the candidate's fault). ``FAILED`` is not
produced by backends; it exists for layers above (the check suite) that judge a run's content.

Long-lived workers (the warm pool) use the optional :class:`SpawningBackend` extension:
``spawn(job, limits)`` starts the job and returns a :class:`Session` with line-oriented pipes.
"""

from __future__ import annotations

import posixpath
import re
from enum import StrEnum
from pathlib import PurePosixPath
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "ALLOWED_PYTHON_VARS",
    "BASE_ENV",
    "PYTHON_FLAGS",
    "Backend",
    "Limits",
    "Outcome",
    "RunResult",
    "SandboxJob",
    "SandboxUnavailableError",
    "Session",
    "SessionError",
    "SpawningBackend",
    "build_env",
    "classify_exit",
    "host_python_refusal",
]

#: Interpreter flags used by every backend: no user site (-s), no ``site`` module (-S), no
#: ``.pyc`` writes (-B). See the module docstring for why this is not literally ``-I``.
PYTHON_FLAGS: tuple[str, ...] = ("-s", "-S", "-B")

#: The environment every job starts from. ``HOME`` and ``TMPDIR`` are set by :func:`build_env`
#: to the job's work dir.
BASE_ENV: dict[str, str] = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "PYTHONIOENCODING": "utf-8",
    "PYTHONDONTWRITEBYTECODE": "1",
}

#: The only ``PYTHON*`` variables a job may set (anything else, e.g. ``PYTHONPATH`` or
#: ``PYTHONSTARTUP``, would change what code runs).
ALLOWED_PYTHON_VARS: frozenset[str] = frozenset(
    {"PYTHONHASHSEED", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONFAULTHANDLER"}
)

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_FORBIDDEN_ENV = frozenset({"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "HOME", "TMPDIR"})


class SandboxUnavailableError(RuntimeError):
    """A backend was requested by name but cannot run here (the message says why and what to do)."""


class SessionError(RuntimeError):
    """A long-lived worker session broke (it exited, or its pipe closed)."""


class Outcome(StrEnum):
    """Typed result of one sandbox run (see the module docstring for the meaning of each)."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    TIMEOUT = "timeout"
    OOM = "oom"
    OUTPUT_OVERFLOW = "output_overflow"
    SANDBOX_ERROR = "sandbox_error"


class Limits(BaseModel):
    """Resource limits of one run. Defaults suit a whole check suite of one candidate."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    wall_s: float = Field(default=20.0, gt=0, le=3600, description="wall-clock limit, then SIGKILL")
    cpu_s: float = Field(
        default=20.0, gt=0, le=3600, description="CPU seconds (RLIMIT_CPU / cgroup)"
    )
    memory_mb: int = Field(default=1024, ge=32, le=65536, description="address space / memory cap")
    file_size_mb: int = Field(
        default=16, ge=0, le=4096, description="largest file the job may write"
    )
    open_files: int = Field(default=128, ge=16, le=65536, description="RLIMIT_NOFILE")
    pids: int = Field(default=64, ge=4, le=4096, description="processes + threads of the job")
    max_output_bytes: int = Field(
        default=2_000_000, ge=1024, le=256_000_000, description="cap per stream (stdout, stderr)"
    )


class SandboxJob(BaseModel):
    """A program to run: files written into a fresh work dir, then ``<python> <flags> argv``."""

    model_config = ConfigDict(extra="forbid")

    files: dict[str, str] = Field(
        default_factory=dict, description="relative POSIX path -> UTF-8 text"
    )
    argv: list[str] = Field(min_length=1, description="argv[0]: a .py path relative to work dir")
    stdin: str = ""
    env: dict[str, str] = Field(default_factory=dict, description="extra environment variables")
    unit: str = Field(
        default="",
        max_length=200,
        description="isolation unit: jobs that may share a warm container (one code hash); "
        "empty = share with nothing",
    )
    python: str = Field(
        default="",
        max_length=4096,
        description="absolute host path of the interpreter to run (an audited library's own, "
        "``synth audit --python``); empty = the backend's own. Process and bwrap only",
    )
    python_path: list[str] = Field(
        default_factory=list,
        max_length=64,
        description="absolute host directories the job may import from, read-only, after the "
        "work dir and the standard library (``synth audit --path``). Process and bwrap only",
    )

    @field_validator("files")
    @classmethod
    def _relative_paths(cls, files: dict[str, str]) -> dict[str, str]:
        for name in files:
            path = PurePosixPath(name)
            if (
                not name
                or path.is_absolute()
                or any(part in ("..", "") for part in path.parts)
                or "\\" in name
                or "\x00" in name
                or name.endswith("/")
            ):
                raise ValueError(
                    f"job file path must be relative and inside the work dir: {name!r}"
                )
        return files

    @field_validator("argv")
    @classmethod
    def _no_nul(cls, argv: list[str]) -> list[str]:
        if any("\x00" in a for a in argv):
            raise ValueError("argv may not contain NUL bytes")
        if argv[0].startswith("-"):
            raise ValueError("argv[0] must be a script path, not an interpreter option")
        return argv

    @field_validator("python")
    @classmethod
    def _interpreter_path(cls, python: str) -> str:
        if python:
            _host_path(python, "the interpreter")
        return python

    @field_validator("python_path")
    @classmethod
    def _import_dirs(cls, dirs: list[str]) -> list[str]:
        for path in dirs:
            _host_path(path, "an import directory")
        return dirs

    @field_validator("env")
    @classmethod
    def _env_allowlist(cls, env: dict[str, str]) -> dict[str, str]:
        for key, value in env.items():
            if not _ENV_NAME.match(key) or "\x00" in value:
                raise ValueError(f"invalid environment variable name or value: {key!r}")
            if key in _FORBIDDEN_ENV:
                raise ValueError(f"a job may not set {key} (the backend sets it)")
            if key.startswith("PYTHON") and key not in ALLOWED_PYTHON_VARS:
                allowed = ", ".join(sorted(ALLOWED_PYTHON_VARS))
                raise ValueError(f"a job may not set {key}; allowed PYTHON* variables: {allowed}")
        return env


def _host_path(path: str, what: str) -> None:
    """A host path a job may name: absolute, normalised, and usable in ``PYTHONPATH``."""
    if not path.startswith("/") or "\x00" in path or ":" in path or path != posixpath.normpath(path):
        raise ValueError(f"{what} must be an absolute, normalised path without ':': {path!r}")


def host_python_refusal(job: SandboxJob, backend: str) -> str:
    """Why ``backend`` cannot run ``job`` when the job names a host interpreter or host import
    directories (a container has neither), else ""."""
    if not (job.python or job.python_path):
        return ""
    return (f"the {backend} backend runs its own image's interpreter and cannot expose host "
            "paths: run with --sandbox bwrap or --sandbox process to use --python / --path")


class RunResult(BaseModel):
    """What a backend observed. ``stdout``/``stderr`` keep at most ``max_output_bytes`` (tail)."""

    model_config = ConfigDict(extra="forbid")

    outcome: Outcome
    exit_code: int | None = None
    signal: int | None = None
    stdout: str = ""
    stderr: str = ""
    elapsed_s: float = 0.0
    backend: str
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.PASSED


def build_env(job: SandboxJob, workdir: str) -> dict[str, str]:
    """The complete environment of a job: :data:`BASE_ENV` + HOME/TMPDIR + ``job.env``."""
    env = dict(BASE_ENV)
    env["HOME"] = workdir
    env["TMPDIR"] = workdir
    env.update(job.env)
    return env


_OOM_MARKERS = ("MemoryError", "Cannot allocate memory", "std::bad_alloc", "out of memory")


def classify_exit(
    returncode: int, stderr: str, *, memory_killed: bool = False
) -> tuple[Outcome, int | None, int | None, str]:
    """Map a finished process (Popen-style returncode) to (outcome, exit_code, signal, detail).

    ``memory_killed`` is set by backends that know the kernel/cgroup killed the job for memory.
    SIGXCPU (and SIGKILL at the hard CPU limit) are reported as TIMEOUT by the caller, who
    knows the CPU time; here SIGXCPU alone is recognised.
    """
    import signal as _signal

    if returncode < 0:
        sig = -returncode
        if memory_killed:
            return Outcome.OOM, None, sig, "killed at the memory limit"
        if sig == _signal.SIGXCPU:
            return Outcome.TIMEOUT, None, sig, "CPU time limit exceeded (SIGXCPU)"
        tail = stderr[-2000:]
        if any(m in tail for m in _OOM_MARKERS):
            return Outcome.OOM, None, sig, f"killed by signal {sig} after running out of memory"
        return Outcome.ERROR, None, sig, f"killed by signal {sig}"
    if returncode == 0:
        return Outcome.PASSED, 0, None, ""
    tail = stderr[-2000:]
    if memory_killed or any(m in tail for m in _OOM_MARKERS):
        return Outcome.OOM, returncode, None, "ran out of memory (memory limit)"
    return Outcome.ERROR, returncode, None, f"exit status {returncode}"


@runtime_checkable
class Backend(Protocol):
    """A way to run a :class:`SandboxJob`. Implementations are thread-safe for ``run``."""

    name: str

    def probe(self) -> tuple[bool, str]:
        """Can this backend run jobs here? Returns (ok, reason). Callers cache the answer."""
        ...

    def run(self, job: SandboxJob, limits: Limits) -> RunResult:
        """Run the job to completion under the limits. Never raises for candidate behaviour;
        infrastructure failures are returned as ``Outcome.SANDBOX_ERROR``."""
        ...

    def close(self) -> None:
        """Release resources (warm containers, ...). Idempotent."""
        ...


@runtime_checkable
class Session(Protocol):
    """A long-lived sandboxed process with line-oriented pipes (used by the warm pool).

    The process runs ``job.argv`` with the job's files and environment under ``limits``,
    except that ``limits.wall_s`` does not bound the session's lifetime (the caller times
    each request). ``limits.cpu_s`` bounds the session's total CPU time.
    """

    def send(self, data: bytes, timeout_s: float | None = None) -> None:
        """Write ``data`` to the process's stdin. Raises :class:`SessionError` if it is gone,
        ``TimeoutError`` if it did not take all of ``data`` within ``timeout_s`` (None: wait)."""
        ...

    def recv_line(self, timeout_s: float, max_bytes: int) -> bytes:
        """Read one ``\\n``-terminated line from stdout (without the newline).

        Raises ``TimeoutError`` when no full line arrived within ``timeout_s``,
        :class:`SessionError` when the process exited or closed stdout, and ``OverflowError``
        when the line is longer than ``max_bytes``.
        """
        ...

    def stderr_tail(self) -> str:
        """The last few KB the process wrote to stderr."""
        ...

    def root_pid(self) -> int | None:
        """The host pid whose process tree is the job (for :mod:`synth.sandbox.runqueue`),
        or None when the job's processes are not a tree of a process of the host's."""
        ...

    def returncode(self) -> int | None:
        """Popen-style return code once the process has exited, else ``None``."""
        ...

    def close(self) -> None:
        """Kill the process and everything it started; remove its work dir. Idempotent."""
        ...


@runtime_checkable
class SpawningBackend(Backend, Protocol):
    """A backend that can also start long-lived worker sessions (for the warm pool)."""

    def spawn(self, job: SandboxJob, limits: Limits) -> Session:
        """Start ``job`` and return a :class:`Session`. Raises ``RuntimeError`` on failure."""
        ...
