"""`synth audit --python PATH` never runs PATH on the host (issue 22, part 4).

The interpreter comes with the audited library, so it is attacked here as the library's code
would be: a "python3" that is a shell script, and a copied CPython whose ``encodings`` package
is hostile. Either, run on the host, connects to a loopback listener the test opens, writes a
marker into /tmp and into the checkout, and leaves a detached (setsid, double-forked) sleeper
behind; a control run of each proves the trap catches that. Through `synth audit` -- process,
bwrap, and docker (refused before anything) -- nothing of it reaches the host and no process
outlives the audit. An honest venv still works, and interpreters that cannot be used are
usage errors that say why.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from audit_helpers import FAKEDEP, invoke, world_readable
from helpers import assert_no_leftovers, processes_with, require_backend

from synth.sandbox.base import Limits, Outcome, SandboxJob

pytestmark = pytest.mark.timeout(600)

REPO = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = Path("/usr/bin/python3")
#: The shell trap's detached process: one process whose command line carries the token.
SLEEPER = "/usr/bin/python3 -S -c 'import time; time.sleep(60)'"


class Trap:
    """What a hostile interpreter does if it runs on the host: connect to :attr:`port`, create
    :attr:`markers` (a world-writable folder in /tmp, the checkout's gitignored
    test-artifacts/), and leave a sleeper whose command line carries :attr:`token`."""

    def __init__(self) -> None:
        self.token = f"synth-trap-{uuid.uuid4().hex[:12]}"
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.scratch = Path(tempfile.mkdtemp(prefix="synth-trap-", dir="/tmp"))
        self.scratch.chmod(0o1777)  # a sandbox's unprivileged uid could write here, too
        checkout = REPO / "test-artifacts"
        checkout.mkdir(exist_ok=True)
        self.markers = (self.scratch / "marker", checkout / f"{self.token}.marker")
        self.before = {pid for pid, _ in processes_with(self.token)}

    def connections(self) -> int:
        count = 0
        while True:
            try:
                conn, _ = self.listener.accept()
            except (TimeoutError, BlockingIOError):
                return count
            conn.close()
            count += 1

    def fired(self) -> dict[str, object]:
        """Every trace of a host run (empty when there is none)."""
        deadline = time.monotonic() + 2.0  # a sleeper still being forked
        while True:
            left = [p for p in processes_with(self.token) if p[0] not in self.before]
            if left or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        traces = {"connections": self.connections(),
                  "markers": [str(m) for m in self.markers if m.exists()],
                  "processes": left}
        return {k: v for k, v in traces.items() if v}

    def reset(self) -> None:
        for pid, _ in processes_with(self.token):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for marker in self.markers:
            marker.unlink(missing_ok=True)
        self.connections()

    def close(self) -> None:
        self.reset()
        self.listener.close()
        shutil.rmtree(self.scratch, ignore_errors=True)

    def shell(self) -> str:
        """The trap as /bin/sh lines."""
        tmp, checkout = self.markers
        return (f"/usr/bin/python3 -S -c 'import socket; socket.create_connection(("
                f"\"127.0.0.1\", {self.port}), 2).close()' 2>/dev/null\n"
                f"touch {tmp} {checkout} 2>/dev/null\n"
                f"( setsid {SLEEPER} {self.token} </dev/null >/dev/null 2>&1 & )\n")

    def python(self, python: str) -> str:
        """The trap as Python that needs only built-in modules (it runs in ``encodings``); its
        sleeper is ``python`` again, told not to spring the trap."""
        sleeper = [python, "-S", "-c", "import time; time.sleep(60)", self.token]
        return f'''
def _synth_trap():
    import _socket, posix
    if posix.environ.get(b"SYNTH_TRAP_SLEEPER"):
        return
    try:
        s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
        s.settimeout(2)
        s.connect(("127.0.0.1", {self.port}))
        s.close()
    except OSError:
        pass
    for path in {[str(m) for m in self.markers]!r}:
        try:
            posix.close(posix.open(path, posix.O_WRONLY | posix.O_CREAT, 0o666))
        except OSError:
            pass
    try:
        pid = posix.fork()
        if pid == 0:
            try:
                posix.setsid()
                if posix.fork() == 0:
                    posix.execve({python!r}, {sleeper!r}, {{"SYNTH_TRAP_SLEEPER": "1"}})
            finally:
                posix._exit(0)
        posix.waitpid(pid, 0)
    except OSError:
        pass


_synth_trap()
del _synth_trap
'''


@pytest.fixture
def trap() -> Iterator[Trap]:
    armed = Trap()
    yield armed
    armed.close()


@pytest.fixture
def scratch() -> Iterator[Path]:
    folder = world_readable("synth-audit-py-")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _open_up(folder: Path) -> None:
    """World-readable (and executable where the owner may execute), never through a symlink
    (some here point at the system's programs, one at itself)."""
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            executable = path.is_dir() or path.stat().st_mode & 0o100
            path.chmod(0o755 if executable else 0o644)


def _hostile_script_venv(root: Path, trap: Trap) -> Path:
    """A venv whose bin/python3 is a shell script: the trap, then the real interpreter (so a
    host probe would even have taken it for Python 3.11)."""
    venv = root / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = false\n"
                                     "version = 3.11.2\n", encoding="utf-8")
    python = venv / "bin" / "python3"
    python.write_text("#!/bin/sh\n" + trap.shell() + 'exec /usr/bin/python3 "$@"\n',
                      encoding="utf-8")
    python.chmod(0o755)
    (venv / "bin" / "python").symlink_to("python3")
    _open_up(venv)
    return venv / "bin" / "python"


def _hostile_installation(trap: Trap) -> Path:
    """A copied CPython 3.11 with a copy of the system's standard library, but for
    ``encodings/__init__.py``, which springs the trap first. Outside /tmp and /var/tmp (the
    sandboxes mount their own there), so that it does run in the sandbox."""
    real = Path(os.path.realpath(SYSTEM_PYTHON))
    stdlib = Path("/usr/lib") / real.name
    if real.name != "python3.11" or not (stdlib / "encodings" / "__init__.py").is_file():
        pytest.skip(f"needs a Debian-style python3.11 at {SYSTEM_PYTHON}")
    base = "/run" if os.access("/run", os.W_OK) else "/var/tmp"
    root = Path(tempfile.mkdtemp(prefix="synth-hostile-", dir=base))
    (root / "bin").mkdir()
    python = root / "bin" / real.name
    shutil.copy2(real, python)
    lib = root / "lib" / real.name
    shutil.copytree(stdlib, lib, ignore=shutil.ignore_patterns(
        "__pycache__", "site-packages", "dist-packages", "test", "idlelib", "tkinter",
        "turtledemo", "ensurepip", "lib2to3"))
    init = lib / "encodings" / "__init__.py"  # a copy: the system's file is never written
    init.write_text(trap.python(str(python)) + init.read_text(encoding="utf-8"), encoding="utf-8")
    _open_up(root)
    return python


def test_the_trap_fires_when_its_interpreter_runs_on_the_host(trap: Trap, scratch: Path):
    """Control: run directly, each hostile interpreter leaves every trace the other tests look
    for (so their "nothing happened" means something)."""
    python = _hostile_script_venv(scratch, trap)
    subprocess.run([str(python), "-S", "-c", "pass"], timeout=60, check=True)
    fired = trap.fired()
    assert set(fired) == {"connections", "markers", "processes"}, fired
    assert len(fired["markers"]) == 2  # type: ignore[arg-type]
    trap.reset()
    assert trap.fired() == {}
    hostile = _hostile_installation(trap)
    try:
        subprocess.run([str(hostile), "-s", "-S", "-B", "-c", "pass"], timeout=60, check=True,
                       env={"PATH": "/usr/bin:/bin"}, cwd="/")
        fired = trap.fired()
        assert set(fired) == {"connections", "markers", "processes"}, fired
    finally:
        shutil.rmtree(hostile.parents[1], ignore_errors=True)


@pytest.mark.parametrize("sandbox", ["process", "bwrap", "docker"])
def test_a_script_interpreter_is_refused_and_never_runs(
        sandbox: str, trap: Trap, scratch: Path, library: Callable[..., Path], tmp_path: Path):
    python = _hostile_script_venv(scratch, trap)
    start = time.monotonic()
    res = invoke(str(library("sum_fine")), "--out", str(tmp_path / "out"), "--sandbox", sandbox,
                 "--python", str(python))
    assert res.exit_code == 2, res.output
    if sandbox == "docker":  # refused first: --python is not even looked at
        assert "docker container cannot see" in res.output
    else:
        assert "is a script (#!/bin/sh), not an interpreter" in res.output
    assert time.monotonic() - start < 30
    assert trap.fired() == {}
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("sandbox", ["process", "bwrap"])
def test_a_hostile_installation_runs_only_in_the_sandbox(
        sandbox: str, trap: Trap, library: Callable[..., Path], tmp_path: Path):
    """A real (copied) CPython 3.11 with a hostile standard library passes every static check:
    it runs -- in the sandbox only. No connection, no marker, no process left afterwards."""
    if sandbox == "process" and os.geteuid() != 0:
        pytest.skip("the process backend without root has no private uid or network namespace")
    require_backend(sandbox)
    hostile = _hostile_installation(trap)
    try:
        res = invoke(str(library("sum_fine")), "--out", str(tmp_path / "out"), "--sandbox",
                     sandbox, "--python", str(hostile))
        assert trap.fired() == {}
        assert_no_leftovers(trap.token, before=trap.before)
        # it works, so the module is judged, the trap sprung in every job of the gate
        assert res.exit_code == 0, res.output
        assert "accepted 1" in res.output
    finally:
        shutil.rmtree(hostile.parents[1], ignore_errors=True)


@pytest.mark.parametrize("name", ["process", "bwrap"])
def test_the_backends_never_run_a_jobs_interpreter_on_the_host(name: str, trap: Trap,
                                                               scratch: Path):
    backend = require_backend(name)
    python = _hostile_script_venv(scratch, trap)
    job = SandboxJob(files={"p.py": "print(1)"}, argv=["p.py"], python=str(python))
    res = backend.run(job, Limits(wall_s=20))
    assert res.outcome is Outcome.SANDBOX_ERROR
    assert "is a script" in res.detail + res.stderr
    assert trap.fired() == {}


def test_a_real_venv_with_system_site_packages_is_audited(
        library: Callable[..., Path], scratch: Path, tmp_path: Path):
    """The honest use: the venv's own site-packages (and, with --system-site-packages, the
    installation's) are found without running it, and a module of the venv imports in the
    audit, on both backends."""
    from synth.sandbox.interpreter import inspect_python

    subprocess.run([str(SYSTEM_PYTHON), "-m", "venv", "--without-pip", "--system-site-packages",
                    str(scratch / "v")], check=True, capture_output=True, timeout=120)
    python = scratch / "v" / "bin" / "python"
    site = next((scratch / "v" / "lib").glob("python3.*/site-packages"))
    (site / "fakedep").mkdir()
    (site / "fakedep" / "__init__.py").write_text(FAKEDEP, encoding="utf-8")
    _open_up(scratch / "v" / "lib")
    inst = inspect_python(str(python))
    assert inst.site[0] == str(site) and inst.venv == str(scratch / "v" / "pyvenv.cfg")
    # what the installation's own site module names (the trusted system python, asked here)
    said = subprocess.run([str(SYSTEM_PYTHON), "-s", "-S", "-c",
                           "import site; print('\\n'.join(site.getsitepackages()))"],
                          capture_output=True, text=True, check=True).stdout.split()
    assert list(inst.site[1:]) == [d for d in said if os.path.isdir(d)]
    for sandbox in ("process", "bwrap"):
        require_backend(sandbox)
        out = tmp_path / sandbox
        res = invoke(str(library("needs_fakedep")), "--out", str(out), "--sandbox", sandbox,
                     "--python", str(python))
        assert res.exit_code == 0, res.output
        assert f"interpreter {python} (venv " in res.output
        assert "accepted 1" in res.output


def _copy_named(source: str, dest: Path) -> Path:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, dest)
    dest.chmod(0o755)
    return dest


def _other_version() -> str | None:
    """A real CPython older than 3.11 on this machine (not a pyenv shim, which is a script)."""
    import glob

    for pattern in ("/usr/bin/python3.[0-9]", "/usr/bin/python3.10", "/usr/local/bin/python3.[0-9]",
                    "/usr/local/bin/python3.10", "/root/.pyenv/versions/3.*/bin/python3.[0-9]",
                    "/root/.pyenv/versions/3.*/bin/python3.10"):
        for found in sorted(glob.glob(pattern)):
            with open(found, "rb") as fh:
                if fh.read(4) == b"\x7fELF":
                    return found
    return None


def test_unusable_interpreters_are_usage_errors(library: Callable[..., Path], scratch: Path,
                                                tmp_path: Path):
    """Nothing here runs on the host: each is refused from what the filesystem says, or (an
    ELF program that is not Python) by its one run in the sandbox."""
    folder = library("sum_fine")
    (scratch / "loop").symlink_to(scratch / "loop")
    (scratch / "text").write_text("print('hello')\n", encoding="utf-8")
    (scratch / "text").chmod(0o755)
    old = _copy_named("/bin/true", scratch / "old" / "bin" / "python3.9")
    (scratch / "old" / "lib" / "python3.9").mkdir(parents=True)
    (scratch / "old" / "lib" / "python3.9" / "os.py").write_text("", encoding="utf-8")
    nolib = _copy_named("/bin/true", scratch / "nolib" / "bin" / "python3.7")
    (scratch / "notpy" / "bin").mkdir(parents=True)
    (scratch / "notpy" / "bin" / "python3").symlink_to("/bin/true")
    mixed = scratch / "mixed" / "bin"
    mixed.mkdir(parents=True)
    (mixed / "python").symlink_to(SYSTEM_PYTHON)
    (mixed.parent / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 3.9.2\n", encoding="utf-8")
    _open_up(scratch)
    cases = [
        (scratch / "loop", "is a symlink loop"),
        (scratch / "missing", "does not exist"),
        (scratch, "is a folder, not an interpreter"),
        (scratch / "text", "no ELF header"),
        (old, "is Python 3.9; the sandbox kit needs a CPython >= 3.11"),
        (nolib, "no standard library (lib/python3.7/os.py)"),
        (mixed / "python", "was made by Python 3.9: recreate the venv"),
        (scratch / "notpy" / "bin" / "python3", "did not run as CPython 3.11 in the process sandbox"),
    ]
    other = _other_version()
    if other is not None:
        cases.append((Path(other), "the sandbox kit needs a CPython >= 3.11"))
    else:
        print("no CPython < 3.11 here: the real other-version case is not tested", file=sys.stderr)
    for python, said in cases:
        start = time.monotonic()
        res = invoke(str(folder), "--out", str(tmp_path / "out"), "--sandbox", "process",
                     "--python", str(python))
        assert res.exit_code == 2, (python, res.output)
        assert said in " ".join(res.output.split()), (python, res.output)
        assert time.monotonic() - start < 30
    assert not (tmp_path / "out").exists()
