"""The docker backend's isolation units and its defences against a job taking over a container.

- PID 1 and the runner run as other uids than jobs: ptrace, /proc/<pid>/mem and fd, kill (also
  kill(-1)) fail, a job's stragglers are killed, and a LATER job's result is unaltered;
- jobs of different units never run in the same container, one-shot jobs get one each, and a
  session's container is gone after close;
- spares are created ahead, bounded, and warm unit containers are bounded (LRU);
- /dev/shm and /tmp are private and size-capped, nothing else is writable, nothing survives
  between jobs; ``close()`` leaves no container.

Skipped (loudly) only when no Docker engine answers or the SDK is missing, as in
test_docker_backend.py. Every test bounds its elapsed time and checks for leftover containers.
"""

from __future__ import annotations

import ast
import os
import secrets
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from helpers import processes_with

from synth.sandbox.base import PYTHON_FLAGS, Limits, Outcome, SandboxJob
from synth.sandbox.docker import DockerBackend
from synth.sandbox.docker_runner import FLAGS, INIT_UID, JOB_UID

pytestmark = [pytest.mark.docker, pytest.mark.timeout(300)]

LIMITS = Limits(wall_s=10, cpu_s=10, max_output_bytes=200_000)
SLACK_S = 4.0  # container start-up and removal on a loaded 2-core machine


def _usable(backend: DockerBackend) -> None:
    ok, reason = backend.probe()
    if ok:
        return
    if "no Docker engine answers" in reason or "SDK is not installed" in reason:
        message = f"DOCKER BACKEND NOT TESTED: {reason}"
        print(message, file=sys.stderr)
        pytest.skip(message)
    pytest.fail(f"docker engine answers but the backend cannot run: {reason}")


@pytest.fixture
def make() -> Iterator[Callable[..., DockerBackend]]:
    """Backends with the given options; each is closed afterwards, which must be quick and
    leave no container behind."""
    made: list[DockerBackend] = []

    def factory(**options: Any) -> DockerBackend:
        backend = DockerBackend(**options)
        made.append(backend)
        _usable(backend)
        return backend

    yield factory
    for backend in made:
        start = time.monotonic()
        backend.close()
        assert time.monotonic() - start < 20
        assert backend.engine_containers() == []


def job(code: str, unit: str = "", **env: str) -> SandboxJob:
    return SandboxJob(files={"main.py": code}, argv=["main.py"], env=env, unit=unit)


def timed_run(backend: DockerBackend, sandbox_job: SandboxJob, limits: Limits = LIMITS) -> Any:
    start = time.monotonic()
    res = backend.run(sandbox_job, limits)
    assert time.monotonic() - start <= limits.wall_s + SLACK_S, res
    return res


def running(backend: DockerBackend, cid: str) -> bool:
    import docker

    try:
        return bool(backend._client.api.inspect_container(cid)["State"]["Running"])
    except docker.errors.NotFound:
        return False


def exists(backend: DockerBackend, cid: str) -> bool:
    import docker

    try:
        backend._client.api.inspect_container(cid)
    except docker.errors.NotFound:
        return False
    return True


def wait_for(predicate: Callable[[], bool], timeout_s: float = 15.0) -> float:
    """Poll until ``predicate()``; returns the time it took (fails the test on timeout)."""
    start = time.monotonic()
    while not predicate():
        assert time.monotonic() - start < timeout_s, "condition not reached in time"
        time.sleep(0.05)
    return time.monotonic() - start


ATTACKS = r"""
import ctypes, errno, os, signal, sys, time

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
PTRACE_ATTACH, PTRACE_SEIZE = 16, 0x4206
runner = os.getppid()


def outcome(call):
    try:
        result = call()
    except OSError as exc:
        return "denied " + errno.errorcode.get(exc.errno, str(exc.errno))
    if isinstance(result, int) and result < 0:
        return "denied " + errno.errorcode.get(ctypes.get_errno(), "?")
    return "ALLOWED"


def write_mem(pid):
    with open(f"/proc/{pid}/mem", "r+b", buffering=0) as fh:
        fh.seek(0x400000)
        fh.write(b"\xcc")


def write_fd(pid, fd):
    with open(f"/proc/{pid}/fd/{fd}", "wb", buffering=0) as fh:
        fh.write(b'{"state": "exited", "returncode": 0, "stdout": "FORGED"}\n')


def attacks(pid):
    return {
        "ptrace_attach": lambda: libc.ptrace(PTRACE_ATTACH, pid, None, None),
        "ptrace_seize": lambda: libc.ptrace(PTRACE_SEIZE, pid, None, None),
        "mem": lambda: write_mem(pid),
        "fd_list": lambda: os.listdir(f"/proc/{pid}/fd"),
        "fd1": lambda: write_fd(pid, 1),
        "fd0": lambda: write_fd(pid, 0),
        "stop": lambda: os.kill(pid, signal.SIGSTOP),
        "kill": lambda: os.kill(pid, signal.SIGKILL),
    }


def uid_of(pid):
    with open(f"/proc/{pid}/status") as fh:
        return int(next(l for l in fh if l.startswith("Uid:")).split()[1])


print("uids", uid_of(1), uid_of(runner), os.getuid())
for who, pid in (("init", 1), ("runner", runner)):
    for name, call in attacks(pid).items():
        print(who, name, outcome(call))

if sys.argv[1:2] == ["straggler"]:
    # A detached process that keeps attacking every process it sees (a later job's runner
    # included, if it were still alive then) and reports any success in a file.
    log = os.path.abspath("straggler.log")
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", '''
import os, sys
exec(open(sys.argv[2]).read().split("# STRAGGLER" + "-BODY")[1])
''', sys.argv[2], os.path.abspath(__file__), log])
        os._exit(0)
    time.sleep(1.0)
    print("straggler found", open(log).read().split() if os.path.exists(log) else "no log")
# STRAGGLER-BODY
if "__file__" not in globals():
    import ctypes, os, signal, sys, time
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    me, log = os.getpid(), sys.argv[-1]
    open(log, "w").close()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == me:
                continue
            pid = int(name)
            try:
                with open(f"/proc/{pid}/status") as fh:
                    uid = int(next(l for l in fh if l.startswith("Uid:")).split()[1])
            except (OSError, StopIteration):
                continue
            if uid == os.getuid():
                continue  # its own job's processes: fair game, they are its own
            found = []
            if libc.ptrace(0x4206, pid, None, None) == 0:
                found.append(f"seized:{pid}")
            for fd in (0, 1):
                try:
                    with open(f"/proc/{pid}/fd/{fd}", "wb", buffering=0) as fh:
                        fh.write(b'{"state": "exited", "stdout": "FORGED"}\n')
                    found.append(f"wrote:{pid}:{fd}")
                except OSError:
                    pass
            if found:
                with open(log, "a") as fh:
                    fh.write(" ".join(found) + "\n")
        time.sleep(0.001)
"""


def test_attacks_on_pid1_and_the_runner_fail_and_later_results_are_unaltered(
    make: Callable[..., DockerBackend],
) -> None:
    backend = make()
    unit = "unit-" + secrets.token_hex(4)
    marker = f"synthdku{secrets.token_hex(6)}"
    first = SandboxJob(files={"main.py": ATTACKS}, argv=["main.py", "straggler", marker], unit=unit)
    res = timed_run(backend, first)
    assert res.outcome is Outcome.PASSED, res
    lines = res.stdout.splitlines()
    assert lines[0] == f"uids {INIT_UID} 0 {JOB_UID}"
    attempts = [line.split(" ", 2) for line in lines[1:-1]]
    assert len(attempts) == 16, lines
    assert all(result.startswith("denied") for _, _, result in attempts), attempts
    assert lines[-1] == "straggler found []", lines  # it never got at anything either
    container = backend.last_container()
    assert processes_with(marker) == []  # the runner killed the straggler after the job

    # kill(-1) signals all the caller may signal but itself: here its own child only
    everyone = (
        "import os, signal, subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])\n"
        "time.sleep(0.2)\n"
        "os.kill(-1, signal.SIGKILL)\n"
        "print('after', child.wait())\n"
    )
    res = timed_run(backend, job(everyone, unit=unit))
    assert res.outcome is Outcome.PASSED and res.stdout == "after -9\n", res
    assert backend.last_container() == container

    victim = (
        "import os\n"
        "pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())\n"
        "print('victim', 6 * 7, len(pids), os.getppid() in pids, 1 in pids)\n"
    )
    res = timed_run(backend, job(victim, unit=unit))
    assert res.outcome is Outcome.PASSED and res.stdout == "victim 42 3 True True\n", res
    assert backend.last_container() == container
    assert backend.stats["reused"] == 2


def test_a_fork_storm_left_behind_is_gone_before_the_next_job(
    make: Callable[..., DockerBackend],
) -> None:
    backend = make(spares=0)
    marker = f"synthdkf{secrets.token_hex(6)}"
    storm = (
        "import os, sys, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    while True:\n"
        "        try:\n"
        "            if os.fork() == 0:\n"
        f"                os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(60)', '{marker}'])\n"
        "        except OSError:\n"
        "            time.sleep(0.001)  # at the pids limit: keep trying\n"
        "time.sleep(0.5)\n"
        "print('left', len([p for p in os.listdir('/proc') if p.isdigit()]) > 10)\n"
    )
    limits = Limits(wall_s=10, cpu_s=10, pids=32)
    res = timed_run(backend, job(storm, unit="u"), limits)
    assert res.outcome is Outcome.PASSED and res.stdout == "left True\n", res
    container = backend.last_container()
    assert processes_with(marker) == []
    look = "import os\nprint(len([p for p in os.listdir('/proc') if p.isdigit()]))\n"
    res = timed_run(backend, job(look, unit="u"), limits)
    assert res.outcome is Outcome.PASSED and res.stdout == "3\n", res  # PID 1, runner, itself
    assert backend.last_container() == container


def test_units_never_share_a_container(make: Callable[..., DockerBackend]) -> None:
    backend = make()
    start = time.monotonic()
    seen: list[tuple[str, str]] = []
    lock = threading.Lock()

    def one(unit: str) -> None:
        code = "import os\nprint(sorted(os.listdir('/tmp')) == [os.path.basename(os.getcwd())])"
        res = timed_run(backend, job(code, unit=unit))
        assert res.outcome is Outcome.PASSED and res.stdout == "True\n", res
        with lock:
            seen.append((unit, str(backend.last_container())))

    for unit in ("a", "b", "a", "", "c", "", "b", "a", ""):
        one(unit)
    threads = [threading.Thread(target=one, args=(u,)) for u in ("d", "e", "d", "", "e")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seen) == 14
    units_of: dict[str, set[str]] = {}
    for unit, cid in seen:
        units_of.setdefault(cid, set()).add(unit)
    assert all(len(units) == 1 for units in units_of.values()), units_of
    one_shot = [cid for unit, cid in seen if unit == ""]
    assert len(set(one_shot)) == len(one_shot) == 4  # each used once
    assert not set(one_shot) & set(backend.live_containers())
    assert len({cid for unit, cid in seen if unit == "a"}) == 1  # sequential: reused
    assert time.monotonic() - start < 60


WORKER = """
import os, subprocess, sys
subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', sys.argv[1]],
                 start_new_session=True)
print('ready', os.getuid(), flush=True)
for line in sys.stdin:
    print('echo', line.strip(), flush=True)
"""


def test_a_session_has_its_own_container_which_is_gone_after_close(
    make: Callable[..., DockerBackend],
) -> None:
    backend = make()
    marker = f"synthdks{secrets.token_hex(6)}"
    assert timed_run(backend, job("pass", unit="u")).outcome is Outcome.PASSED
    unit_container = backend.last_container()
    worker = SandboxJob(files={"w.py": WORKER}, argv=["w.py", marker], unit="u")
    start = time.monotonic()
    sessions = [backend.spawn(worker, LIMITS) for _ in range(2)]
    ids = [s.container_id for s in sessions]
    try:
        for session in sessions:
            assert session.recv_line(10, 1000) == b"ready 65534"
            session.send(b"hi\n")
            assert session.recv_line(5, 1000) == b"echo hi"
        assert time.monotonic() - start < 2 * SLACK_S
        assert len(set(ids)) == 2 and unit_container not in ids  # never a unit's container
        assert len(processes_with(marker)) == 4  # two workers, a child each
    finally:
        closing = time.monotonic()
        for session in sessions:
            session.close()
        assert time.monotonic() - closing < SLACK_S
    assert not any(running(backend, cid) for cid in ids)  # stopped when close() returns
    assert processes_with(marker) == []
    assert not set(ids) & set(backend.live_containers())
    wait_for(lambda: not any(exists(backend, cid) for cid in ids))  # and removed soon after
    assert timed_run(backend, job("pass", unit="u")).outcome is Outcome.PASSED
    assert backend.last_container() == unit_container


def test_spares_are_created_ahead_and_bounded(make: Callable[..., DockerBackend]) -> None:
    backend = make(spares=2, spare_keys=2)
    most = 0
    sampling = threading.Event()

    def sample() -> None:
        nonlocal most
        while not sampling.is_set():
            most = max(most, len(backend.spare_containers()))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        assert wait_for(lambda: len(backend.spare_containers()) == 2) < 10
        ready = set(backend.spare_containers())
        res = timed_run(backend, job("print('hi')"))
        assert res.outcome is Outcome.PASSED and backend.last_container() in ready
        assert backend.stats["spare_hits"] >= 1
        wait_for(lambda: len(backend.spare_containers()) == 2)
        first_key = set(backend.spare_containers())

        small = Limits(wall_s=10, cpu_s=10, memory_mb=256, pids=32)
        assert timed_run(backend, job("pass"), small).outcome is Outcome.PASSED
        wait_for(lambda: len(backend.spare_containers()) == 4)  # two keys, two spares each
        smaller = Limits(wall_s=10, cpu_s=10, memory_mb=128, pids=32)
        assert timed_run(backend, job("pass"), smaller).outcome is Outcome.PASSED
        # the least recently used key (the first) lost its spares
        wait_for(lambda: not first_key & set(backend.spare_containers()))
        wait_for(lambda: len(backend.spare_containers()) == 4)
        wait_for(lambda: not any(running(backend, cid) for cid in first_key))
        time.sleep(0.5)  # the refill thread has nothing left to do
        assert len(backend.spare_containers()) == 4
    finally:
        sampling.set()
        sampler.join()
    assert most <= 4
    # a spare is never used before: a job in it sees only its own files
    code = "import os\nprint(os.listdir('/tmp') == [os.path.basename(os.getcwd())])"
    assert timed_run(backend, job(code, unit="x"), smaller).stdout == "True\n"


def test_warm_unit_containers_are_bounded_lru(make: Callable[..., DockerBackend]) -> None:
    backend = make(spares=0, max_warm=2)
    start = time.monotonic()
    where = {}
    for unit in ("A", "B", "C"):
        assert timed_run(backend, job("pass", unit=unit)).outcome is Outcome.PASSED
        where[unit] = backend.last_container()
    assert sorted(backend.live_containers()) == sorted([where["B"], where["C"]])
    wait_for(lambda: not exists(backend, where["A"]))  # evicted: removed
    assert timed_run(backend, job("pass", unit="B")).outcome is Outcome.PASSED
    assert backend.last_container() == where["B"]  # reused; now C is the least recent
    assert timed_run(backend, job("pass", unit="A")).outcome is Outcome.PASSED
    assert backend.last_container() not in where.values()  # A's old container is gone
    assert sorted(backend.live_containers()) == sorted([where["B"], backend.last_container()])
    assert backend.stats["evicted"] == 2
    assert time.monotonic() - start < 30


def test_close_leaves_no_container(make: Callable[..., DockerBackend]) -> None:
    backend = make(spares=2)
    assert timed_run(backend, job("pass", unit="k")).outcome is Outcome.PASSED
    assert timed_run(backend, job("pass")).outcome is Outcome.PASSED
    session = backend.spawn(SandboxJob(files={"w.py": WORKER}, argv=["w.py", "x"]), LIMITS)
    assert session.recv_line(10, 1000) == b"ready 65534"
    wait_for(lambda: len(backend.spare_containers()) == 2)
    assert len(backend.engine_containers()) >= 4  # unit, session, two spares
    start = time.monotonic()
    backend.close()
    assert time.monotonic() - start < 15
    assert backend.engine_containers() == []
    after = backend.run(job("pass"), LIMITS)
    assert after.outcome is Outcome.SANDBOX_ERROR and "closed" in after.detail
    with pytest.raises(RuntimeError, match="closed"):
        backend.spawn(job("pass"), LIMITS)
    session.close()  # harmless after the backend closed


def test_dev_shm_and_tmp_are_private_and_capped_nothing_else_is_writable(
    make: Callable[..., DockerBackend],
) -> None:
    backend = make(spares=0, shm_mb=8, tmpfs_mb=16)
    code = (
        "import errno, os\n"
        "def fill(top):\n"
        "    written = 0\n"
        "    try:\n"
        "        for i in range(64):\n"
        "            with open(f'{top}/fill{i}', 'wb') as fh:\n"
        "                for _ in range(4):\n"
        "                    fh.write(b'x' * 2**20)\n"
        "                    written += 1\n"
        "    except OSError as exc:\n"
        "        return errno.errorcode[exc.errno], written\n"
        "    return 'no limit', written\n"
        "print([fill('/dev/shm'), fill('/tmp')])\n"
        "points = [line.split()[4] for line in open('/proc/self/mountinfo')]\n"
        "writable = sorted(p for p in set(points) if os.access(p, os.W_OK)\n"
        "                  and not os.statvfs(p).f_flag & os.ST_RDONLY)\n"
        "print([p for p in writable if os.path.isdir(p)])\n"
        "print([(p, os.path.realpath(p), os.stat(p).st_rdev) for p in writable\n"
        "       if not os.path.isdir(p)])\n"
        "print(os.readlink('/proc/self/ns/ipc'))\n"
    )
    limits = Limits(wall_s=10, cpu_s=10, file_size_mb=4)
    first = timed_run(backend, job(code, unit="one"), limits)
    assert first.outcome is Outcome.PASSED, first
    capped, writable, devices, ipc = first.stdout.splitlines()
    (shm_err, shm_mb), (tmp_err, tmp_mb) = ast.literal_eval(capped)
    assert shm_err == tmp_err == "ENOSPC"
    assert 6 <= shm_mb <= 8 and 12 <= tmp_mb <= 16  # the caps (less what else lives there)
    assert ast.literal_eval(writable) == ["/dev/mqueue", "/dev/shm", "/tmp"]
    null = os.makedev(1, 3)
    # Docker masks /proc/keys and /proc/timer_list with /dev/null: writable, and harmless
    assert {(path, rdev) for path, _, rdev in ast.literal_eval(devices)} <= {
        ("/proc/keys", null), ("/proc/timer_list", null), ("/proc/kcore", null),
        ("/proc/latency_stats", null), ("/proc/sched_debug", null),
    }  # fmt: skip
    second = timed_run(backend, job(code, unit="two"), limits)
    assert second.outcome is Outcome.PASSED, second
    assert second.stdout.splitlines()[3] != ipc  # another IPC namespace
    host_ipc = os.readlink("/proc/self/ns/ipc")
    assert host_ipc not in (ipc, second.stdout.splitlines()[3])


def test_nothing_survives_in_dev_shm_between_jobs(make: Callable[..., DockerBackend]) -> None:
    backend = make(spares=0)
    leave = (
        "import ctypes, os\n"
        "from multiprocessing import shared_memory\n"
        "shm = shared_memory.SharedMemory(name='leftover', create=True, size=2**20)\n"
        "shm.buf[:5] = b'hello'\n"
        "os.makedirs('/dev/shm/sub/deeper')\n"
        "open('/dev/shm/sub/deeper/f', 'w').write('x')\n"
        "os.chmod('/dev/shm/sub', 0)\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "print(libc.mq_open(b'/queue', os.O_CREAT | os.O_RDWR, 0o600, None) >= 0)\n"
        "print(sorted(os.listdir('/dev/shm')), os.listdir('/dev/mqueue'), flush=True)\n"
        "os._exit(0)  # no resource tracker clean-up: leave it all behind\n"
    )
    first = timed_run(backend, job(leave, unit="u"))
    assert first.outcome is Outcome.PASSED, first
    assert first.stdout == "True\n['leftover', 'sub'] ['queue']\n"
    container = backend.last_container()
    look = (
        "import os\n"
        "from multiprocessing import shared_memory\n"
        "print(os.listdir('/dev/shm'), os.listdir('/dev/mqueue'))\n"
        "try:\n"
        "    shared_memory.SharedMemory(name='leftover')\n"
        "    print('FOUND')\n"
        "except FileNotFoundError:\n"
        "    print('gone')\n"
    )
    second = timed_run(backend, job(look, unit="u"))
    assert second.outcome is Outcome.PASSED and second.stdout == "[] []\ngone\n", second
    assert backend.last_container() == container  # the same container, cleaned


def test_the_runner_starts_jobs_with_the_backends_interpreter_flags() -> None:
    assert FLAGS == PYTHON_FLAGS  # docker_runner.py is standalone: it keeps its own copy
