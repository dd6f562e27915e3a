"""Limits that hold for the whole job, on the process and bwrap backends.

Each test runs a plain CPython job that attacks one limit and asserts the typed outcome, the
elapsed time, that no process of the job survives, that the job's cgroups are gone, and that
nothing appeared outside the job (host ``/tmp``, ``/var/tmp``, ``/dev/shm``, ``/run/lock``,
SysV IPC) -- checked *while the job runs* where the backend could otherwise clean up after it.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import assert_no_leftovers, require_backend

import synth.sandbox as sandbox
from synth.sandbox import cgroup, process
from synth.sandbox.base import Backend, Limits, Outcome, RunResult, SandboxJob

pytestmark = pytest.mark.timeout(180)

SLACK_S = 6.0  # start-up + cleanup on a loaded 2-core machine
HOST_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
ROOT = os.geteuid() == 0


def run_job(
    backend: Backend, code: str, limits: Limits, marker: str, *args: str
) -> tuple[RunResult, float]:
    job = SandboxJob(files={"main.py": code}, argv=["main.py", marker, *args])
    start = time.monotonic()
    res = backend.run(job, limits)
    return res, time.monotonic() - start


def host_traces(marker: str) -> list[str]:
    """Host paths in the world-writable dirs and SysV IPC tables that carry ``marker``."""
    found = []
    for top in HOST_DIRS:
        try:
            found += [os.path.join(top, n) for n in os.listdir(top) if marker in n]
        except OSError:
            continue
    return found


def sysv_keys() -> set[int]:
    keys = set()
    for table in ("shm", "sem", "msg"):
        try:
            lines = Path(f"/proc/sysvipc/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        keys |= {int(line.split()[0]) for line in lines if line.strip()}
    return keys


class Watch:
    """Polls the host while a job runs: did any trace of ``marker`` (or SysV ``key``) appear?"""

    def __init__(self, marker: str, key: int | None = None) -> None:
        self.marker, self.key = marker, key
        self.seen: list[str] = []
        self.polls = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.seen += host_traces(self.marker)
            if self.key is not None and self.key in sysv_keys():
                self.seen.append(f"sysv key {self.key}")
            self.polls += 1
            time.sleep(0.02)

    def __enter__(self) -> Watch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


@pytest.fixture
def cgroups_made(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The cgroup directories the backends create during the test (to check they are gone)."""
    made: list[str] = []
    original = cgroup.JobCgroup.create.__func__  # type: ignore[attr-defined]

    def recording(cls: type[cgroup.JobCgroup], *args: object, **kw: object) -> cgroup.JobCgroup:
        group: cgroup.JobCgroup = original(cls, *args, **kw)
        made.extend(group.dirs)
        return group

    monkeypatch.setattr(cgroup.JobCgroup, "create", classmethod(recording))
    yield made


def assert_clean(marker: str, made: list[str]) -> None:
    assert_no_leftovers(marker)
    assert [d for d in made if os.path.exists(d)] == [], "job cgroups left behind"
    assert host_traces(marker) == []


def need_cgroup(backend: Backend) -> None:
    mode = getattr(backend, "memory_enforcement", "")
    if not mode.startswith("cgroup"):
        pytest.skip(f"LIMIT NOT TESTED on {backend.name}: no job cgroup here ({mode})")


def need_private_mounts(backend: Backend) -> None:
    """The process backend has private /dev/shm, /tmp and a capped work dir only as root with
    ``unshare --mount``; bwrap always has them."""
    if backend.name == "process" and "--mount" not in process.namespaces():
        pytest.skip("LIMIT NOT TESTED on process: needs root and unshare --mount")


FORKED_HOGS = """
import os, sys, time
N, MB = 4, 400
r, w = os.pipe()
kids = []
for i in range(N):
    pid = os.fork()
    if pid == 0:
        os.close(r)
        block = bytearray(MB * 1024 * 1024)
        for j in range(0, len(block), 4096):
            block[j] = 1
        os.write(w, bytes([i]))  # "I hold my 400 MB now"
        time.sleep(3)
        os._exit(0)
    kids.append(pid)
os.close(w)
ready, dead, most = set(), {}, 0
while True:
    got = os.read(r, 1)
    if not got:
        break
    ready.add(kids[got[0]])
    time.sleep(0.3)  # let a kill in flight land before counting
    for pid in kids:
        if pid not in dead:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                dead[pid] = status
    most = max(most, len(ready - set(dead)))
for pid in kids:
    if pid not in dead:
        dead[pid] = os.waitpid(pid, 0)[1]
killed = sum(1 for s in dead.values() if os.WIFSIGNALED(s) and os.WTERMSIG(s) == 9)
print(f"ready={len(ready)} killed={killed} most_resident_at_once={most}")
"""


def test_forked_children_share_one_memory_budget(
    local_backend: Backend, cgroups_made: list[str]
) -> None:
    """4 children x 400 MB under a 1 GB limit: the cgroup OOM-kills, never 1.6 GB resident."""
    need_cgroup(local_backend)
    marker = f"synthlim{secrets.token_hex(5)}"
    limits = Limits(wall_s=30, cpu_s=20, memory_mb=1024, pids=32)
    res, elapsed = run_job(local_backend, FORKED_HOGS, limits, marker)
    assert res.outcome is Outcome.OOM, res
    assert "memory limit" in res.detail and local_backend.memory_enforcement in res.detail
    stats = dict(kv.split("=") for kv in res.stdout.split())
    assert int(stats["killed"]) >= 1, res.stdout
    assert int(stats["most_resident_at_once"]) * 400 < 1024, res.stdout
    assert elapsed < 3 + 4 + SLACK_S, elapsed
    assert_clean(marker, cgroups_made)


SHM_FILL = """
import errno, os, sys
marker = sys.argv[1]
print("host file visible:", os.path.exists(f"/dev/shm/{marker}-host"))
path = f"/dev/shm/{marker}-job"
written = 0
try:
    with open(path, "wb") as fh:
        for _ in range(200):
            fh.write(b"s" * (1 << 20))
            fh.flush()
            written += 1
except OSError as exc:
    print("error", errno.errorcode[exc.errno], "after_mb", written)
print("job sees its file:", os.path.exists(path))
"""


def test_dev_shm_is_private_and_capped(local_backend: Backend, cgroups_made: list[str]) -> None:
    need_private_mounts(local_backend)
    marker = f"synthshm{secrets.token_hex(5)}"
    host_file = Path(f"/dev/shm/{marker}-host")
    host_file.write_text("the host's")
    limits = Limits(wall_s=20, memory_mb=1024, file_size_mb=256)
    cap_mb = process.scratch_bytes(limits) // (1 << 20)
    try:
        with Watch(f"{marker}-job") as watch:
            res, elapsed = run_job(local_backend, SHM_FILL, limits, marker)
    finally:
        host_file.unlink()
    assert res.outcome is Outcome.PASSED, res
    assert "host file visible: False" in res.stdout
    assert "error ENOSPC" in res.stdout, res.stdout
    written = int(res.stdout.split("after_mb")[1].split()[0])
    assert cap_mb - 2 <= written <= cap_mb, (written, cap_mb)
    assert "job sees its file: True" in res.stdout
    assert watch.polls > 0 and watch.seen == [], watch.seen
    assert elapsed < limits.wall_s + SLACK_S
    assert_clean(marker, cgroups_made)


SYSV = """
import ctypes, sys, time
key = int(sys.argv[2])
libc = ctypes.CDLL(None, use_errno=True)
IPC_CREAT = 0o1000
shm = libc.shmget(key, 1 << 20, IPC_CREAT | 0o600)
sem = libc.semget(key, 1, IPC_CREAT | 0o600)
msg = libc.msgget(key, IPC_CREAT | 0o600)
table = open("/proc/sysvipc/shm").read().split()
print("created", shm >= 0, sem >= 0, msg >= 0, "visible_inside", str(key) in table, flush=True)
time.sleep(1.5)  # hold them while the host looks; never removed (IPC_RMID) on purpose
"""


def test_sysv_ipc_is_private_and_dies_with_the_job(
    local_backend: Backend, cgroups_made: list[str]
) -> None:
    if local_backend.name == "process" and "--ipc" not in process.namespaces():
        pytest.skip("LIMIT NOT TESTED on process: needs root and unshare --ipc")
    marker = f"synthipc{secrets.token_hex(5)}"
    key = secrets.randbelow(2**30) + 1
    limits = Limits(wall_s=20)
    with Watch(marker, key) as watch:
        res, elapsed = run_job(local_backend, SYSV, limits, marker, str(key))
    assert res.outcome is Outcome.PASSED, res
    assert "created True True True visible_inside True" in res.stdout, res.stdout
    assert watch.polls > 10 and watch.seen == [], watch.seen
    assert key not in sysv_keys()
    assert elapsed < 1.5 + SLACK_S
    assert_clean(marker, cgroups_made)


WORKDIR_FILL = """
import errno, os
n = 0
try:
    for n in range(100):
        with open(f"f{n}.bin", "wb") as fh:
            fh.write(b"w" * (1 << 20))
except OSError as exc:
    print("error", errno.errorcode[exc.errno], "files", n)
for name in os.listdir("."):
    if name.endswith(".bin"):
        os.unlink(name)
print("still running")
"""


def test_filling_the_work_dir_is_enospc_and_the_run_ends_normally(
    local_backend: Backend, cgroups_made: list[str]
) -> None:
    need_private_mounts(local_backend)
    marker = f"synthwd{secrets.token_hex(5)}"
    limits = Limits(wall_s=20, file_size_mb=1)
    cap_mb = process.workdir_bytes(limits, 0) // (1 << 20)  # 12 MB
    res, elapsed = run_job(local_backend, WORKDIR_FILL, limits, marker)
    assert res.outcome is Outcome.PASSED, res
    assert "error ENOSPC" in res.stdout and "still running" in res.stdout, res.stdout
    files = int(res.stdout.split("files")[1].split()[0])
    assert cap_mb - 2 <= files <= cap_mb, (files, cap_mb)
    assert elapsed < limits.wall_s + SLACK_S
    assert_clean(marker, cgroups_made)


WRITE_EVERYWHERE = """
import os, sys, time
marker = sys.argv[1]
wrote = []
for top in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/", "/dev", "/usr"):
    try:
        with open(os.path.join(top, marker + "-out"), "w") as fh:
            fh.write("x")
        wrote.append(top)
    except OSError:
        pass
print("wrote (inside the job):", wrote, flush=True)
time.sleep(1.0)
"""


def test_nothing_is_written_outside_the_job(
    local_backend: Backend, cgroups_made: list[str]
) -> None:
    need_private_mounts(local_backend)
    marker = f"synthout{secrets.token_hex(5)}"
    with Watch(marker) as watch:
        res, elapsed = run_job(local_backend, WRITE_EVERYWHERE, Limits(wall_s=20), marker)
    assert res.outcome is Outcome.PASSED, res
    assert watch.polls > 10 and watch.seen == [], watch.seen
    assert not Path("/" + marker + "-out").exists()
    assert elapsed < 1.0 + SLACK_S
    assert_clean(marker, cgroups_made)


READS = """
import json, os, sys
out = {}
for path in json.loads(sys.argv[2]):
    try:
        if os.path.isdir(path):
            out[path] = sorted(os.listdir(path))
        else:
            out[path] = open(path).read(64)
    except OSError as exc:
        out[path] = type(exc).__name__
import bz2, ctypes, decimal, hashlib, json, lzma, multiprocessing, sqlite3, ssl, zlib, asyncio
import unittest, uuid, xml.etree.ElementTree, zoneinfo
out["stdlib"] = str(sqlite3.connect(":memory:").execute("select 6*7").fetchone()[0])
out["ssl"] = ssl.OPENSSL_VERSION.split()[0]
out["usr/bin"] = sorted(os.listdir("/usr/bin"))
out["/"] = sorted(os.listdir("/"))
print(json.dumps(out))
"""


@pytest.mark.parametrize("lib_cache", [True, False], ids=["lib-cache", "per-file-binds"])
def test_bwrap_reads_only_what_the_interpreter_needs(
    lib_cache: bool, cgroups_made: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = require_backend("bwrap")
    import json

    from synth.sandbox import bwrap

    if not lib_cache:  # the layout used without root: one bind per library
        monkeypatch.setattr(bwrap, "_lib_cache", lambda *a: None)
    bwrap.python_binds.cache_clear()

    import pydantic

    site = str(Path(pydantic.__file__).resolve().parents[1])
    secret = ["/work", "/etc/passwd", "/etc", "/root", site, "/usr/lib/python3/dist-packages",
              "/usr/local/lib", "/usr/share", "/home", "/var"]
    marker = f"synthread{secrets.token_hex(5)}"
    res, elapsed = run_job(backend, READS, Limits(wall_s=20), marker, json.dumps(secret))
    assert res.outcome is Outcome.PASSED, res
    seen = json.loads(res.stdout)
    for path in secret:
        assert seen[path] == "FileNotFoundError", (path, seen[path])
    assert seen["stdlib"] == "42" and seen["ssl"] == "OpenSSL"
    assert all(name.startswith("python3") for name in seen["usr/bin"]), seen["usr/bin"]
    assert set(seen["/"]) <= {"dev", "lib", "lib64", "proc", "tmp", "usr", "bin", "sbin"}
    assert elapsed < 20
    assert_clean(marker, cgroups_made)
    bwrap.python_binds.cache_clear()


def test_a_session_killed_at_the_cgroup_limit_reports_out_of_memory(
    local_backend: Backend, cgroups_made: list[str]
) -> None:
    """The warm pool classifies a dead worker from its stderr tail: the cgroup kill is named."""
    need_cgroup(local_backend)
    marker = f"synthsess{secrets.token_hex(5)}"
    code = FORKED_HOGS + "\nimport sys\nsys.stdin.readline()\n"
    spawner: Callable[..., object] = local_backend.spawn  # type: ignore[attr-defined]
    job = SandboxJob(files={"main.py": code}, argv=["main.py", marker])
    session = spawner(job, Limits(wall_s=60, memory_mb=1024, pids=32))
    try:
        deadline = time.monotonic() + 15
        while "out of memory" not in session.stderr_tail():  # type: ignore[attr-defined]
            assert time.monotonic() < deadline, session.stderr_tail()  # type: ignore[attr-defined]
            time.sleep(0.1)
    finally:
        session.close()  # type: ignore[attr-defined]
    assert_clean(marker, cgroups_made)


FORK_MANY = """
import os, time
kids = []
try:
    for _ in range(20):
        pid = os.fork()
        if pid == 0:
            time.sleep(2)
            os._exit(0)
        kids.append(pid)
except OSError as exc:
    print("fork refused:", type(exc).__name__)
print("children", len(kids), flush=True)
for pid in kids:
    os.waitpid(pid, 0)
"""


@pytest.mark.skipif(not ROOT, reason="an exact per-job process count needs a private uid")
def test_without_a_cgroup_the_process_count_is_small(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rlimit fallback: RLIMIT_NPROC = min(pids, 8), so memory <= 8 * RLIMIT_AS."""
    monkeypatch.setattr(cgroup, "detect", lambda *a: None)
    backend = process.ProcessBackend()
    assert backend.memory_enforcement == "rlimit (per process)" == cgroup.RLIMIT_ONLY
    marker = f"synthnproc{secrets.token_hex(5)}"
    res, elapsed = run_job(backend, FORK_MANY, Limits(wall_s=20, pids=64), marker)
    assert res.outcome is Outcome.PASSED, res
    assert "fork refused: BlockingIOError" in res.stdout
    assert int(res.stdout.split("children")[1]) == process.FALLBACK_NPROC - 1  # + the parent
    assert elapsed < 2 + SLACK_S
    assert_no_leftovers(marker)


class _Fake:
    def __init__(self, name: str, ok: bool, memory: str = "") -> None:
        self.name, self.ok = name, ok
        if memory:
            self.memory_enforcement = memory

    def probe(self) -> tuple[bool, str]:
        return self.ok, "ok" if self.ok else f"{self.name} is missing"

    def run(self, job: SandboxJob, limits: Limits) -> RunResult:
        return RunResult(outcome=Outcome.PASSED, backend=self.name)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("memory", ["rlimit (per process)", "cgroup v1"])
def test_falling_back_to_the_process_backend_warns_loudly_and_names_the_memory_mode(
    memory: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fakes = {
        "docker": _Fake("docker", False),
        "bwrap": _Fake("bwrap", False),
        "process": _Fake("process", True, memory),
    }
    monkeypatch.setattr(sandbox, "_construct", lambda name: fakes[name])
    monkeypatch.setattr(sandbox, "_instances", {})
    monkeypatch.setattr(sandbox, "_failures", {})
    monkeypatch.setattr(sandbox, "_announced", False)
    assert sandbox.get_backend("auto") is fakes["process"]
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    line = lines[0]
    assert line.startswith("WARNING:") and "process backend" in line
    assert f"memory: {memory}" in line
    assert "world-readable" in line and "bwrap is missing" in line


def test_the_notice_names_the_memory_mode_of_a_strong_backend(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fakes = {"docker": _Fake("docker", False), "bwrap": _Fake("bwrap", True, "cgroup v2")}
    monkeypatch.setattr(sandbox, "_construct", lambda name: fakes[name])
    monkeypatch.setattr(sandbox, "_instances", {})
    monkeypatch.setattr(sandbox, "_failures", {})
    monkeypatch.setattr(sandbox, "_announced", False)
    assert sandbox.get_backend("auto") is fakes["bwrap"]
    err = capsys.readouterr().err
    assert "synth sandbox: using the bwrap backend (memory: cgroup v2)" in err
    assert "WARNING" not in err


def test_the_memory_mode_is_reported_by_the_real_backends() -> None:
    for backend in (process.ProcessBackend(), sandbox.get_backend("process")):
        assert backend.memory_enforcement in ("cgroup v1", "cgroup v2", "rlimit (per process)")  # type: ignore[attr-defined]
        assert backend.memory_enforcement == cgroup.enforcement()  # type: ignore[attr-defined]


def test_cgroup_v2_detection_on_a_fake_hierarchy(tmp_path: Path) -> None:
    """The v2 path (not available on a v1 host): a delegated memory controller is found in the
    nearest ancestor that delegates it, and job cgroups get their limits there."""
    root = tmp_path / "cg"
    own = root / "user.slice" / "me"
    own.mkdir(parents=True)
    (root / "cgroup.controllers").write_text("cpu memory pids\n")
    (root / "cgroup.subtree_control").write_text("memory pids\n")
    (root / "user.slice" / "cgroup.subtree_control").write_text("memory pids\n")
    (own / "cgroup.subtree_control").write_text("\n")
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(f"41 31 0:38 / {root} rw,relatime - cgroup2 cgroup2 rw\n")
    own_file = tmp_path / "cgroup"
    own_file.write_text("0::/user.slice/me\n")
    found = cgroup.detect(str(mountinfo), str(own_file))
    assert found == cgroup.Hierarchy(2, str(root / "user.slice" / "synth-sbx"),
                                     str(root / "user.slice" / "synth-sbx"))
    group = cgroup.JobCgroup.create(found, 256, 20)
    path = Path(group.dirs[0])
    assert (path / "memory.max").read_text() == str(256 << 20)
    assert (path / "pids.max").read_text() == "20"
    (path / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 2\n")
    assert group.oom_kills() == 2
    assert group.procs == group.join == [str(path / "cgroup.procs")]
