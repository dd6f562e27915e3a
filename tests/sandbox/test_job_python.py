"""A job's own interpreter and import path (SandboxJob.python / .python_path), the mechanism
of ``synth audit --python/--path``: the process and bwrap backends run the interpreter and
expose the directories read-only, after the work dir and the standard library; docker refuses.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import require_backend

from synth.sandbox.base import Backend, Limits, Outcome, SandboxJob, host_python_refusal
from synth.sandbox.interpreter import LibraryBackend, library_python, site_packages

PROBE = """
import json, sys
import fakedep
print(json.dumps({"dep": fakedep.VALUE, "json": json.__file__, "exe": sys.executable}))
try:
    open(fakedep.__file__, "a")
except OSError as exc:
    print("write refused:", type(exc).__name__)
"""


def _world_readable_dir(prefix: str) -> Path:
    """A fresh folder in /tmp that the sandbox's unprivileged uid can read (pytest's tmp_path
    is under a 0700 directory)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    folder.chmod(0o755)
    return folder


@pytest.fixture
def libdir() -> Iterator[Path]:
    """A library folder with a pure-Python package ``fakedep`` and a ``json.py`` that must
    not shadow the standard library."""
    folder = _world_readable_dir("synth-jobpy-")
    (folder / "fakedep").mkdir()
    (folder / "fakedep" / "__init__.py").write_text("VALUE = 42\n", encoding="utf-8")
    (folder / "json.py").write_text("raise SystemExit('the library shadowed json')\n",
                                    encoding="utf-8")
    for path in folder.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["process", "bwrap"])
def local(request: pytest.FixtureRequest) -> Backend:
    return require_backend(request.param)


def _run(backend: Backend, **fields: object) -> tuple[Outcome, str, str]:
    job = SandboxJob(files={"p.py": PROBE}, argv=["p.py"], **fields)  # type: ignore[arg-type]
    res = backend.run(job, Limits(wall_s=30, cpu_s=20))
    return res.outcome, res.stdout, res.stderr + res.detail


def test_import_path_resolves_read_only_and_never_shadows_the_stdlib(local: Backend,
                                                                     libdir: Path):
    outcome, out, err = _run(local)
    assert outcome is Outcome.ERROR and "No module named 'fakedep'" in err
    outcome, out, err = _run(local, python_path=[str(libdir)])
    assert outcome is Outcome.PASSED, err
    assert '"dep": 42' in out
    assert str(libdir) not in out.split('"json": ')[1].split(",")[0]  # the stdlib's json
    assert "write refused" in out  # read-only (bind mounts; a private uid in the process backend)


def test_own_interpreter_and_its_venv_site_packages(local: Backend, libdir: Path):
    venv = _world_readable_dir("synth-venv-")
    try:
        import subprocess

        subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", str(venv / "v")],
                       check=True, capture_output=True, timeout=120)
        site, cfg = site_packages(str(venv / "v" / "bin" / "python"))
        assert cfg.endswith("pyvenv.cfg") and len(site) == 1
        shutil.copytree(libdir / "fakedep", Path(site[0]) / "fakedep")
        for path in venv.rglob("*"):
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | stat.S_IROTH | (stat.S_IXOTH if path.is_dir() else 0))
        lib = library_python(str(venv / "v" / "bin" / "python"))
        assert lib.site == site and lib.path == site
        wrapped = LibraryBackend(local, lib)  # type: ignore[arg-type]
        res = wrapped.run(SandboxJob(files={"p.py": PROBE}, argv=["p.py"]), Limits(wall_s=30))
        assert res.outcome is Outcome.PASSED, res.stderr + res.detail
        assert '"dep": 42' in res.stdout
    finally:
        shutil.rmtree(venv, ignore_errors=True)


def test_unreadable_folder_and_missing_interpreter_say_why(local: Backend, libdir: Path):
    if os.geteuid() != 0:
        pytest.skip("the job runs as the caller: every folder the caller reads is readable")
    libdir.chmod(0o700)
    outcome, _, err = _run(local, python_path=[str(libdir)])
    assert outcome is Outcome.SANDBOX_ERROR and "not readable by other users" in err
    with pytest.raises(ValueError, match="chmod o\\+rx"):
        library_python(None, [str(libdir)])
    outcome, _, err = _run(local, python="/nonexistent/bin/python3")
    assert outcome is Outcome.SANDBOX_ERROR and "does not exist" in err
    with pytest.raises(ValueError, match="--python"):
        library_python("/nonexistent/bin/python3")


def test_job_fields_are_validated_and_docker_refuses():
    for bad in ("relative/dir", "/a/../b", "/a:b"):
        with pytest.raises(ValueError):
            SandboxJob(argv=["p.py"], python_path=[bad])
    with pytest.raises(ValueError):
        SandboxJob(argv=["p.py"], python="python3")
    job = SandboxJob(argv=["p.py"], python_path=["/opt/lib"])
    assert "--sandbox bwrap" in host_python_refusal(job, "docker")
    assert host_python_refusal(SandboxJob(argv=["p.py"]), "docker") == ""

    class Docker:
        name = "docker"

    with pytest.raises(ValueError, match="docker"):
        LibraryBackend(Docker(), library_python(None, []))  # type: ignore[arg-type]


# -- the interpreter is read from the filesystem, never run on the host (issue 22, part 4) ----


@pytest.fixture
def venvs() -> Iterator[Path]:
    """``v``: a venv of symlinks with the system's site-packages; ``c``: one of copies."""
    import subprocess

    folder = _world_readable_dir("synth-venvs-")
    for name, flags in (("v", ["--system-site-packages"]), ("c", ["--copies"])):
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", *flags,
                        str(folder / name)], check=True, capture_output=True, timeout=120)
    for path in folder.rglob("*"):
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | stat.S_IROTH | (stat.S_IXOTH if path.is_dir() else 0))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_inspection_agrees_with_what_the_interpreter_says(venvs: Path):
    """The standard library, version and site-packages read from the filesystem are what the
    (trusted, system) interpreter itself reports when asked, for an installation and for both
    kinds of venv."""
    import json
    import subprocess

    from synth.sandbox.interpreter import inspect_python, interpreter_path

    ask = ("import json, sys; print(json.dumps([list(sys.version_info[:2]), [p for p in "
           "sys.path if p.endswith(('site-packages', 'dist-packages'))]]))")
    for python in ("/usr/bin/python3", str(venvs / "v" / "bin" / "python"),
                   str(venvs / "c" / "bin" / "python")):
        inst = inspect_python(python)
        assert inst.stdlib == interpreter_path(os.path.realpath(python)), python  # under -s -S
        version, site = json.loads(subprocess.run(  # with site: what it imports from
            [python, "-s", "-c", ask], capture_output=True, text=True, check=True).stdout)
        assert list(inst.version) == version
        assert list(inst.site) == site, python
        assert bool(inst.venv) == (python != "/usr/bin/python3")


@pytest.mark.parametrize("name", ["process", "bwrap"])
def test_neither_resolution_nor_the_backends_run_the_interpreter_on_the_host(
        name: str, venvs: Path, monkeypatch: pytest.MonkeyPatch):
    """Every host-side probe is recorded: none runs the job's interpreter (``ldd`` may read
    it), while the job itself runs it in the sandbox."""
    import subprocess

    import synth.sandbox.bwrap as bwrap
    import synth.sandbox.process as process

    backend = require_backend(name)
    python = str(venvs / "v" / "bin" / "python")
    ran: list[str] = []
    real_run = subprocess.run

    def recording(argv: Any, *args: Any, **kwargs: Any) -> Any:
        ran.append(os.path.realpath(argv[0]) if isinstance(argv, list) else str(argv))
        return real_run(argv, *args, **kwargs)

    monkeypatch.setattr(process.subprocess, "run", recording)
    bwrap.python_binds.cache_clear()
    lib = library_python(python)
    res = LibraryBackend(backend, lib).run(
        SandboxJob(files={"p.py": "import sys; print(sys.version_info[:2])"}, argv=["p.py"]),
        Limits(wall_s=30))
    assert res.outcome is Outcome.PASSED, res.stderr + res.detail
    assert res.stdout.strip() == "(3, 11)"
    assert os.path.realpath(python) not in ran and python not in ran


def test_unusable_interpreters_say_why(venvs: Path, tmp_path: Path):
    from synth.sandbox.interpreter import inspect_python

    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / "script").write_text("#!/bin/sh\necho hi\n", encoding="utf-8")
    (tmp_path / "data").write_bytes(b"\x00" * 64)
    (tmp_path / "bin").mkdir()
    shutil.copy2("/bin/true", tmp_path / "bin" / "python3.8")
    cfg = venvs / "v" / "pyvenv.cfg"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("version = 3.11", "version = 3.10"),
                   encoding="utf-8")
    cases = {
        tmp_path / "loop": "is a symlink loop",
        tmp_path / "dangling": "does not exist (a symlink to a missing file)",
        tmp_path / "missing": "does not exist",
        tmp_path: "is a folder",
        Path("/dev/null"): "is not a regular file",
        tmp_path / "script": "is a script (#!/bin/sh)",
        tmp_path / "data": "no ELF header",
        tmp_path / "bin" / "python3.8": "no standard library (lib/python3.8/os.py)",
        venvs / "v" / "bin" / "python": "was made by Python 3.10: recreate the venv",
    }
    for python, said in cases.items():
        with pytest.raises(ValueError, match=re.escape(said)):
            inspect_python(str(python))
        with pytest.raises(ValueError, match=re.escape(f"--python {python}: ")):
            library_python(str(python))
