"""The Backend contract, checked on every backend: outcomes, limits, environment, files."""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
import threading
import time
from pathlib import Path

import pytest
from helpers import assert_no_leftovers
from pydantic import ValidationError

import synth.sandbox as sandbox
from synth.sandbox import run_program
from synth.sandbox.base import (
    BASE_ENV,
    Backend,
    Limits,
    Outcome,
    RunResult,
    SandboxJob,
    SandboxUnavailableError,
)

pytestmark = pytest.mark.timeout(120)

FAST = Limits(wall_s=5, cpu_s=4, memory_mb=256, max_output_bytes=200_000)


def run(backend: Backend, code: str, limits: Limits = FAST, **job: object) -> RunResult:
    files = {"main.py": code, **job.pop("files", {})}  # type: ignore[dict-item]
    argv = ["main.py", *job.pop("args", [])]  # type: ignore[misc]
    return backend.run(SandboxJob(files=files, argv=argv, **job), limits)  # type: ignore[arg-type]


def test_stdout_stdin_and_exit_status(backend: Backend) -> None:
    res = run(backend, "import sys\nprint(sys.stdin.read()[::-1], end='')", stdin="héllo ✓")
    assert (res.outcome, res.exit_code, res.stdout) == (Outcome.PASSED, 0, "✓ olléh")
    assert res.backend == backend.name and res.elapsed_s > 0


def test_nonzero_exit_is_error_with_traceback(backend: Backend) -> None:
    res = run(backend, "def f():\n    raise ValueError('boom')\nf()")
    assert res.outcome is Outcome.ERROR and res.exit_code == 1
    assert "ValueError: boom" in res.stderr and "line 2, in f" in res.stderr
    res = run(backend, "import sys\nsys.exit(3)")
    assert (res.outcome, res.exit_code) == (Outcome.ERROR, 3)


def test_large_stdin_and_output_under_the_cap_are_kept_whole(backend: Backend) -> None:
    data = "abcdefghij" * 15_000  # 150 KB: more than a pipe buffer, less than the cap
    res = run(backend, "import sys\nsys.stdout.write(sys.stdin.read())", stdin=data)
    assert res.outcome is Outcome.PASSED and res.stdout == data


def test_environment_is_built_from_scratch(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    canary = f"sk-canary-{secrets.token_hex(8)}"
    monkeypatch.setenv("OPENAI_API_KEY", canary)
    monkeypatch.setenv("SYNTH_TEST_SECRET", canary)
    res = run(
        backend,
        "import os, json\nprint(json.dumps(dict(os.environ)))",
        env={"MY_FLAG": "on"},
    )
    assert res.outcome is Outcome.PASSED, res.stderr
    assert canary not in res.stdout
    env = __import__("json").loads(res.stdout)
    assert env["MY_FLAG"] == "on"
    assert "OPENAI_API_KEY" not in env and "SYNTH_TEST_SECRET" not in env
    allowed = set(BASE_ENV) | {"HOME", "TMPDIR", "MY_FLAG", "PWD", "HOSTNAME"}
    assert set(env) <= allowed, set(env) - allowed
    assert env["PATH"] == "/usr/bin:/bin"


def test_pythonhashseed_is_honoured(backend: Backend) -> None:
    code = "print(hash('bootcamp'))"
    one = [run(backend, code, env={"PYTHONHASHSEED": s}).stdout for s in ("1", "1", "2")]
    assert one[0] == one[1] != one[2]


def test_site_packages_are_not_importable(backend: Backend) -> None:
    res = run(backend, "import pydantic")
    assert res.outcome is Outcome.ERROR and "ModuleNotFoundError" in res.stderr


def test_files_land_in_a_fresh_private_work_dir(backend: Backend) -> None:
    files = {"pkg/__init__.py": "", "pkg/mod.py": "VALUE = 41\n", "data/in.txt": "x"}
    code = (
        "import os, pkg.mod\n"
        "print(pkg.mod.VALUE + 1, sorted(os.listdir('.')), os.path.exists('left.txt'))\n"
        "open('left.txt', 'w').write('from the first run')\n"
        "print(oct(os.stat('.').st_mode & 0o777), os.stat('.').st_uid == os.getuid())\n"
    )
    first = run(backend, code, files=files)
    second = run(backend, code, files=files)
    assert first.outcome is Outcome.PASSED, first.stderr
    lines = first.stdout.splitlines()
    assert lines[0] == "42 ['data', 'main.py', 'pkg'] False"
    assert lines[1].endswith("True") and lines[1].startswith("0o7")  # owned by the job
    assert second.stdout.splitlines()[0] == lines[0]  # nothing carried over


def test_wall_timeout_kills_the_whole_group(backend: Backend) -> None:
    marker = f"synthwall{secrets.token_hex(5)}"
    code = (
        "import subprocess, sys, time\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', sys.argv[1]])\n"
        "time.sleep(60)\n"
    )
    t0 = time.monotonic()
    res = run(backend, code, Limits(wall_s=1.5, cpu_s=10), args=[marker])
    elapsed = time.monotonic() - t0
    assert res.outcome is Outcome.TIMEOUT, res
    assert 1.4 <= elapsed < 1.5 + 4
    assert_no_leftovers(marker)


def test_cpu_limit_stops_a_busy_loop_before_the_wall_clock(backend: Backend) -> None:
    t0 = time.monotonic()
    res = run(backend, "while True:\n    pass", Limits(wall_s=30, cpu_s=1))
    assert res.outcome is Outcome.TIMEOUT, res
    assert time.monotonic() - t0 < 10


def test_memory_limit_is_oom(backend: Backend) -> None:
    res = run(backend, "x = bytearray(600 * 1024 * 1024)\nprint(len(x))", Limits(memory_mb=256))
    assert res.outcome is Outcome.OOM, res
    assert res.stdout == ""


def test_output_overflow_keeps_a_bounded_tail(backend: Backend) -> None:
    limits = Limits(wall_s=10, max_output_bytes=50_000)
    res = run(backend, "import sys\nwhile True:\n    sys.stderr.write('e' * 4096)", limits)
    assert res.outcome is Outcome.OUTPUT_OVERFLOW, res.detail
    assert 0 < len(res.stderr) <= 50_000 and "stderr" in res.detail


def test_file_size_limit(backend: Backend) -> None:
    code = "with open('big.bin', 'wb') as f:\n    f.write(b'x' * (3 * 1024 * 1024))"
    res = run(backend, code, Limits(file_size_mb=1))
    assert res.outcome is Outcome.ERROR
    assert "File too large" in res.stderr or "No space left" in res.stderr


def test_concurrent_runs_do_not_see_each_other(backend: Backend) -> None:
    code = (
        "import os, sys, time\nopen('mine.txt', 'w').write(sys.argv[1])\ntime.sleep(0.5)\n"
        "print(open('mine.txt').read(), sorted(os.listdir('.')))"
    )
    results: dict[str, RunResult] = {}

    def go(tag: str) -> None:
        results[tag] = run(backend, code, args=[tag])

    threads = [threading.Thread(target=go, args=(t,)) for t in ("alpha", "beta")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for tag in ("alpha", "beta"):
        assert results[tag].stdout.strip() == f"{tag} ['main.py', 'mine.txt']", results[tag]


@pytest.mark.parametrize(
    "files,env",
    [
        ({"/etc/passwd": "x"}, {}),
        ({"../up.py": "x"}, {}),
        ({"a/../../b.py": "x"}, {}),
        ({}, {"PYTHONPATH": "/tmp"}),
        ({}, {"LD_PRELOAD": "/tmp/x.so"}),
        ({}, {"HOME": "/root"}),
    ],
)
def test_jobs_are_validated(files: dict[str, str], env: dict[str, str]) -> None:
    with pytest.raises(ValidationError):
        SandboxJob(files={"main.py": "", **files}, argv=["main.py"], env=env)


def test_limits_are_bounded() -> None:
    with pytest.raises(ValidationError):
        Limits(wall_s=0)
    with pytest.raises(ValidationError):
        Limits(memory_mb=10)
    with pytest.raises(ValidationError):
        Limits(nonsense=1)  # type: ignore[call-arg]


def test_run_program_convenience() -> None:
    res = run_program("print(input()[::-1])", "abc\n", backend="process")
    assert (res.outcome, res.stdout) == (Outcome.PASSED, "cba\n")


def test_infrastructure_failure_is_sandbox_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from synth.sandbox import process

    backend = process.ProcessBackend()

    def broken(private: bool) -> str:
        raise RuntimeError("no interpreter")

    monkeypatch.setattr(process, "find_interpreter", broken)
    res = run(backend, "print(1)")
    assert res.outcome is Outcome.SANDBOX_ERROR and "no interpreter" in res.detail


class FakeBackend:
    def __init__(self, name: str, ok: bool) -> None:
        self.name, self.ok, self.probes = name, ok, 0

    def probe(self) -> tuple[bool, str]:
        self.probes += 1
        return self.ok, "ok" if self.ok else f"{self.name} is missing"

    def run(self, job: SandboxJob, limits: Limits) -> RunResult:
        return RunResult(outcome=Outcome.PASSED, backend=self.name)

    def close(self) -> None:
        pass


def test_auto_picks_the_strongest_working_backend_and_says_so_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fakes = {
        "docker": FakeBackend("docker", False),
        "bwrap": FakeBackend("bwrap", True),
        "process": FakeBackend("process", True),
    }
    monkeypatch.setattr(sandbox, "_construct", lambda name: fakes[name])
    monkeypatch.setattr(sandbox, "_instances", {})
    monkeypatch.setattr(sandbox, "_failures", {})
    monkeypatch.setattr(sandbox, "_announced", False)
    assert sandbox.get_backend("auto") is fakes["bwrap"]
    assert sandbox.get_backend("auto") is fakes["bwrap"]
    err = capsys.readouterr().err
    assert err.count("synth sandbox: using the bwrap backend") == 1
    assert "docker is missing" in err
    assert fakes["docker"].probes == 1 and fakes["bwrap"].probes == 1  # probed once
    with pytest.raises(SandboxUnavailableError, match="docker is missing"):
        sandbox.get_backend("docker")
    with pytest.raises(ValueError):
        sandbox.get_backend("chroot")


def test_bwrap_missing_warns_loudly_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from synth.sandbox import bwrap

    monkeypatch.setattr(bwrap, "BWRAP", None)
    monkeypatch.setattr(bwrap, "_warned", False)
    first, second = bwrap.BwrapBackend(), bwrap.BwrapBackend()
    assert first.probe()[0] is False and second.probe()[0] is False
    lines = [x for x in capsys.readouterr().err.splitlines() if x.startswith("WARNING")]
    assert len(lines) == 1 and "bubblewrap" in lines[0]


@pytest.mark.skipif(os.geteuid() != 0, reason="private uids need root")
def test_process_backend_runs_as_a_private_unprivileged_uid() -> None:
    backend = sandbox.get_backend("process")
    code = "import os\nprint(os.getuid(), os.getgid(), os.getgroups())"
    a, b = run(backend, code), run(backend, code)
    uid_a, uid_b = int(a.stdout.split()[0]), int(b.stdout.split()[0])
    assert uid_a >= 2_000_000_000 and uid_b >= 2_000_000_000 and uid_a != uid_b
    assert a.stdout.split(None, 2)[2].strip() == "[]"


def test_shared_uid_mode_still_applies_limits_and_kills_the_group(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The code path used without root (no private uid): limits and group kill still hold."""
    from synth.sandbox import process
    from synth.sandbox.identity import Identity

    shared = Identity(os.getuid(), os.getgid(), private=False)
    monkeypatch.setattr(process, "new_identity", lambda: shared)
    backend = process.ProcessBackend()
    res = run(backend, "import os\nprint(os.getuid())")
    assert res.outcome is Outcome.PASSED and int(res.stdout) == os.getuid()
    assert run(backend, "x = bytearray(600 * 1024 * 1024)", Limits(memory_mb=256)).outcome is (
        Outcome.OOM
    )
    marker = f"synthshared{secrets.token_hex(5)}"
    code = (
        "import subprocess, sys, time\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', sys.argv[1]])\n"
        "time.sleep(60)\n"
    )
    t0 = time.monotonic()
    assert run(backend, code, Limits(wall_s=1.5), args=[marker]).outcome is Outcome.TIMEOUT
    assert time.monotonic() - t0 < 6
    assert_no_leftovers(marker)


@pytest.mark.skipif(os.geteuid() != 0, reason="private uids need root")
def test_stale_work_dirs_of_dead_parents_are_reaped() -> None:
    from synth.sandbox.identity import reap_stale_workdirs

    made = {}
    for kind, uid, age in (
        ("stale", 2_050_000_001, 3600),
        ("fresh", 2_050_000_002, 0),
        ("foreign", 0, 3600),
    ):
        path = tempfile.mkdtemp(prefix=f"synth-sbx-test{kind}-")
        Path(path, "file.py").write_text("x")
        os.chown(path, uid, uid)
        os.utime(path, (time.time() - age, time.time() - age))
        made[kind] = path
    try:
        removed = reap_stale_workdirs()
        assert made["stale"] in removed and not os.path.exists(made["stale"])
        assert os.path.exists(made["fresh"]) and os.path.exists(made["foreign"])
    finally:
        for path in made.values():
            shutil.rmtree(path, ignore_errors=True)


def test_removing_a_work_dir_never_narrows_the_directory_holding_it(tmp_path: Path) -> None:
    """A failed removal (a work dir already gone, a busy mount point) once chmod-ed the parent
    (``/run/synth-sbx``) to 0700, and every later job could not open its own files."""
    from synth.sandbox.identity import rmtree

    base = tmp_path / "base"
    base.mkdir()
    base.chmod(0o711)
    rmtree(str(base / "gone"))  # missing: every step of the removal fails
    inner = base / "work" / "sub"
    inner.mkdir(parents=True)
    (inner / "f").write_text("x")
    inner.chmod(0)
    (base / "work").chmod(0)
    rmtree(str(base / "work"))
    assert not (base / "work").exists()
    assert oct(base.stat().st_mode & 0o777) == oct(0o711)


@pytest.mark.skipif(os.geteuid() != 0, reason="the root-only work base needs root")
def test_the_work_base_is_given_back_its_mode_when_something_narrowed_it() -> None:
    from synth.sandbox import process
    from synth.sandbox.identity import WORK_BASE, work_base

    work_base()
    os.chmod(WORK_BASE, 0o700)
    try:
        assert run(process.ProcessBackend(), "print('reachable')").stdout.strip() == "reachable"
        assert oct(os.stat(WORK_BASE).st_mode & 0o777) == oct(0o711)
    finally:
        os.chmod(WORK_BASE, 0o711)
