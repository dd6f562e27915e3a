"""The sandbox: untrusted code runs here, never in the pipeline's own interpreter.

Layers (DESIGN.md, "Sandbox layers"): L0 :mod:`~synth.sandbox.static` (an AST lint, not a
boundary); L1 :mod:`~synth.sandbox.process` (fresh interpreter, empty environment, rlimits,
a private uid from :mod:`~synth.sandbox.identity`, a private network namespace when root);
L2 :mod:`~synth.sandbox.bwrap` (namespaces: no network, read-only root, private tmpfs);
L3 ``synth.sandbox.docker`` (a container per job, when an engine answers). The types are in
:mod:`~synth.sandbox.base`; the warm worker pool for ``verify_score`` is
:mod:`~synth.sandbox.pool`.

``get_backend("auto")`` picks the strongest backend that passes its probe (docker, then bwrap,
then process) and says which on stderr, once per process, with how job memory is capped
(``memory: cgroup v1`` / ``cgroup v2`` / ``rlimit (per process)``); falling back to the process
backend is a line starting with ``WARNING:``. A backend named explicitly that cannot run raises
:class:`SandboxUnavailableError` with the reason.
"""

from __future__ import annotations

import importlib
import sys
import threading

from synth.sandbox.base import (
    Backend,
    Limits,
    Outcome,
    RunResult,
    SandboxJob,
    SandboxUnavailableError,
)

__all__ = [
    "BACKEND_NAMES",
    "Backend",
    "Limits",
    "Outcome",
    "RunResult",
    "SandboxJob",
    "SandboxUnavailableError",
    "close_backends",
    "get_backend",
    "run_program",
]

BACKEND_NAMES = ("auto", "process", "bwrap", "docker")

_lock = threading.RLock()
_instances: dict[str, Backend] = {}
_failures: dict[str, str] = {}
_announced = False


def _construct(name: str) -> Backend:
    if name == "process":
        from synth.sandbox.process import ProcessBackend

        return ProcessBackend()
    if name == "bwrap":
        from synth.sandbox.bwrap import BwrapBackend

        return BwrapBackend()
    if name == "docker":
        try:
            module = importlib.import_module("synth.sandbox.docker")
        except ImportError as exc:
            raise SandboxUnavailableError(f"docker backend not importable: {exc}") from exc
        cls = getattr(module, "DockerBackend", None)
        if cls is None:
            raise SandboxUnavailableError("synth.sandbox.docker defines no DockerBackend")
        backend: Backend = cls()
        return backend
    raise ValueError(f"unknown sandbox backend {name!r}; choose one of {', '.join(BACKEND_NAMES)}")


def _working(name: str) -> Backend:
    """The cached, probed backend ``name``; raises SandboxUnavailableError if it cannot run."""
    with _lock:
        if name in _instances:
            return _instances[name]
        if name in _failures:
            raise SandboxUnavailableError(f"sandbox backend {name!r} cannot run: {_failures[name]}")
        try:
            backend = _construct(name)
            ok, reason = backend.probe()
        except SandboxUnavailableError as exc:
            ok, reason = False, str(exc)
        except Exception as exc:  # a broken backend must not take the pipeline down
            ok, reason = False, f"{type(exc).__name__}: {exc}"
        if not ok:
            _failures[name] = reason
            raise SandboxUnavailableError(f"sandbox backend {name!r} cannot run: {reason}")
        _instances[name] = backend
        return backend


def get_backend(name: str = "auto") -> Backend:
    """A ready backend: ``"process"``, ``"bwrap"``, ``"docker"`` or ``"auto"`` (the strongest
    that works here; the choice is printed once on stderr). Instances are shared and cached."""
    global _announced
    if name not in BACKEND_NAMES:
        raise ValueError(
            f"unknown sandbox backend {name!r}; choose one of {', '.join(BACKEND_NAMES)}"
        )
    if name != "auto":
        return _working(name)
    with _lock:
        skipped: list[str] = []
        for candidate in ("docker", "bwrap", "process"):
            try:
                backend = _working(candidate)
            except SandboxUnavailableError as exc:
                skipped.append(f"{candidate}: {exc}")
                continue
            if not _announced:
                _announced = True
                print(_notice(candidate, backend, skipped), file=sys.stderr)
            return backend
    raise SandboxUnavailableError("no sandbox backend can run here: " + "; ".join(skipped))


def _notice(name: str, backend: Backend, skipped: list[str]) -> str:
    """The one-line choice notice; a loud WARNING when only the process backend is left."""
    memory = getattr(backend, "memory_enforcement", "")
    mode = f"memory: {memory}" if memory else ""
    why = f" (not available: {'; '.join(skipped)})" if skipped else ""
    if name == "process":
        detail = "; ".join(
            x for x in ("no filesystem isolation: jobs can read every world-readable file", mode) if x
        )
        return (
            "WARNING: synth sandbox: falling back to the process backend, the weakest layer "
            f"({detail}){why}"
        )
    return f"synth sandbox: using the {name} backend{f' ({mode})' if mode else ''}{why}"


def close_backends() -> None:
    """Close every cached backend (warm containers etc.)."""
    with _lock:
        for backend in _instances.values():
            backend.close()
        _instances.clear()


def run_program(
    code: str, stdin: str = "", limits: Limits | None = None, backend: str = "auto"
) -> RunResult:
    """Run an untrusted standalone Python 3 program (e.g. a reference solution) on ``stdin``.

    The program is ``main.py`` in a fresh work dir; its output is ``RunResult.stdout``.
    """
    job = SandboxJob(files={"main.py": code}, argv=["main.py"], stdin=stdin)
    return get_backend(backend).run(job, limits or Limits())
