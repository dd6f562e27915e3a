"""The docker backend against a real engine: isolation, limits, outcomes, warm reuse, sessions.

Skipped (loudly) only when no Docker engine answers or the SDK is missing; any other probe
failure (e.g. the image was not built) is a test failure, so CI cannot skip by accident.
The attacks on PID 1 and the runner, isolation units, spares and /dev/shm: test_docker_units.py.
"""

from __future__ import annotations

import ast
import os
import secrets
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from synth.sandbox.base import Limits, Outcome, SandboxJob, Session, SessionError
from synth.sandbox.docker import IO_MOUNT, LABEL, OWNER_LABEL, RUNNER_CAPS, DockerBackend
from synth.sandbox.docker_engine import BUILD_SCRIPT, default_image, process_start_time

pytestmark = pytest.mark.docker

# memory_mb and pids (the container-level limits) as the probe's trial run: its spares serve.
LIMITS = Limits(wall_s=10, cpu_s=10, max_output_bytes=200_000)
SLACK_S = 4.0
UNIT = "sha256-of-some-code"  # jobs that may share a warm container


def _usable(backend: DockerBackend) -> None:
    ok, reason = backend.probe()
    if ok:
        return
    if "no Docker engine answers" in reason or "SDK is not installed" in reason:
        message = f"DOCKER BACKEND NOT TESTED: {reason}"
        print(message, file=sys.stderr)
        pytest.skip(message)
    pytest.fail(f"docker engine answers but the backend cannot run: {reason}")


@pytest.fixture(scope="module")
def shared() -> Iterator[DockerBackend]:
    backend = DockerBackend()
    _usable(backend)
    yield backend
    backend.close()


@pytest.fixture
def fresh() -> Iterator[DockerBackend]:
    """A backend of its own (exact container bookkeeping); nothing of it is left afterwards."""
    backend = DockerBackend()
    _usable(backend)
    yield backend
    backend.close()
    assert backend.engine_containers() == []


def job(code: str, stdin: str = "", unit: str = "", **env: str) -> SandboxJob:
    return SandboxJob(files={"main.py": code}, argv=["main.py"], stdin=stdin, env=env, unit=unit)


def container_exists(backend: DockerBackend, cid: str) -> bool:
    import docker

    try:
        backend._client.api.inspect_container(cid)
    except docker.errors.NotFound:
        return False
    return True


def container_running(backend: DockerBackend, cid: str) -> bool:
    """Does anything still run in it? (Used containers are stopped at once, removed soon.)"""
    import docker

    try:
        return bool(backend._client.api.inspect_container(cid)["State"]["Running"])
    except docker.errors.NotFound:
        return False


def test_runs_a_program_with_stdin_stdout_and_exit_codes(shared: DockerBackend) -> None:
    code = "import sys\ndata = sys.stdin.read()\nprint(data.upper())\nsys.exit(int(data[-1]))"
    ok = shared.run(job(code, stdin="abc0"), LIMITS)
    assert (ok.outcome, ok.exit_code, ok.stdout, ok.backend) == (
        Outcome.PASSED,
        0,
        "ABC0\n",
        "docker",
    )
    bad = shared.run(job(code, stdin="xyz3"), LIMITS)
    assert (bad.outcome, bad.exit_code, bad.stdout) == (Outcome.ERROR, 3, "XYZ3\n")
    crash = shared.run(job("raise ValueError('boom')"), LIMITS)
    assert crash.outcome is Outcome.ERROR and crash.exit_code == 1
    assert "ValueError: boom" in crash.stderr


def test_job_files_argv_cwd_and_python(shared: DockerBackend) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "VALUE = 'from the package'",
        "main.py": (
            "import os, sys\nfrom pkg.mod import VALUE\n"
            "print(VALUE, sys.argv[1:], os.getcwd() == os.environ['HOME'], sys.version_info[:2])"
        ),
    }
    res = shared.run(SandboxJob(files=files, argv=["main.py", "a b", "c"]), LIMITS)
    assert res.outcome is Outcome.PASSED, res
    assert res.stdout.strip() == "from the package ['a b', 'c'] True (3, 11)"
    site = shared.run(job("import pydantic"), LIMITS)
    assert site.outcome is Outcome.ERROR and "ModuleNotFoundError" in site.stderr


def test_wall_timeout_kills_and_recycles_the_container(fresh: DockerBackend) -> None:
    assert fresh.run(job("print(1)", unit=UNIT), LIMITS).outcome is Outcome.PASSED
    (warm,) = fresh.live_containers()
    limits = Limits(wall_s=1.5, cpu_s=30)
    start = time.monotonic()
    res = fresh.run(job("import os\nos.fork()\nwhile True:\n    pass", unit=UNIT), limits)
    elapsed = time.monotonic() - start
    assert res.outcome is Outcome.TIMEOUT, res
    assert 1.5 <= elapsed <= 1.5 + SLACK_S
    assert fresh.last_container() == warm
    assert warm not in fresh.live_containers()
    assert not container_running(fresh, warm)
    assert fresh.stats["recycled"] == 1
    assert fresh.run(job("print(2)", unit=UNIT), LIMITS).stdout == "2\n"
    assert fresh.last_container() != warm


def test_cpu_limit_is_a_timeout(shared: DockerBackend) -> None:
    limits = Limits(wall_s=20, cpu_s=1, memory_mb=256, pids=32)
    start = time.monotonic()
    res = shared.run(job("while True:\n    pass"), limits)
    assert res.outcome is Outcome.TIMEOUT and "CPU" in res.detail, res
    assert time.monotonic() - start < limits.wall_s  # the CPU limit, not the wall clock


def test_memory_error_is_oom(shared: DockerBackend) -> None:
    res = shared.run(job("blob = bytearray(2**34)"), LIMITS)
    assert res.outcome is Outcome.OOM, res
    assert "MemoryError" in res.stderr


def test_cgroup_oom_kill_is_oom_and_recycles(fresh: DockerBackend) -> None:
    # 130 MB in a tmpfs file (charged to the container's cgroup), then 60 MB of heap: the
    # address-space rlimit (64 MB) is not reached, the cgroup limit (64 + headroom) is.
    code = (
        "with open('/tmp/fill', 'wb') as fh:\n"
        "    for _ in range(130):\n"
        "        fh.write(b'x' * 2**20)\n"
        "print('filled', flush=True)\n"
        "blocks = [b'y' * 2**20 for _ in range(60)]\n"
        "print('survived')\n"
    )
    limits = Limits(wall_s=10, cpu_s=10, memory_mb=64, file_size_mb=256, pids=32)
    assert fresh.run(job("print(1)", unit=UNIT), limits).outcome is Outcome.PASSED
    (warm,) = fresh.live_containers()
    res = fresh.run(job(code, unit=UNIT), limits)
    assert res.outcome is Outcome.OOM, res
    assert res.signal == 9 and "memory limit" in res.detail
    assert res.stdout == "filled\n"
    assert fresh.last_container() == warm
    assert not container_running(fresh, warm) and warm not in fresh.live_containers()


def test_output_cap(shared: DockerBackend) -> None:
    limits = Limits(wall_s=10, memory_mb=256, pids=32, max_output_bytes=100_000)
    res = shared.run(job("import sys\nwhile True:\n    sys.stdout.write('z' * 4096)"), limits)
    assert res.outcome is Outcome.OUTPUT_OVERFLOW, res
    assert "stdout" in res.detail
    assert 0 < len(res.stdout) <= 100_000
    err = shared.run(job("import sys\nsys.stderr.write('e' * 300_000)"), limits)
    assert err.outcome is Outcome.OUTPUT_OVERFLOW and "stderr" in err.detail


def test_no_network_only_loopback(shared: DockerBackend) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.2)
    port = server.getsockname()[1]
    accepted: list[object] = []
    done = threading.Event()

    def accept() -> None:
        while not done.is_set():
            try:
                accepted.append(server.accept())
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    code = (
        "import socket\n"
        "print(sorted(name for _, name in socket.if_nameindex()))\n"
        "s = socket.socket()\ns.settimeout(2)\n"
        f"try:\n    s.connect(('127.0.0.1', {port}))\n    print('CONNECTED')\n"
        "except OSError as exc:\n    print('refused', type(exc).__name__)\n"
    )
    res = shared.run(job(code), LIMITS)
    time.sleep(0.3)  # a connection in flight would be accepted now
    done.set()
    thread.join()
    server.close()
    assert res.outcome is Outcome.PASSED, res
    assert res.stdout.splitlines() == ["['lo']", "refused ConnectionRefusedError"]
    assert accepted == []


def test_read_only_root_non_root_no_capabilities(shared: DockerBackend) -> None:
    code = (
        "import os\n"
        "st = os.statvfs('/')\n"
        "print('root_ro', bool(st.f_flag & os.ST_RDONLY))\n"
        "for path in ('/usr/evil', '/etc/evil', '/evil'):\n"
        "    try:\n"
        "        open(path, 'w').write('x')\n"
        "        print('WROTE', path)\n"
        "    except OSError as exc:\n"
        "        print('denied', path, exc.errno)\n"
        "print('ids', os.getuid(), os.geteuid(), os.getgid(), os.getgroups())\n"
        "status = dict(l.split(':\\t', 1) for l in open('/proc/self/status').read().splitlines()\n"
        "              if ':\\t' in l)\n"
        "print('caps', {k: status[k].strip() for k in ('CapInh', 'CapPrm', 'CapEff', 'CapBnd',"
        " 'CapAmb')})\n"
        "print('nnp', status['NoNewPrivs'].strip())\n"
        "open('scratch.txt', 'w').write('ok')\n"
        "print('tmp ok', open('scratch.txt').read())\n"
    )
    res = shared.run(job(code), LIMITS)
    assert res.outcome is Outcome.PASSED, res
    lines = res.stdout.splitlines()
    assert lines[0] == "root_ro True"
    assert all(line.startswith("denied") for line in lines[1:4]), lines
    assert lines[4] in ("ids 65534 65534 65534 []", "ids 65534 65534 65534 [65534]")
    zero = "0000000000000000"
    caps = {k: zero for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")}
    assert lines[5] == f"caps {caps}"
    assert lines[6] == "nnp 1"
    assert lines[7] == "tmp ok ok"


def test_container_configuration(shared: DockerBackend) -> None:
    assert shared.run(job("pass", unit=UNIT), LIMITS).outcome is Outcome.PASSED
    cid = shared.last_container()
    assert cid in shared.live_containers()
    info = shared._client.api.inspect_container(cid)
    host = info["HostConfig"]
    assert host["NetworkMode"] == "none"
    assert host["ReadonlyRootfs"] is True
    # the runner's four capabilities; PID 1 drops them, jobs never have any (see the next test)
    assert host["CapDrop"] == ["ALL"] and sorted(host["CapAdd"]) == sorted(RUNNER_CAPS)
    assert not {"SYS_ADMIN", "CAP_SYS_ADMIN", "ALL"} & set(host["CapAdd"])
    assert host["SecurityOpt"] == ["no-new-privileges"]
    assert host["Privileged"] is False
    assert host["Memory"] == host["MemorySwap"] > 0
    assert host["PidsLimit"] > 0 and host["NanoCpus"] > 0
    assert host["IpcMode"] == "none"
    for path in ("/tmp", "/dev/shm"):
        assert {"noexec", "nosuid", "nodev"} <= set(host["Tmpfs"][path].split(","))
        assert "size=" in host["Tmpfs"][path]
    assert info["Config"]["User"] == "0:0"  # PID 1 drops to 65533 at once (next tests)
    assert info["Config"]["Labels"][LABEL] == "1"
    # the only mount: with session io "fifo", the container's own folder of two FIFOs, read-only
    if shared.io == "fifo":
        (mount,) = info["Mounts"]
        assert mount["Destination"] == IO_MOUNT and mount["Mode"] == "ro" and not mount["RW"]
        assert sorted(os.listdir(mount["Source"])) == ["in", "out"]
        for name in ("in", "out"):
            st = os.stat(os.path.join(mount["Source"], name))
            assert stat.S_ISFIFO(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o600
        assert stat.S_IMODE(os.stat(mount["Source"]).st_mode) == 0o700
    else:
        assert info["Mounts"] == [] and not host["Binds"]
    assert not any("docker.sock" in str(m) for m in info["Mounts"])
    assert set(info["NetworkSettings"]["Networks"]) <= {"none"}


def test_environment_has_no_secrets(shared: DockerBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    canary = f"sk-canary-{secrets.token_hex(8)}"
    monkeypatch.setenv("OPENAI_API_KEY", canary)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", canary)
    code = (
        "import os\nprint(sorted(os.environ))\n"
        "try:\n    print(open('/proc/1/environ', 'rb').read())\n"
        "except OSError as exc:\n    print('denied', type(exc).__name__)\n"
    )
    res = shared.run(job(code, unit=UNIT, EXTRA="given"), LIMITS)
    assert res.outcome is Outcome.PASSED, res
    assert canary not in res.stdout + res.stderr
    names = ast.literal_eval(res.stdout.splitlines()[0])
    assert set(names) == {
        "PATH", "LANG", "LC_ALL", "PYTHONIOENCODING", "PYTHONDONTWRITEBYTECODE", "HOME",
        "TMPDIR", "EXTRA",
    }  # fmt: skip
    assert res.stdout.splitlines()[1] == "denied PermissionError"  # PID 1 is another uid
    cid = shared.last_container()
    assert canary not in str(shared._client.api.inspect_container(cid)["Config"])


def test_warm_reuse_and_isolation_between_jobs(fresh: DockerBackend) -> None:
    marker = f"synthdk{secrets.token_hex(6)}"
    first = (
        "import os, subprocess, sys\n"
        "open('/tmp/left-behind', 'w').write('x')\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', "
        f"'{marker}'], start_new_session=True)\n"
        "print(os.getcwd())\n"
    )
    r1 = fresh.run(job(first, unit=UNIT), LIMITS)
    assert r1.outcome is Outcome.PASSED, r1
    warm = fresh.last_container()
    second = "import os\nprint(sorted(os.listdir('/tmp')))\nprint(os.getcwd())\n"
    r2 = fresh.run(job(second, unit=UNIT), LIMITS)
    assert r2.outcome is Outcome.PASSED, r2
    listing, cwd2 = r2.stdout.splitlines()
    assert listing == f"[{os.path.basename(cwd2)!r}]"  # only its own work dir
    assert cwd2 != r1.stdout.strip()
    assert fresh.last_container() == warm and fresh.stats["reused"] == 1
    assert fresh.live_containers() == [warm]
    host_procs = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert marker not in host_procs


def test_recycled_after_max_runs() -> None:
    backend = DockerBackend(max_runs=3)
    _usable(backend)
    try:
        seen = []
        for _ in range(4):
            assert backend.run(job("pass", unit=UNIT), LIMITS).outcome is Outcome.PASSED
            seen.append(backend.last_container())
        assert seen[0] == seen[1] == seen[2] != seen[3]
        assert backend.stats["recycled"] == 1
    finally:
        backend.close()
    assert backend.engine_containers() == []


def test_leftovers_of_dead_owners_removed_at_start_up(shared: DockerBackend) -> None:
    client = shared._client
    host = socket.gethostname()
    dead = f"{host}:{2**22 + 12345}:1"
    alive = f"{host}:1:{process_start_time(1)}"
    made = []
    for owner in (dead, alive):
        cont = client.containers.create(
            default_image(),
            command=["/usr/bin/python3", "-c", "import time; time.sleep(600)"],
            network_mode="none",
            labels={LABEL: "1", OWNER_LABEL: owner},
        )
        made.append(cont.id)
    try:
        backend = DockerBackend()
        _usable(backend)
        backend.close()
        # the dead owner's container is gone: removed by this start-up, which counts it, or
        # by another test worker's DockerBackend starting in the same seconds (every start-up
        # removes dead owners' containers on the host; a full run on two workers saw that race)
        assert not container_exists(shared, made[0])
        assert container_exists(shared, made[1])  # its owner (pid 1) is alive: not ours
    finally:
        for cid in made:
            shared._remove(cid)


def test_close_removes_containers() -> None:
    backend = DockerBackend()
    _usable(backend)
    assert backend.run(job("pass", unit=UNIT), LIMITS).outcome is Outcome.PASSED
    ids = backend.live_containers() + backend.spare_containers()
    start = time.monotonic()
    backend.close()
    assert time.monotonic() - start < 15
    assert ids and not any(container_exists(backend, cid) for cid in ids)
    assert backend.engine_containers() == []
    after = backend.run(job("pass"), LIMITS)
    assert after.outcome is Outcome.SANDBOX_ERROR and "closed" in after.detail


WORKER = """
import os, sys
print('ready', os.getuid(), flush=True)
for line in sys.stdin:
    if line.strip() == 'spawn':
        import subprocess
        subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', sys.argv[1]],
                         start_new_session=True)
    print('echo', line.strip()[::-1], flush=True)
"""


def test_session_for_the_warm_pool(fresh: DockerBackend) -> None:
    marker = f"synthdkw{secrets.token_hex(6)}"
    session = fresh.spawn(SandboxJob(files={"w.py": WORKER}, argv=["w.py", marker]), LIMITS)
    assert isinstance(session, Session)
    try:
        assert session.recv_line(10, 1000) == b"ready 65534"
        start = time.monotonic()
        for i in range(50):
            session.send(f"abc{i}\n".encode())
            assert session.recv_line(5, 1000) == ("echo " + f"abc{i}"[::-1]).encode()
        per_call = (time.monotonic() - start) / 50
        assert per_call < 0.05, per_call
        session.send(b"spawn\n")
        assert session.recv_line(5, 1000) == b"echo nwaps"
        assert session.returncode() is None
        with pytest.raises(TimeoutError):
            session.recv_line(0.3, 1000)
    finally:
        session.close()
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert marker not in ps  # the session's stray child was killed at close
    assert not container_running(fresh, session.container_id)  # its own, gone with it
    assert fresh.live_containers() == []
    assert fresh.run(job("print('after')"), LIMITS).stdout == "after\n"


FIFO_PROBE = """
import os, sys
out = []
for name in ("in", "out"):
    for flags in (os.O_RDONLY | os.O_NONBLOCK, os.O_WRONLY | os.O_NONBLOCK):
        try:
            os.close(os.open(os.path.join(sys.argv[1], name), flags))
            out.append(name + " opened")
        except OSError as exc:
            out.append(name + " " + type(exc).__name__)
try:
    open(os.path.join(sys.argv[1], "x"), "w")
    out.append("wrote")
except OSError as exc:
    out.append("write " + type(exc).__name__)
print(" ".join(out), flush=True)
for line in sys.stdin:
    sys.stderr.write("err " + line)
    sys.stderr.flush()
    print("got " + line.strip(), flush=True)
"""


@pytest.mark.parametrize("io", ["fifo", "stream"])
def test_session_io_modes_carry_the_same_bytes_and_the_job_cannot_reach_the_fifos(io: str) -> None:
    """Session io "fifo": the job's stdin/stdout are FIFOs in a read-only bind mount that only
    the runner (uid 0) could open by name; its stderr stays the exec stream. "stream": both go
    through the engine. Same replies either way; the FIFO folder is gone after the session."""
    backend = DockerBackend(io=io, spares=0)
    _usable(backend)
    try:
        assert backend.io == io
        session = backend.spawn(SandboxJob(files={"w.py": FIFO_PROBE}, argv=["w.py", IO_MOUNT]),
                                LIMITS)
        folder = backend._live[session.container_id].io_dir if io == "fifo" else None
        try:
            assert session.io == io
            first = session.recv_line(10, 1000).decode()
            if io == "fifo":
                assert first == ("in PermissionError in PermissionError out PermissionError "
                                 "out PermissionError write PermissionError"), first
                assert folder is not None and os.path.isdir(folder)
            else:
                assert first.count("FileNotFoundError") == 5, first  # no such folder
            big = b"x" * 300_000  # larger than a pipe buffer: written in pieces
            session.send(b"a\n" + big + b"\nb\n")
            assert session.recv_line(5, 1000) == b"got a"
            assert session.recv_line(5, 400_000) == b"got " + big
            assert session.recv_line(5, 1000) == b"got b"
            deadline = time.monotonic() + 5  # stderr is a stream of its own: it may lag stdout
            while not session.stderr_tail().endswith("err b\n") and time.monotonic() < deadline:
                time.sleep(0.02)
            assert session.stderr_tail().endswith("err b\n")
        finally:
            session.close()
        with pytest.raises(SessionError):
            session.send(b"more\n")
        deadline = time.monotonic() + 10
        while folder is not None and os.path.exists(folder) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert folder is None or not os.path.exists(folder)
    finally:
        backend.close()


def test_session_exit_is_reported(fresh: DockerBackend) -> None:
    code = "import sys\nprint('bye', flush=True)\nsys.exit(5)"
    session = fresh.spawn(SandboxJob(files={"w.py": code}, argv=["w.py"]), LIMITS)
    try:
        assert session.recv_line(10, 100) == b"bye"
        with pytest.raises(SessionError):
            session.recv_line(10, 100)
        deadline = time.monotonic() + 5
        while session.returncode() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session.returncode() == 5
        with pytest.raises(SessionError):
            session.send(b"more\n")
    finally:
        session.close()


def test_probe_reasons_name_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = DockerBackend(image="bootcamp-synth-sandbox:not-built-0")
    ok, reason = missing.probe()
    if "no Docker engine answers" in reason:
        pytest.skip(f"DOCKER BACKEND NOT TESTED: {reason}")
    assert not ok and "scripts/build_sandbox_image.sh" in reason
    res = missing.run(job("pass"), LIMITS)
    assert res.outcome is Outcome.SANDBOX_ERROR and "build_sandbox_image" in res.detail

    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    ok, reason = DockerBackend().probe()
    assert not ok and "no Docker engine answers" in reason and "docker_engine.sh" in reason
    monkeypatch.setitem(sys.modules, "docker", None)
    ok, reason = DockerBackend().probe()
    assert not ok and "pip install" in reason


def test_image_tag_is_the_build_scripts() -> None:
    out = subprocess.run(
        ["bash", str(BUILD_SCRIPT), "--print-tag"], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == default_image()
    assert Path(BUILD_SCRIPT).name == "build_sandbox_image.sh"


def test_rlimits_and_the_runner_is_out_of_reach(shared: DockerBackend) -> None:
    code = (
        "import os, resource\n"
        "print([resource.getrlimit(r) for r in (resource.RLIMIT_CPU, resource.RLIMIT_AS,"
        " resource.RLIMIT_FSIZE, resource.RLIMIT_NOFILE)])\n"
        "print(open('/proc/self/oom_score_adj').read().strip())\n"
        "try:\n    print(os.listdir(f'/proc/{os.getppid()}/fd'))\n"
        "except OSError as exc:\n    print('runner fds', type(exc).__name__)\n"
    )
    limits = Limits(wall_s=10, cpu_s=7, file_size_mb=3, open_files=40, max_output_bytes=200_000)
    res = shared.run(job(code), limits)
    assert res.outcome is Outcome.PASSED, res
    mb = 1024 * 1024
    assert res.stdout.splitlines() == [
        str([(7, 8), (1024 * mb, 1024 * mb), (3 * mb, 3 * mb), (40, 40)]),
        "1000",
        "runner fds PermissionError",
    ]


def test_concurrent_runs_use_separate_containers(fresh: DockerBackend) -> None:
    code = "import time, os\ntime.sleep(0.5)\nprint(sorted(os.listdir('/tmp')))"
    results = []
    used = set()

    def work() -> None:
        results.append(fresh.run(job(code, unit=UNIT), LIMITS))
        used.add(fresh.last_container())

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.outcome for r in results] == [Outcome.PASSED] * 3, results
    assert all(len(eval_list(r.stdout)) == 1 for r in results)  # nobody saw another's files
    assert len(used) == 3 and sorted(fresh.live_containers()) == sorted(used)


def eval_list(text: str) -> list[str]:
    value = ast.literal_eval(text.strip())
    assert isinstance(value, list)
    return value


def test_a_dead_warm_container_is_replaced(fresh: DockerBackend) -> None:
    assert fresh.run(job("pass", unit=UNIT), LIMITS).outcome is Outcome.PASSED
    (warm,) = fresh.live_containers()
    fresh._remove(warm)  # e.g. the engine restarted behind our back
    res = fresh.run(job("print('still fine')", unit=UNIT), LIMITS)
    assert res.outcome is Outcome.PASSED and res.stdout == "still fine\n", res
    assert warm not in fresh.live_containers()


def test_a_job_cannot_stop_its_container(fresh: DockerBackend) -> None:
    code = (
        "import os, signal\n"
        "for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1, signal.SIGKILL):\n"
        "    try:\n"
        "        os.kill(1, sig)\n"
        "        print('SENT', sig)\n"
        "    except PermissionError:\n"
        "        print('denied')\n"
    )
    res = fresh.run(job(code, unit=UNIT), LIMITS)
    assert res.outcome is Outcome.PASSED and res.stdout == "denied\n" * 5, res
    (warm,) = fresh.live_containers()
    again = fresh.run(job("print('alive')", unit=UNIT), LIMITS)
    assert again.stdout == "alive\n"
    assert fresh.live_containers() == [warm] == [fresh.last_container()]


def test_a_job_cannot_relimit_the_runner_nor_harm_the_next_job(fresh: DockerBackend) -> None:
    code = (
        "import os, resource\n"
        "runner = os.getppid()\n"
        "for name, call in (\n"
        "    ('nofile', lambda: resource.prlimit(runner, resource.RLIMIT_NOFILE, (8, 8))),\n"
        "    ('cpu', lambda: resource.prlimit(runner, resource.RLIMIT_CPU, (1, 1))),\n"
        "    ('nice', lambda: os.setpriority(os.PRIO_PROCESS, runner, 19)),\n"
        "    ('affinity', lambda: os.sched_setaffinity(runner, {0})),\n"
        "):\n"
        "    try:\n"
        "        call()\n"
        "        print('TAMPERED', name)\n"
        "    except PermissionError:\n"
        "        print('denied', name)\n"
    )
    res = fresh.run(job(code, unit=UNIT), LIMITS)
    assert res.outcome is Outcome.PASSED, res
    assert res.stdout.split() == ["denied", "nofile", "denied", "cpu", "denied", "nice",
                                  "denied", "affinity"]  # fmt: skip
    warm = fresh.last_container()
    victim = fresh.run(job("print('unharmed')", unit=UNIT), LIMITS)
    assert victim.outcome is Outcome.PASSED and victim.stdout == "unharmed\n", victim
    assert fresh.last_container() == warm  # not tainted: the same container served it


def test_nothing_a_job_leaves_reaches_the_next(fresh: DockerBackend) -> None:
    leave = (
        "import ctypes, os\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "assert libc.shmget(0x5eed, 1 << 20, 0o1600) >= 0  # IPC_CREAT | 0600\n"
        "os.makedirs('/tmp/deep/er')\n"
        "os.symlink('/tmp/deep', '/tmp/deep/er/loop')\n"
        "os.symlink('.', 'self')\n"
        "os.chmod('/tmp/deep/er', 0)\n"
        "os.chmod('/tmp/deep', 0)\n"
        "os.mkfifo('/tmp/fifo')\n"
        "open('/dev/shm/left', 'w').write('x')\n"
        "os.mkdir('/dev/shm/dir')\n"
        "print(len(open('/proc/sysvipc/shm').read().splitlines()) - 1)\n"
    )
    first = fresh.run(job(leave, unit=UNIT), LIMITS)
    assert first.outcome is Outcome.PASSED and first.stdout == "1\n", first
    warm = fresh.last_container()
    look = (
        "import os\n"
        "print(len(open('/proc/sysvipc/shm').read().splitlines()) - 1)\n"
        "print(sorted(os.listdir('/tmp')) == [os.path.basename(os.getcwd())])\n"
        "print(os.listdir('/dev/shm'), os.listdir('/dev/mqueue'))\n"
    )
    second = fresh.run(job(look, unit=UNIT), LIMITS)
    assert second.outcome is Outcome.PASSED and second.stdout == "0\nTrue\n[] []\n", second
    assert fresh.last_container() == warm  # same container, cleaned


def test_image_has_no_setuid_programs_and_no_site_packages(shared: DockerBackend) -> None:
    code = (
        "import os, stat, sys\n"
        "found = []\n"
        "for top in ('/usr', '/etc', '/var', '/opt'):\n"
        "    for d, _, files in os.walk(top):\n"
        "        for f in files:\n"
        "            st = os.lstat(os.path.join(d, f))\n"
        "            if stat.S_ISREG(st.st_mode) and st.st_mode & 0o6000:\n"
        "                found.append(os.path.join(d, f))\n"
        "print(found)\n"
        "print(os.path.exists('/usr/lib/python3/dist-packages/pip'), sys.flags.no_site)\n"
    )
    res = shared.run(job(code), LIMITS)
    assert res.outcome is Outcome.PASSED, res
    assert res.stdout.splitlines() == ["[]", "False 1"]


def test_settle_waits_for_spares_and_removals() -> None:
    """After a session took a spare and was closed, settle() returns once the engine has made
    the spare again and removed the used container (nothing of that work is left running)."""
    backend = DockerBackend(spares=1)
    _usable(backend)
    try:
        session = backend.spawn(SandboxJob(files={"w.py": "print('hi', flush=True)"}, argv=["w.py"]),
                                LIMITS)
        used = session.container_id
        assert session.recv_line(10, 100) == b"hi"
        session.close()
        start = time.monotonic()
        assert backend.settle(60)
        assert time.monotonic() - start < 60
        assert len(backend.spare_containers()) == 1
        assert used not in backend.engine_containers()
    finally:
        backend.close()
