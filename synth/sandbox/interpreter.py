"""An audited library's own interpreter and import path, inside the sandbox.

``synth audit --python PY --path DIR`` runs every module of an existing library with the
library's interpreter and extra import directories, so that its dependencies (numpy, sympy, its
own ``libs`` package) resolve and a module is judged instead of "cannot judge". The mechanism
is two fields of :class:`~synth.sandbox.base.SandboxJob`, ``python`` and ``python_path``, which
the process and bwrap backends honour (docker refuses such a job: its image has its own
interpreter):

* the job runs ``python`` (after the usual check that its uid can execute it and that it is a
  CPython >= 3.11, which the kit needs) with the same flags as ever (``-s -S -B``: no ``site``,
  so no ``.pth`` file of the library runs);
* ``python_path`` is importable read-only, *after* the work dir (kit, shim, module) and the
  interpreter's standard library (``PYTHONPATH`` set by the backend, never by the job), so no
  module of the library shadows the standard library the kit imports; bwrap binds each
  directory read-only and the shared libraries its extension modules load.

:func:`library_python` resolves the user's options once, on the host: the interpreter's own
``site-packages`` (a venv's, read from its ``pyvenv.cfg``, or the installation's) are found by a
probe that runs that interpreter as an unprivileged uid with ``-S`` (nothing of the library
runs) and join the path after the ``--path`` directories. :class:`LibraryBackend` wraps a
backend so that every job the gate starts -- the module's method server, the determinism
check's second process, the checker, the reference program -- carries both fields, without
the gate knowing about them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from synth.sandbox.base import (
    PYTHON_FLAGS,
    Limits,
    RunResult,
    SandboxJob,
    SpawningBackend,
)

__all__ = ["LIBRARY_ENV", "LibraryBackend", "LibraryPython", "library_python", "site_packages"]

#: Run by the audited interpreter with ``-s -S -B`` (``site`` imported, never run): its
#: site-packages directories, a venv's from its ``pyvenv.cfg`` (under ``-S`` the interpreter
#: does not know it is in a venv, and Debian's ``site`` would then name only dist-packages).
_SITE_PROBE = r"""
import json, os, site, sys
exe_dir = os.path.dirname(os.path.abspath(sys.executable))
prefix = os.path.dirname(exe_dir)
conf = next((c for c in (os.path.join(exe_dir, "pyvenv.cfg"), os.path.join(prefix, "pyvenv.cfg"))
             if os.path.isfile(c)), None)
dirs = []
system = True
if conf is not None:
    system = False
    with open(conf, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            key, sep, value = line.partition("=")
            if sep and key.strip().lower() == "include-system-site-packages":
                system = value.strip().lower() == "true"
    version = "python%d.%d" % sys.version_info[:2]
    for libdir in dict.fromkeys((sys.platlibdir, "lib")):
        dirs.append(os.path.join(prefix, libdir, version, "site-packages"))
if system:
    dirs += site.getsitepackages()
dirs = [d for d in dict.fromkeys(dirs) if os.path.isdir(d)]
print(json.dumps({"version": list(sys.version_info[:3]), "venv": conf, "site": dirs}))
"""


@dataclass(frozen=True)
class LibraryPython:
    """Where an audited library's code runs from: its interpreter ("" = the sandbox's own)
    and the directories it imports from (``--path`` first, then the interpreter's
    site-packages, :attr:`site`)."""

    python: str = ""
    path: tuple[str, ...] = ()
    site: tuple[str, ...] = ()
    venv: str = ""

    def __bool__(self) -> bool:
        return bool(self.python or self.path)

    def describe(self) -> str:
        """One line for a summary."""
        parts = []
        if self.python:
            parts.append(f"interpreter {self.python}" + (f" (venv {self.venv})" if self.venv else ""))
        if self.path:
            parts.append("import path " + ", ".join(self.path))
        return "; ".join(parts) or "the sandbox's own interpreter"


def _private() -> bool:
    return os.geteuid() == 0


def site_packages(python: str) -> tuple[tuple[str, ...], str]:
    """(site-packages directories, the venv's pyvenv.cfg or "") of the interpreter ``python``,
    from a probe run as an unprivileged uid (see :data:`_SITE_PROBE`). Raises ``ValueError``."""
    from synth.sandbox.process import probe_run

    try:
        done = probe_run([python, *PYTHON_FLAGS, "-c", _SITE_PROBE], _private(), timeout=30)
        info = json.loads(done.stdout.strip().splitlines()[-1])
    except (OSError, ValueError, IndexError) as exc:
        raise ValueError(f"could not ask {python} for its site-packages: {exc}") from exc
    site = info.get("site") if isinstance(info, dict) else None
    if not isinstance(site, list) or not all(isinstance(d, str) for d in site):
        raise ValueError(f"{python} gave a malformed answer about its site-packages")
    return tuple(os.path.normpath(d) for d in site), str(info.get("venv") or "")


def library_python(python: str | None = None, paths: list[str] | tuple[str, ...] = (),
                   *, site: bool = True) -> LibraryPython:
    """Resolve ``--python`` and ``--path`` on the host, or ``ValueError`` with a message that
    says what to do: the interpreter exists, the sandbox's uid can execute it and it is
    >= 3.11; each directory exists and that uid can read it. ``site``: add the interpreter's
    site-packages after ``paths``."""
    from synth.sandbox.process import job_interpreter, unreadable

    dirs: list[str] = []
    for raw in paths:
        path = os.path.normpath(os.path.abspath(raw))
        problem = unreadable(path, _private())
        if problem:
            raise ValueError(f"--path {raw}: {problem}")
        dirs.append(path)
    exe, venv = "", ""
    found: tuple[str, ...] = ()
    if python:
        exe = os.path.normpath(os.path.abspath(python))
        try:
            job_interpreter(exe, _private())
        except RuntimeError as exc:
            raise ValueError(f"--python {python}: {exc}") from exc
        if site:
            found, venv = site_packages(exe)
            for d in found:
                problem = unreadable(d, _private())
                if problem:
                    raise ValueError(f"--python {python}: its site-packages: {problem}")
    search = tuple(dict.fromkeys((*dirs, *found)))
    try:
        SandboxJob(argv=["x.py"], python=exe, python_path=list(search))
    except ValueError as exc:
        raise ValueError(f"cannot use these paths in the sandbox: {exc}") from exc
    return LibraryPython(python=exe, path=search,
                         site=tuple(d for d in found if d not in dirs), venv=venv)


#: The environment of an audited library's jobs: numeric libraries run one thread (a job has
#: a small process budget, and many run at once) and find their settings already made (numpy
#: calls ``os.putenv`` for ``OPENBLAS_MAIN_FREE`` otherwise, which the kit's guard refuses).
LIBRARY_ENV = {"OPENBLAS_MAIN_FREE": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
               "MKL_NUM_THREADS": "1", "NUMEXPR_NUM_THREADS": "1"}


class LibraryBackend:
    """A backend whose every job runs with an audited library's interpreter and import path
    (:class:`LibraryPython`). It shares the wrapped backend (``close`` leaves it open)."""

    def __init__(self, inner: SpawningBackend, lib: LibraryPython) -> None:
        if inner.name == "docker":
            raise ValueError("the docker backend runs its own image's interpreter and cannot "
                             "expose host paths: use --sandbox bwrap or --sandbox process with "
                             "--python / --path")
        self.inner = inner
        self.lib = lib
        self.name = inner.name

    def job(self, job: SandboxJob) -> SandboxJob:
        """``job`` with the library's interpreter and import path (validated at resolution)."""
        return job.model_copy(update={
            "python": self.lib.python or job.python,
            "python_path": list(dict.fromkeys((*job.python_path, *self.lib.path))),
            "env": {**LIBRARY_ENV, **job.env}})

    def probe(self) -> tuple[bool, str]:
        return self.inner.probe()

    def run(self, job: SandboxJob, limits: Limits) -> RunResult:
        return self.inner.run(self.job(job), limits)

    def spawn(self, job: SandboxJob, limits: Limits) -> Any:
        return self.inner.spawn(self.job(job), limits)

    def close(self) -> None:
        """Nothing of its own to release (the wrapped backend is shared)."""

    def __getattr__(self, name: str) -> Any:  # memory_enforcement, settle, ...
        return getattr(self.inner, name)
