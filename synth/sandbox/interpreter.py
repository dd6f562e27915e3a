"""Which Python a job runs: the sandbox's own, or an audited library's, and its import path.

:func:`find_interpreter` picks the host's CPython >= 3.11 that an unprivileged uid can execute
(probed once, as that uid: :func:`probe_run`), and :func:`interpreter_path` its standard
library. The rest of this module is about an audited library's own interpreter.

``synth audit --python PY --path DIR`` runs every module of an existing library with the
library's interpreter and extra import directories, so that its dependencies (numpy, sympy, its
own ``libs`` package) resolve and a module is judged instead of "cannot judge". The mechanism
is two fields of :class:`~synth.sandbox.base.SandboxJob`, ``python`` and ``python_path``, which
the process and bwrap backends honour (docker refuses such a job: its image has its own
interpreter):

* the job runs ``python`` by its real path with the same flags as ever (``-s -S -B``: no
  ``site``, so no ``.pth`` file of the library runs);
* ``python_path`` is importable read-only, *after* the work dir (kit, shim, module) and the
  interpreter's standard library (``PYTHONPATH`` set by the backend, never by the job), so no
  module of the library shadows the standard library the kit imports; bwrap binds each
  directory read-only and the shared libraries its extension modules load.

**The given interpreter never runs on the host.** It comes with the audited library, so it is
as untrusted as the library's modules (a "python3" that is a shell script, a copied CPython
whose ``encodings`` package opens sockets and leaves daemons behind). What the host needs is
read from the filesystem by :func:`inspect_python`: the symlinks of the path are followed (a
loop is an error), the file must be an ELF program (a script is refused), its installation is
found the way CPython's own ``getpath`` finds it (a ``pyvenv.cfg`` next to the real file names
``home``; above that, the first folder with ``lib/pythonX.Y/os.py``), which gives the version
(the real file's name ``pythonX.Y``, a venv's ``version``, the standard library's folder: they
must agree), the ``sys.path`` it computes under ``-s -S`` (``lib/pythonXY.zip``,
``lib/pythonX.Y``, ``lib-dynload``) and the ``site-packages`` folders (a venv's, read from its
``pyvenv.cfg``, and the installation's when the venv includes them, as ``site`` would name
them). The backends use the same inspection for every job with a ``python`` (the process
backend checks it, both take its standard library from it) instead of asking the interpreter
(bwrap's ``ldd`` still reads its shared libraries, as an unprivileged uid: glibc's ``ldd`` runs
the system's loader in trace mode, which maps the program and exits before any of it runs).
Then :func:`confirm_in_sandbox` runs it once, *in the sandbox* of the audit (bwrap: no network,
read-only binds, a pid namespace that dies with the job; process as root: a private uid and
network namespace, every process of the uid killed), to check that it is the CPython the
filesystem says it is.

:func:`library_python` resolves the user's options once, on the host, from that inspection:
the site-packages join the path after the ``--path`` directories. :class:`LibraryBackend`
wraps a backend so that every job the gate starts -- the module's method server, the
determinism check's second process, the checker, the reference program -- carries both
fields, without the gate knowing about them.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from synth.sandbox.base import (
    PYTHON_FLAGS,
    Limits,
    Outcome,
    RunResult,
    SandboxJob,
    SpawningBackend,
)
from synth.sandbox.identity import Identity, new_identity, release_identity

__all__ = [
    "LIBRARY_ENV",
    "LibraryBackend",
    "LibraryPython",
    "PythonInstall",
    "confirm_in_sandbox",
    "find_interpreter",
    "inspect_python",
    "interpreter_path",
    "job_interpreter",
    "job_stdlib",
    "library_python",
    "probe_run",
    "site_packages",
    "unreadable",
    "unusable",
]

#: The oldest interpreter the sandbox kit runs on.
MIN_VERSION = (3, 11)
_LIBDIRS = ("lib", "lib64")  # CPython's platlibdir: Debian's and most builds' lib, Fedora's lib64
_NAME = re.compile(r"python(\d+)\.(\d+)[dt]*")  # python3.11, python3.13t, python3.12d
_CFG_BYTES = 64 * 1024


@dataclass(frozen=True)
class PythonInstall:
    """What the filesystem says about an interpreter, read without running it."""

    exe: str  # the given path, absolute and normalised
    real: str  # the file it resolves to (what a job executes)
    version: tuple[int, int]
    prefix: str  # the installation: the folder holding lib/pythonX.Y/os.py
    stdlib: tuple[str, ...]  # the absolute sys.path it computes under -s -S
    site: tuple[str, ...]  # its site-packages folders that exist (a venv's first)
    venv: str = ""  # the venv's pyvenv.cfg, or ""


def _config(path: str) -> dict[str, str]:
    """The ``key = value`` lines of a ``pyvenv.cfg`` (the first 64 KiB; keys lower-cased)."""
    with open(path, "rb") as fh:
        text = fh.read(_CFG_BYTES).decode("utf-8", errors="replace")
    found: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            found.setdefault(key.strip().lower(), value.strip())
    return found


def _venv_config(exe: str) -> str:
    """The ``pyvenv.cfg`` next to ``exe`` or one folder up (where ``getpath`` looks), or ""."""
    here = os.path.dirname(exe)
    for folder in (here, os.path.dirname(here)):
        cfg = os.path.join(folder, "pyvenv.cfg")
        if os.path.isfile(cfg):
            return cfg
    return ""


def _cfg_version(cfg: dict[str, str]) -> tuple[int, int] | None:
    """major.minor of a venv's ``version`` (``python -m venv``) or ``version_info``
    (virtualenv), or None."""
    for key in ("version", "version_info"):
        found = re.match(r"(\d+)\.(\d+)", cfg.get(key, ""))
        if found:
            return int(found.group(1)), int(found.group(2))
    return None


def _landmarks(folder: str, version: tuple[int, int] | None) -> dict[tuple[int, int], str]:
    """{version: libdir} of the standard libraries directly under ``folder``
    (``folder/lib/pythonX.Y/os.py``), only ``version``'s when it is known."""
    found: dict[tuple[int, int], str] = {}
    for libdir in _LIBDIRS:
        base = os.path.join(folder, libdir)
        if version is not None:
            names = [f"python{version[0]}.{version[1]}"]
        else:
            try:
                names = sorted(os.listdir(base))
            except OSError:
                continue
        for name in names:
            match = re.fullmatch(r"python(\d+)\.(\d+)", name)
            stdlib = os.path.join(base, name)
            if match and any(os.path.isfile(os.path.join(stdlib, f)) for f in ("os.py", "os.pyc")):
                found.setdefault((int(match.group(1)), int(match.group(2))), libdir)
    return found


def _installation(start: str, version: tuple[int, int] | None,
                  shown: str) -> tuple[str, tuple[int, int], str]:
    """(prefix, version, libdir): the first folder from ``start`` up that holds a standard
    library, as ``getpath`` searches. ``ValueError`` when none does or the version is
    ambiguous."""
    folder = start
    while True:
        found = _landmarks(folder, version)
        if len(found) > 1:
            names = ", ".join(f"{folder}/{lib}/python{v[0]}.{v[1]}"
                              for v, lib in sorted(found.items()))
            raise ValueError(f"{shown}: cannot tell its version from its name, and its "
                             f"installation has several standard libraries ({names}): give "
                             "the versioned program (bin/pythonX.Y)")
        if found:
            (ver, libdir), = found.items()
            return folder, ver, libdir
        parent = os.path.dirname(folder)
        if parent == folder:
            what = f"lib/python{version[0]}.{version[1]}/os.py" if version else \
                "lib/pythonX.Y/os.py"
            raise ValueError(f"{shown}: no standard library ({what}) in {start} or a folder "
                             "above it, so it is not a CPython installation or a venv made "
                             "from one: give the python of such an installation or venv")
        folder = parent


def _system_site(prefix: str, libdir: str, version: tuple[int, int]) -> list[str]:
    """The installation's own site folders, as ``site.getsitepackages()`` names them (CPython's
    ``lib/pythonX.Y/site-packages``; Debian's ``dist-packages``)."""
    ver = f"python{version[0]}.{version[1]}"
    return [os.path.join(prefix, libdir, ver, "site-packages"),
            os.path.join(prefix, "lib", ver, "site-packages"),
            os.path.join(prefix, "local", "lib", ver, "dist-packages"),
            os.path.join(prefix, "lib", f"python{version[0]}", "dist-packages"),
            os.path.join(prefix, "lib", ver, "dist-packages")]


def inspect_python(python: str) -> PythonInstall:
    """What the interpreter ``python`` is, read from the filesystem (it is never run, see the
    module docstring). ``ValueError`` naming the problem: missing, a symlink loop, not a
    regular file, a script or no ELF program, no CPython installation found, versions that
    disagree, older than 3.11."""
    exe = os.path.normpath(os.path.abspath(python))
    try:
        st = os.stat(exe)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ValueError(f"{exe} is a symlink loop, not an interpreter") from exc
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            raise ValueError(f"{exe} does not exist" + (
                " (a symlink to a missing file)" if os.path.islink(exe) else "")) from exc
        raise ValueError(f"cannot look at {exe}: {exc.strerror}") from exc
    real = os.path.realpath(exe)
    shown = exe if real == exe else f"{exe} (it is {real})"
    if stat.S_ISDIR(st.st_mode):
        raise ValueError(f"{shown} is a folder, not an interpreter: give its bin/python3")
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{shown} is not a regular file, so not an interpreter")
    try:
        with open(real, "rb") as fh:
            head = fh.read(128)
    except OSError as exc:
        raise ValueError(f"cannot read {shown}: {exc.strerror}") from exc
    if head.startswith(b"#!"):
        line = head[2:].split(b"\n", 1)[0].decode("utf-8", errors="replace").strip()
        raise ValueError(f"{shown} is a script (#!{line[:60]}), not an interpreter: give the "
                         "interpreter program itself (a venv's bin/python3.X, or the "
                         "installation's), which synth reads without running it")
    if not head.startswith(b"\x7fELF"):
        raise ValueError(f"{shown} is not a program (no ELF header), so not an interpreter")
    named = _NAME.fullmatch(os.path.basename(real))
    version = (int(named.group(1)), int(named.group(2))) if named else None
    # the installation, as the job's process (run by its real path) finds it
    own_cfg = _venv_config(real)
    start = os.path.dirname(real)
    if own_cfg:  # a venv made with --copies: its home is the installation's bin folder
        home = _config(own_cfg).get("home", "")
        if home and os.path.isabs(home):
            start = os.path.normpath(home)
    prefix, version, libdir = _installation(start, version, shown)
    # the venv of the given path (a symlink into the installation, or a copy)
    cfg_path = _venv_config(exe)
    cfg = _config(cfg_path) if cfg_path else {}
    said = _cfg_version(cfg)
    if said is not None and said != version:
        raise ValueError(f"{shown} is Python {version[0]}.{version[1]}, but its venv "
                         f"({cfg_path}) was made by Python {said[0]}.{said[1]}: recreate the "
                         "venv")
    if version < MIN_VERSION:
        raise ValueError(f"{shown} is Python {version[0]}.{version[1]}; the sandbox kit needs a "
                         f"CPython >= {MIN_VERSION[0]}.{MIN_VERSION[1]}: give the python of a "
                         "venv made with a newer one")
    ver = f"python{version[0]}.{version[1]}"
    stdlib = [os.path.join(prefix, libdir, f"python{version[0]}{version[1]}.zip"),
              os.path.join(prefix, libdir, ver)]
    stdlib += [d for d in dict.fromkeys(os.path.join(prefix, lib, ver, "lib-dynload")
                                        for lib in (libdir, *_LIBDIRS))
               if os.path.isdir(d)][:1]
    site: list[str] = []
    system = True
    if cfg_path:
        venv = os.path.dirname(cfg_path)
        site += [os.path.join(venv, lib, ver, "site-packages") for lib in _LIBDIRS]
        system = cfg.get("include-system-site-packages", "").lower() == "true"
    if system:
        site += _system_site(prefix, libdir, version)
    real_site: dict[str, str] = {}  # one entry per folder (a venv's lib64 is often a symlink to its lib)
    for d in map(os.path.normpath, site):
        if os.path.isdir(d):
            real_site.setdefault(os.path.realpath(d), d)
    found = tuple(real_site.values())
    return PythonInstall(exe=exe, real=real, version=version, prefix=prefix,
                         stdlib=tuple(stdlib), site=found, venv=cfg_path)


def unreadable(path: str, private: bool) -> str:
    """Why a job's uid cannot import from the directory ``path``, or "". A private uid is
    "other" to every file: the directory needs ``o+rx`` and every directory above it ``o+x``."""
    if not os.path.isdir(path):
        return f"{path} is not a directory"
    if not private:
        return "" if os.access(path, os.R_OK | os.X_OK) else f"{path} is not readable"
    current = path
    need = stat.S_IROTH | stat.S_IXOTH
    while True:
        mode = os.stat(current).st_mode
        if mode & need != need:
            return (f"{current} is not readable by other users (mode {stat.filemode(mode)}), so "
                    f"the sandbox's unprivileged uid cannot import from {path}: chmod o+rx it, "
                    "or copy the folder somewhere world-readable")
        need = stat.S_IXOTH
        parent = os.path.dirname(current)
        if parent == current:
            return ""
        current = parent


def unusable(inst: PythonInstall, private: bool) -> str:
    """Why a job's uid cannot run the inspected interpreter, or "". A private uid is "other":
    the real file needs ``o+x`` and every folder above it ``o+x``; its standard library must
    be readable (as :func:`unreadable` says)."""

    shown = inst.exe if inst.real == inst.exe else f"{inst.exe} (it is {inst.real})"
    if not private:
        if not os.access(inst.real, os.X_OK):
            return f"{shown} is not executable by this user"
    else:
        current = inst.real
        need = stat.S_IXOTH
        while True:
            mode = os.stat(current).st_mode
            if mode & need != need:
                return (f"{current} is not executable or searchable by other users (mode "
                        f"{stat.filemode(mode)}), so the sandbox's unprivileged uid cannot run "
                        f"{shown}: chmod o+x it, or use an interpreter installed elsewhere")
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
    problem = unreadable(inst.stdlib[1], private)
    return f"{shown}: its standard library: {problem}" if problem else ""


def site_packages(python: str) -> tuple[tuple[str, ...], str]:
    """(site-packages directories, the venv's pyvenv.cfg or "") of the interpreter ``python``,
    read from the filesystem (:func:`inspect_python`). Raises ``ValueError``."""
    inst = inspect_python(python)
    return inst.site, inst.venv


@dataclass(frozen=True)
class LibraryPython:
    """Where an audited library's code runs from: its interpreter ("" = the sandbox's own)
    and the directories it imports from (``--path`` first, then the interpreter's
    site-packages, :attr:`site`)."""

    python: str = ""
    path: tuple[str, ...] = ()
    site: tuple[str, ...] = ()
    venv: str = ""
    version: tuple[int, int] | None = None  # the interpreter's, read from its installation
    stdlib: tuple[str, ...] = ()  # the sys.path it computes (PythonInstall.stdlib)

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


def library_python(python: str | None = None, paths: list[str] | tuple[str, ...] = (),
                   *, site: bool = True) -> LibraryPython:
    """Resolve ``--python`` and ``--path`` on the host without running anything, or
    ``ValueError`` with a message that says what to do: the interpreter is a CPython >= 3.11
    installation or venv (:func:`inspect_python`) that the sandbox's uid can execute; each
    directory exists and that uid can read it. ``site``: add the interpreter's site-packages
    after ``paths``."""
    dirs: list[str] = []
    for raw in paths:
        path = os.path.normpath(os.path.abspath(raw))
        problem = unreadable(path, _private())
        if problem:
            raise ValueError(f"--path {raw}: {problem}")
        dirs.append(path)
    exe, venv = "", ""
    found: tuple[str, ...] = ()
    version: tuple[int, int] | None = None
    stdlib: tuple[str, ...] = ()
    if python:
        try:
            inst = inspect_python(python)
        except ValueError as exc:
            raise ValueError(f"--python {python}: {exc}") from exc
        problem = unusable(inst, _private())
        if problem:
            raise ValueError(f"--python {python}: {problem}")
        exe, version, stdlib = inst.exe, inst.version, inst.stdlib
        if site:
            found, venv = inst.site, inst.venv
            for d in found:
                problem = unreadable(d, _private())
                if problem:
                    raise ValueError(f"--python {python}: its site-packages: {problem}")
    search = tuple(dict.fromkeys((*dirs, *found)))
    try:
        SandboxJob(argv=["x.py"], python=exe, python_path=list(search))
    except ValueError as exc:
        raise ValueError(f"cannot use these paths in the sandbox: {exc}") from exc
    return LibraryPython(python=exe, path=search, site=tuple(d for d in found if d not in dirs),
                         venv=venv, version=version, stdlib=stdlib)


#: Run by the audited interpreter in the sandbox (:func:`confirm_in_sandbox`): what it is and
#: the ``sys.path`` entries it computed itself (after the script's folder and ``PYTHONPATH``).
_CONFIRM = r"""
import json, os, sys
given = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
rest = sys.path[1:]  # [0]: the script's folder
own = rest[len(given):] if rest[:len(given)] == given else rest
print("synth-confirm " + json.dumps({
    "implementation": sys.implementation.name, "version": list(sys.version_info[:2]),
    "computed": [os.path.realpath(p) for p in own if os.path.exists(p)],
    "os": os.path.realpath(os.path.dirname(os.__file__))}))
"""


def confirm_in_sandbox(backend: LibraryBackend) -> None:
    """Run the library's interpreter once *in the sandbox* (``backend`` wraps the audit's) and
    check that it is the CPython its installation says (version, standard library), or
    ``ValueError`` saying what it did instead. Nothing when there is no ``--python``."""
    lib = backend.lib
    if not lib.python or lib.version is None:
        return
    job = SandboxJob(files={"confirm.py": _CONFIRM}, argv=["confirm.py"])
    res = backend.run(job, Limits(wall_s=30, cpu_s=10))
    lines = [x for x in res.stdout.splitlines() if x.startswith("synth-confirm ")]
    info: Any = None
    if res.outcome is Outcome.PASSED and lines:
        try:
            info = json.loads(lines[-1].split(" ", 1)[1])
        except ValueError:
            info = None
    want = f"CPython {lib.version[0]}.{lib.version[1]}"
    if not isinstance(info, dict):
        said = (res.stderr.strip() or res.detail.strip() or res.stdout.strip())[-300:]
        what = ("it exited without a Python's answer" if res.outcome is Outcome.PASSED
                else f"outcome {res.outcome.value}") + (f": {said}" if said else "")
        raise ValueError(f"--python {lib.python} did not run as {want} in the {backend.name} "
                         f"sandbox ({what}): give the python of a CPython installation or of "
                         "a venv made from one")
    impl, version = info.get("implementation"), info.get("version")
    if impl != "cpython" or version != list(lib.version):
        raise ValueError(f"--python {lib.python} is {impl} {version} in the sandbox, not the "
                         f"{want} its installation says: give the python of a CPython "
                         "installation or of a venv made from one")
    allowed = {*lib.stdlib, *(os.path.realpath(p) for p in lib.stdlib)}
    computed = info.get("computed")
    strays = [p for p in (computed if isinstance(computed, list) else [None])
              if p not in allowed]
    if info.get("os") not in allowed or strays:
        raise ValueError(f"--python {lib.python} takes its standard library from "
                         f"{info.get('os')} ({', '.join(map(str, strays)) or 'no stray path'}),"
                         f" not from {lib.stdlib[1]} as its installation says")


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


def probe_run(argv: list[str], private: bool, timeout: float = 20.0) -> subprocess.CompletedProcess[str]:
    """Run a host-side probe (an interpreter's version or ``sys.path``, ``ldd``) as a fresh
    unprivileged uid when ``private`` (as root), with an empty environment, from ``/``: probes
    of an interpreter or libraries that came with an audited library never run as root.
    Raises ``OSError`` / ``subprocess.SubprocessError``."""
    ident = new_identity() if private else Identity(os.getuid(), os.getgid(), False)
    try:
        return subprocess.run(
            argv,
            user=ident.uid if ident.private else None,
            group=ident.gid if ident.private else None,
            extra_groups=[] if ident.private else None,
            env={"PATH": "/usr/bin:/bin"},
            cwd="/",
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    finally:
        release_identity(ident)


_VERSION_PROBE = "import sys; print(sys.version_info >= (3, 11))"


def _usable(python: str, private: bool) -> bool:
    try:
        out = probe_run([python, *PYTHON_FLAGS, "-c", _VERSION_PROBE], private)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0 and out.stdout.strip() == "True"


@lru_cache(maxsize=4)
def find_interpreter(private: bool) -> str:
    """A CPython >= 3.11 that the job's uid can execute (probed once per mode)."""
    candidates = [os.path.realpath(sys.executable)]
    base = getattr(sys, "_base_executable", None)
    if base:
        candidates.append(os.path.realpath(base))
    candidates += ["/usr/bin/python3", "/usr/bin/python3.11", "/usr/local/bin/python3"]
    seen: list[str] = []
    for cand in candidates:
        if cand in seen or not os.path.exists(cand):
            continue
        seen.append(cand)
        if _usable(cand, private):
            return cand
    raise RuntimeError(
        "no Python >= 3.11 that an unprivileged uid can execute (tried "
        + ", ".join(seen)
        + "); install python3 (apt-get install -y python3)"
    )


def job_interpreter(python: str, private: bool) -> str:
    """``python`` (a job's own interpreter, :attr:`SandboxJob.python`) once its installation
    says it is a CPython >= 3.11 that the job's uid can execute; else ``RuntimeError`` saying
    why. Read from the filesystem (:func:`synth.sandbox.interpreter.inspect_python`): it
    comes with an audited library and never runs on the host."""
    try:
        problem = unusable(inspect_python(python), private)
    except ValueError as exc:
        problem = f"the interpreter {exc}"
    if problem:
        raise RuntimeError(problem)
    return python


def job_stdlib(python: str) -> tuple[str, ...]:
    """The standard library entries of a job's own interpreter's ``sys.path`` (as
    :func:`interpreter_path` for the backend's own), read from its installation, not asked."""
    try:
        return inspect_python(python).stdlib
    except ValueError as exc:
        raise RuntimeError(f"the interpreter {exc}") from exc


@lru_cache(maxsize=16)
def interpreter_path(python: str, private: bool = False) -> tuple[str, ...]:
    """The absolute entries of ``python``'s ``sys.path`` under :data:`PYTHON_FLAGS`: its
    standard library (and ``lib-dynload``), nothing installed. Probed once."""
    done = probe_run([python, *PYTHON_FLAGS, "-c", "import sys\nfor p in sys.path:\n    print(p)"],
                     private, timeout=30)
    if done.returncode != 0:
        raise RuntimeError(f"{python} could not list its sys.path: {done.stderr[-300:]}")
    return tuple(p for p in done.stdout.splitlines() if p.startswith("/"))
