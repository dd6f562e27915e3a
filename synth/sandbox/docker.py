"""L3 sandbox: jobs run in locked-down containers of the project's image, one code per container.

The image ``bootcamp-synth-sandbox:<tag>`` is built offline by ``scripts/build_sandbox_image.sh``
(Debian bookworm minbase + python3 and nothing else: no compiler, no pip, no site-packages, no
setuid programs, no secrets). All a job can *read* is that public file tree, its own files,
Docker's read-only /etc/hosts, /etc/hostname and /etc/resolv.conf, and /proc and /sys with
Docker's masks. The tag is the first 12 hex digits of the script's sha256, which
:func:`default_image` recomputes. The engine is started by ``scripts/docker_engine.sh`` (no default bridge, no
iptables).

Every container is created through the ``docker`` SDK with::

    network_mode="none", read_only=True, ipc_mode="none" (a private IPC namespace),
    tmpfs /tmp (size=tmpfs_mb) and /dev/shm (size=shm_mb), both nosuid,nodev,noexec,
    mem_limit = memswap_limit, pids_limit, nano_cpus, cap_drop=["ALL"],
    cap_add=["KILL", "SETGID", "SETUID", "SETPCAP"] (for the runner only, see below),
    security_opt=["no-new-privileges"], user="0:0" (PID 1 drops it at once), no logs,
    runtime="runsc" when the engine has gVisor (and runtime="auto")

and labelled ``bootcamp-synth.sandbox=1``, its owner (host, pid, process start time) and the
creating backend. The only places a job can write are /tmp, /dev/shm (both size-capped tmpfs,
charged to the container's memory limit) and /dev/mqueue (POSIX queues, bounded by
RLIMIT_MSGQUEUE); all three are emptied between jobs.

Who runs as whom (the design against a job taking over its container)
----------------------------------------------------------------------
A job runs as uid/gid 65534 with no capabilities (empty bounding set) and no-new-privileges.
PID 1 (:mod:`synth.sandbox.docker_runner` ``init``) starts as root only because Docker grants
an exec'd process capabilities only when the container's user is root; it empties its bounding
set and becomes uid 65533 before doing anything else. The per-container *runner* (``serve``,
one ``docker exec`` as root) keeps exactly CAP_KILL, CAP_SETUID, CAP_SETGID, CAP_SETPCAP,
empties its bounding set and is non-dumpable. Because neither PID 1 nor the runner has the
job's uid, the kernel refuses a job the ways to reach them: ``ptrace`` (ATTACH or SEIZE),
``/proc/<pid>/mem`` and ``/proc/<pid>/fd``, ``kill`` (``kill(-1)`` only kills the job's own
processes), ``prlimit``, ``setpriority`` and ``sched_setaffinity``. The runner never runs job
code itself: before and after every job it kills every process but PID 1 and itself (CAP_KILL,
``kill(-1, SIGKILL)``), then a forked helper that became uid 65534 empties the writable
directories and System V IPC and writes the next job's files, and the job is started with
``setuid``. So no process of an earlier job is alive when a later job starts, and a job cannot
rewrite any result but its own (which it controls through its output anyway).

Alternatives considered: (a) a runner of the job's uid that makes itself non-dumpable (the
earlier design) leaves ``kill``/``prlimit`` open and a dumpable start-up window; (b) no
persistent runner, one ``docker exec --user 65534`` per job: then nobody with another uid can
kill a job's stragglers, so they can attack the next job's launcher during its start-up, and
every job pays an exec (~50 ms). The cost of this design is a root process in the container
that holds four capabilities and reads only its own stdin (the host's payloads).

Containers and isolation units
------------------------------
``SandboxJob.unit`` names the code a job runs (its sha256). A container serves jobs of at most
ONE unit over its whole life and is removed after it; a job with ``unit=""`` gets a container
of its own, used once. Jobs of a unit reuse that unit's warm containers (one job at a time per
container; the cleanup above runs between them); at most ``max_warm`` idle unit-bound
containers are kept, the least recently used is removed first. Sessions (:meth:`spawn`: the
warm pool, method servers) get a container of their own that is removed when the session
closes.

To keep latency low, a background thread keeps ``spares`` fresh, never-used containers per
container-level limits key (``memory_mb``, ``pids``) for the ``spare_keys`` most recently used
keys, each with its runner already started and waiting for its first payload; a job or session
takes one and binds it to its unit. Removal of used containers happens on a second background
thread (a one-shot job does not wait for it); :meth:`DockerBackend.close` waits for both and
removes every container the backend created. A container is also removed (never reused)
after a timeout, an OOM, any anomaly (runner silent, limits tampered with) and after
``max_runs`` jobs. Containers left behind by processes that are gone are removed at start-up
(probe).

Cost, measured on a shared 2-core VM (runc; the earlier design and this one interleaved job by
job, medians; in brackets: while other test suites loaded the machine to ~10): a trivial
one-shot ``run()`` took 32 (58) ms before (one warm container for all code); now 16 (48) ms in
a unit's warm container (the runner no longer sleeps while the job's zombie is around), 30
(166) ms with ``unit=""`` jobs 1.5 s apart (a spare ready; not always under load), 150-250 ms
when they come faster than spares are made (a container start costs ~250 ms). ``spawn()`` to the first reply: 112 (276) ms
before, 21 (81) ms now (the spare's runner is up); closing a session: 85 (226) ms before (a
cleanup exec), 74 (121) ms now (the container is stopped at once, removed in the background).

Sessions: the runner of a spare receives a payload marked ``session``, drops to uid 65534 and
``execve``-s into the job, so its stdin/stdout ARE the exec stream; :class:`DockerSession`
implements the :class:`~synth.sandbox.base.Session` protocol over it.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import math
import os
import queue
import signal
import threading
import time
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import Any

from synth.sandbox.base import (
    Limits,
    Outcome,
    RunResult,
    SandboxJob,
    build_env,
    classify_exit,
    host_python_refusal,
)
from synth.sandbox.docker_engine import connect, io_mode, owner_alive, owner_tag
from synth.sandbox.docker_session import (
    Container,
    ContainerGone,
    DockerSession,
    ExecStream,
    frame,
    open_writer,
    remove_io_dir,
)

__all__ = [
    "LABEL",
    "DockerBackend",
    "DockerSession",
]

LABEL = "bootcamp-synth.sandbox"
OWNER_LABEL = "bootcamp-synth.owner"
BACKEND_LABEL = "bootcamp-synth.backend"
PYTHON = "/usr/bin/python3"
RUNNER_FLAGS = ("-I", "-S", "-B")  # the runner and PID 1: no environment, no cwd on sys.path
CONTAINER_USER = "0:0"  # PID 1 drops to 65533 at once; only the runner stays root (4 caps)
RUNNER_CAPS = ["KILL", "SETGID", "SETUID", "SETPCAP"]
JOB_UID = 65534
RUNNER_SOURCE = (Path(__file__).with_name("docker_runner.py")).read_text(encoding="utf-8")
EXEC_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
HOST_GRACE_S = 10.0  # the host waits this long past the wall limit before killing the container
MEMORY_HEADROOM_MB = 96  # cgroup limit = job's memory_mb + this (PID 1, the runner, buffers)
PIDS_HEADROOM = 8  # PID 1, the runner, its helper, the exec shim
REFILL_BACKOFF_S = 2.0  # after a failed spare creation
#: where a container sees its session FIFOs (a read-only bind mount of a host folder of its own)
IO_MOUNT = "/run/synth-io"


class DockerBackend:
    """L3: containers bound to one isolation unit each, fresh spares ready (module docstring)."""

    name = "docker"

    def __init__(
        self,
        image: str | None = None,
        *,
        runtime: str = "auto",
        cpus: float = 1.0,
        tmpfs_mb: int = 256,
        shm_mb: int = 64,
        max_runs: int = 100,
        spares: int = 2,
        spare_keys: int = 2,
        max_warm: int = 8,
        api_timeout_s: float = 60.0,
        io: str = "auto",
    ) -> None:
        if runtime not in ("auto", "runc", "runsc"):
            raise ValueError("runtime must be 'auto', 'runc' or 'runsc'")
        if io not in ("auto", "fifo", "stream"):
            raise ValueError("io must be 'auto', 'fifo' or 'stream'")
        self.io_choice = io
        self.io = "stream"  # decided by the probe (see _io_mode)
        if min(spares, spare_keys, max_warm) < 0 or max_runs < 1:
            raise ValueError("spares, spare_keys and max_warm must be >= 0, max_runs >= 1")
        self.image = image
        self.runtime_choice = runtime
        self.runtime: str | None = None
        self.cpus = cpus
        self.tmpfs_mb = tmpfs_mb
        self.shm_mb = shm_mb
        self.max_runs = max_runs
        self.spares = spares
        self.spare_keys = spare_keys
        self.max_warm = max_warm
        self.api_timeout_s = api_timeout_s
        self.stats = dict.fromkeys(
            (
                "created",  # containers started (spares included)
                "spare_hits",  # a job or session took a ready spare
                "spare_misses",  # ... or had to wait for a container to be created
                "reused",  # a unit's warm container served another job of that unit
                "evicted",  # idle unit containers removed to respect max_warm
                "recycled",  # unit containers removed after an anomaly or max_runs
                "removed",  # containers removed, for any reason
                "refill_errors",
                "leftovers_removed",
            ),
            0,
        )
        self.last_refill_error = ""
        self._client: Any = None
        self._probe_result: tuple[bool, str] | None = None
        self._probe_lock = threading.Lock()
        self._cond = threading.Condition()
        self._live: dict[str, Container] = {}  # every container we hold (not yet disposed)
        self._spare: dict[tuple[int, int], list[Container]] = {}
        self._spare_lru: OrderedDict[tuple[int, int], None] = OrderedDict()
        self._creating: dict[tuple[int, int], int] = {}
        self._idle: OrderedDict[tuple[str, tuple[int, int]], list[Container]] = OrderedDict()
        self._doomed: queue.Queue[str | None] = queue.Queue()
        self._io_dirs: dict[str, str] = {}  # container id -> its session FIFO folder
        self._threads: list[threading.Thread] = []
        self._local = threading.local()
        self._owner = owner_tag()
        self._tag = uuid.uuid4().hex[:16]
        self._closed = False
        atexit.register(self.close)  # containers must not outlive the process

    # -- probe --------------------------------------------------------------------------------
    def probe(self) -> tuple[bool, str]:
        """Can containers run here? The reason names the missing piece and the fix."""
        with self._probe_lock:
            if self._probe_result is None:
                self._probe_result = self._probe()
        return self._probe_result

    def _probe(self) -> tuple[bool, str]:
        engine = connect(self.api_timeout_s, self.image, self.runtime_choice)
        if isinstance(engine, str):
            return False, engine
        client, self.image, self.runtime = engine
        self._client = client
        self.io = io_mode(client, self.runtime, self.io_choice)
        self.remove_leftovers()
        job = SandboxJob(files={"p.py": "print(6 * 7)"}, argv=["p.py"])
        res = self._run(job, Limits(wall_s=30, cpu_s=10))
        if res.outcome is not Outcome.PASSED or res.stdout.strip() != "42":
            return False, f"trial run in {self.image} failed: {res.outcome} {res.detail} " + (
                res.stderr[-300:]
            )
        self._start_threads()
        runtime = self.runtime or "runc"
        return True, f"ok (image {self.image}, runtime {runtime}, session io {self.io})"

    def remove_leftovers(self) -> int:
        """Remove labelled containers whose creating process is gone; return how many."""
        removed = 0
        # the low-level list: the SDK's containers.list() inspects each one and fails when
        # one is removed meanwhile (by another backend's removal thread)
        for cont in self._client.api.containers(all=True, filters={"label": f"{LABEL}=1"}):
            owner = (cont.get("Labels") or {}).get(OWNER_LABEL, "")
            if owner == self._owner or owner_alive(owner):
                continue
            with contextlib.suppress(Exception):
                self._client.api.remove_container(cont["Id"], force=True)
                removed += 1
        self._count("leftovers_removed", removed)
        return removed

    # -- bookkeeping ----------------------------------------------------------------------------
    def _count(self, name: str, n: int = 1) -> None:
        with self._cond:
            self.stats[name] += n

    def live_containers(self) -> list[str]:
        """Ids of the containers this backend holds that have served (or serve) a job: idle
        unit containers and busy ones. Spares are listed by :meth:`spare_containers`."""
        with self._cond:
            return [c.id for c in self._live.values() if c.unit is not None]

    def spare_containers(self) -> list[str]:
        """Ids of the fresh, never-used containers kept ready."""
        with self._cond:
            return [c.id for spares in self._spare.values() for c in spares]

    def engine_containers(self) -> list[str]:
        """Ids of every container the engine still has from this backend (being removed too)."""
        if self._client is None:
            return []
        found = self._client.api.containers(
            all=True, filters={"label": f"{BACKEND_LABEL}={self._tag}"}
        )
        return [c["Id"] for c in found]

    def last_container(self) -> str | None:
        """Id of the container that ran the calling thread's latest ``run()`` or ``spawn()``
        (None when it got none). For tests and diagnostics."""
        return getattr(self._local, "container", None)

    # -- containers ---------------------------------------------------------------------------
    def _create(self, key: tuple[int, int]) -> Container:
        """Create and start a container and its runner (which waits for its first payload)."""
        import docker

        memory_mb, pids = key
        mem = f"{memory_mb + MEMORY_HEADROOM_MB}m"
        kwargs: dict[str, Any] = {}
        if self.runtime:
            kwargs["runtime"] = self.runtime
        tmpfs_opts = "mode=1777,nosuid,nodev,noexec"
        io_dir = self._make_io_dir() if self.io == "fifo" else None
        if io_dir is not None:
            kwargs["volumes"] = {io_dir: {"bind": IO_MOUNT, "mode": "ro"}}
        # create + start, never containers.run: that would try to pull a missing image
        created = self._client.containers.create(
            self.image,
            command=[PYTHON, *RUNNER_FLAGS, "-c", RUNNER_SOURCE, "init"],
            network_mode="none",
            read_only=True,
            tmpfs={
                "/tmp": f"size={self.tmpfs_mb}m,{tmpfs_opts}",
                "/dev/shm": f"size={self.shm_mb}m,{tmpfs_opts}",
            },
            ipc_mode="none",
            mem_limit=mem,
            memswap_limit=mem,
            pids_limit=pids + PIDS_HEADROOM,
            nano_cpus=int(self.cpus * 1e9),
            cap_drop=["ALL"],
            cap_add=RUNNER_CAPS,
            security_opt=["no-new-privileges"],
            user=CONTAINER_USER,
            working_dir="/",
            environment=EXEC_ENV,
            hostname="sandbox",
            labels={LABEL: "1", OWNER_LABEL: self._owner, BACKEND_LABEL: self._tag},
            log_config=docker.types.LogConfig(type="none"),
            **kwargs,
        )
        cont = Container(id=created.id, key=key, io_dir=io_dir)
        if io_dir is not None:
            with self._cond:
                self._io_dirs[created.id] = io_dir
        try:
            created.start()
            cont.agent_exec, cont.agent = self._exec_runner(cont.id)
        except Exception:
            cont.drop_agent()
            self._remove(cont.id)
            remove_io_dir(io_dir)
            raise
        self._count("created")
        return cont

    @staticmethod
    def _make_io_dir() -> str:
        """A host folder (0700, this process's uid) with the FIFOs ``in`` and ``out`` (0600): the
        container's runner (uid 0, the owner, before it drops privileges) opens them for the
        job; the job itself (another uid) cannot open them by name."""
        import tempfile

        path = tempfile.mkdtemp(prefix="synth-docker-io-")
        os.chmod(path, 0o700)
        for name in ("in", "out"):
            os.mkfifo(os.path.join(path, name), 0o600)
        return path

    def _exec_runner(self, container_id: str) -> tuple[str, ExecStream]:
        api = self._client.api
        exec_id = api.exec_create(
            container_id,
            [PYTHON, *RUNNER_FLAGS, "-c", RUNNER_SOURCE, "serve"],
            stdin=True,
            stdout=True,
            stderr=True,
            user="0:0",
            workdir="/",
            environment=EXEC_ENV,
        )["Id"]
        return exec_id, ExecStream(api.exec_start(exec_id, socket=True))

    def _acquire(
        self, unit: str, limits: Limits, *, fresh: bool = False
    ) -> tuple[Container, bool]:
        """A container for one job of ``unit``: the unit's idle one, else a spare, else a new
        one (always a new one when ``fresh``). Returns it and whether it was made earlier."""
        key = (limits.memory_mb, limits.pids)
        cont: Container | None = None
        with self._cond:
            if self._closed:
                raise RuntimeError("the docker backend is closed")
            evicted = self._note_key(key)
            if unit and not fresh:
                idle = self._idle.get((unit, key))
                if idle:
                    cont = idle.pop()
                    if not idle:
                        del self._idle[(unit, key)]
                    self.stats["reused"] += 1
            spares = self._spare.get(key)
            if cont is None and spares and not fresh:
                cont = spares.pop(0)
                cont.unit = unit  # a spare is bound now, for life
                self.stats["spare_hits"] += 1
                self._cond.notify_all()  # the refill thread makes the next one
            elif cont is None:
                self.stats["spare_misses"] += 1
        self._dispose(evicted)
        made_earlier = cont is not None
        if cont is None:
            cont = self._create(key)
            cont.unit = unit
            with self._cond:
                closed = self._closed
                if not closed:
                    self._live[cont.id] = cont
            if closed:  # close() ran while we were creating it
                self._dispose([cont], kill=True)
                raise RuntimeError("the docker backend is closed")
        return cont, made_earlier

    def _note_key(self, key: tuple[int, int]) -> list[Container]:
        """Keep spares for ``key`` (most recently used keys first); returns the spares of keys
        that fell out (to dispose of). Called with the lock held."""
        if self.spares == 0 or self.spare_keys == 0:
            return []
        self._spare_lru[key] = None
        self._spare_lru.move_to_end(key)
        dropped: list[Container] = []
        while len(self._spare_lru) > self.spare_keys:
            old, _ = self._spare_lru.popitem(last=False)
            dropped += self._spare.pop(old, [])
        self._cond.notify_all()
        return dropped

    def _release(self, cont: Container, healthy: bool) -> None:
        """After a job: keep a healthy unit container warm (bounded, LRU), remove the rest."""
        cont.runs += 1
        drop: list[Container] = []
        with self._cond:
            keep = (
                healthy
                and not self._closed
                and bool(cont.unit)
                and not cont.session
                and cont.runs < self.max_runs
            )
            if keep:
                slot = (str(cont.unit), cont.key)
                self._idle.setdefault(slot, []).append(cont)
                self._idle.move_to_end(slot)
                while sum(len(c) for c in self._idle.values()) > self.max_warm:
                    oldest = next(iter(self._idle))
                    drop.append(self._idle[oldest].pop(0))
                    if not self._idle[oldest]:
                        del self._idle[oldest]
                    self.stats["evicted"] += 1
            else:
                drop.append(cont)
                if cont.unit and not cont.session and not self._closed:
                    self.stats["recycled"] += 1
        self._dispose(drop, kill=not healthy)  # an anomaly: stop it now, whatever still runs

    def _dispose(self, conts: list[Container], *, kill: bool = False) -> None:
        """Forget the containers and remove them on the removal thread; ``kill``: stop them
        first, so that nothing in them runs once this returns (~90 ms instead of ~140 ms for
        a synchronous removal)."""
        for cont in conts:
            with self._cond:
                self._live.pop(cont.id, None)
                background = not self._closed and bool(self._threads)
            cont.drop_agent()
            if cont.removed:
                continue
            cont.removed = True
            if background and kill:
                with contextlib.suppress(Exception):
                    self._client.api.kill(cont.id)
            if background:
                self._doomed.put(cont.id)
            else:
                self._remove(cont.id)

    def _remove(self, container_id: str) -> None:
        with contextlib.suppress(Exception):
            self._client.api.remove_container(container_id, force=True)
            self._count("removed")
        with self._cond:
            io_dir = self._io_dirs.pop(container_id, None)
        remove_io_dir(io_dir)

    # -- background threads ---------------------------------------------------------------------
    def _start_threads(self) -> None:
        with self._cond:
            if self._threads or self._closed:
                return
            targets = [self._reap_loop] + ([self._refill_loop] if self.spares else [])
            for target in targets:
                thread = threading.Thread(target=target, name=f"docker-{target.__name__}")
                thread.daemon = True
                self._threads.append(thread)
                thread.start()

    def _reap_loop(self) -> None:
        while (container_id := self._doomed.get()) is not None:
            try:
                self._remove(container_id)
            finally:
                self._doomed.task_done()
            with self._cond:
                self._cond.notify_all()  # for settle()

    def settle(self, timeout_s: float = 30.0) -> bool:
        """Wait until the background threads are idle: every spare made, every doomed container
        removed. Their engine work (a container start or removal costs the engine a few hundred
        ms of CPU) competes with the jobs on a small machine; a benchmark waits for this before
        it times warm work. True when idle within ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while True:
                busy = (self._threads and self.spares and self._refill_key() is not None) or \
                    any(self._creating.values()) or self._doomed.unfinished_tasks > 0
                if not busy or self._closed:
                    return not busy
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.05))

    def _refill_key(self) -> tuple[int, int] | None:
        """The most recently used key that lacks spares (lock held)."""
        for key in reversed(self._spare_lru):
            if len(self._spare.get(key, [])) + self._creating.get(key, 0) < self.spares:
                return key
        return None

    def _refill_loop(self) -> None:
        while (key := self._next_refill()) is not None:
            try:
                cont: Container | None = self._create(key)
            except Exception as exc:
                cont = None
                self.last_refill_error = f"{type(exc).__name__}: {exc}"
            wanted = False
            with self._cond:
                self._creating[key] -= 1
                if cont is None:
                    self.stats["refill_errors"] += 1
                    self._cond.wait(REFILL_BACKOFF_S)  # engine trouble: do not spin
                    continue
                wanted = (
                    not self._closed
                    and key in self._spare_lru
                    and len(self._spare.get(key, [])) < self.spares
                )
                if wanted:
                    self._spare.setdefault(key, []).append(cont)
                    self._live[cont.id] = cont
            if not wanted:
                cont.drop_agent()
                self._remove(cont.id)

    def _next_refill(self) -> tuple[int, int] | None:
        """Wait until a key lacks spares and claim one creation for it; None once closed."""
        with self._cond:
            while not self._closed:
                key = self._refill_key()
                if key is not None:
                    self._creating[key] = self._creating.get(key, 0) + 1
                    return key
                self._cond.wait()
        return None

    def close(self) -> None:
        """Stop the background threads and remove every container this backend created."""
        with self._cond:
            self._closed = True
            conts = list(self._live.values())
            self._live.clear()
            self._idle.clear()
            self._spare.clear()
            threads, self._threads = self._threads, []
            self._cond.notify_all()
        self._doomed.put(None)
        for thread in threads:
            thread.join(self.api_timeout_s)
        for cont in conts:
            cont.drop_agent()
        if self._client is None:
            return
        doomed = [c.id for c in conts if not c.removed]
        while True:
            try:
                left = self._doomed.get_nowait()
            except queue.Empty:
                break
            if left is not None:
                doomed.append(left)
        with contextlib.suppress(Exception):
            doomed += self.engine_containers()  # anything a thread created late
        for container_id in dict.fromkeys(doomed):
            self._remove(container_id)

    # -- one-shot jobs ----------------------------------------------------------------------------
    def _payload(self, job: SandboxJob, limits: Limits, *, session: bool = False,
                 io: str | None = None) -> bytes:
        """The runner's payload; ``io``: the folder of the session's FIFOs in the container."""
        workdir = f"/tmp/job-{uuid.uuid4().hex[:16]}"
        payload: dict[str, Any] = {
            "workdir": workdir,
            "files": job.files,
            "argv": job.argv,
            "stdin": job.stdin,
            "env": build_env(job, workdir),
            "limits": limits.model_dump(),
            "session": session,
        }
        if io is not None:
            payload["io"] = io
        return frame(payload)

    def run(self, job: SandboxJob, limits: Limits) -> RunResult:
        start = time.monotonic()
        ok, reason = self.probe()
        if not ok:
            return RunResult(
                outcome=Outcome.SANDBOX_ERROR,
                backend=self.name,
                elapsed_s=time.monotonic() - start,
                detail=f"docker backend unavailable: {reason}",
            )
        refusal = host_python_refusal(job, self.name)
        if refusal:
            return RunResult(outcome=Outcome.SANDBOX_ERROR, backend=self.name, detail=refusal,
                             elapsed_s=time.monotonic() - start)
        return self._run(job, limits)

    def _run(self, job: SandboxJob, limits: Limits) -> RunResult:
        start = time.monotonic()
        frame = self._payload(job, limits)
        self._local.container = None
        for attempt in (1, 2):
            try:
                cont, made_earlier = self._acquire(job.unit, limits, fresh=attempt == 2)
            except Exception as exc:
                detail = f"could not start a container: {type(exc).__name__}: {exc}"
                return self._result(Outcome.SANDBOX_ERROR, start, detail)
            self._local.container = cont.id
            retry = made_earlier and attempt == 1  # a container that died while it waited
            try:
                agent = cont.agent
                if agent is None or agent.eof:
                    raise ContainerGone("its runner is gone")
                agent.send(frame)
            except Exception as exc:
                self._release(cont, False)
                if retry:
                    continue
                detail = f"could not hand the job to the container: {type(exc).__name__}: {exc}"
                return self._result(Outcome.SANDBOX_ERROR, start, detail)
            healthy = False
            try:
                result, healthy = self._converse(cont, agent, limits, start)
            except ContainerGone as exc:
                if retry:
                    continue  # the job never ran: try again in a new container
                detail = f"the sandbox container died under the job: {exc}"
                return self._result(Outcome.SANDBOX_ERROR, start, detail)
            finally:
                self._release(cont, healthy)
            return result
        raise AssertionError("unreachable")

    def _converse(
        self, cont: Container, agent: ExecStream, limits: Limits, start: float
    ) -> tuple[RunResult, bool]:
        """Wait for the report of the job just sent (one JSON line on the agent's stdout)."""
        out = bytearray()
        err = bytearray()
        # The report repeats the job's (capped) output, JSON-escaped: at most 6 bytes per byte.
        report_cap = 12 * limits.max_output_bytes + 65536

        def on_out(chunk: bytes) -> bool:
            out.extend(chunk)
            return b"\n" in chunk or len(out) > report_cap

        def on_err(chunk: bytes) -> bool:
            err.extend(chunk)
            del err[:-8192]
            return False

        status = agent.pump(start + limits.wall_s + HOST_GRACE_S, on_out, on_err)
        if status == "deadline" or len(out) > report_cap:
            self._dispose([cont], kill=True)  # the runner did not answer in time: kill it all
            if len(out) > report_cap:
                detail = "sandbox runner wrote an oversized report"
                return self._result(Outcome.SANDBOX_ERROR, start, detail), False
            detail = (
                f"no result {HOST_GRACE_S:g}s past the wall limit of {limits.wall_s:g}s; "
                "container killed"
            )
            return self._result(Outcome.TIMEOUT, start, detail, signal=signal.SIGKILL), False
        line, _, rest = bytes(out).partition(b"\n")
        try:
            report = json.loads(line.decode("utf-8"))
            if rest.strip() or not isinstance(report, dict) or "state" not in report:
                raise ValueError("not one report")
        except ValueError:
            return self._silent_runner(cont, start, err), False
        return self._from_report(report, limits, start)

    def _silent_runner(self, cont: Container, start: float, err: bytearray) -> RunResult:
        """The runner ended without a report. A job can neither signal nor ptrace it, so this
        is the cgroup OOM killer (OOM) or an infrastructure failure (SANDBOX_ERROR). Raises
        :class:`ContainerGone` when the container itself is gone."""
        code: Any = None
        try:
            state = self._client.api.inspect_container(cont.id)["State"]
        except Exception as exc:
            raise ContainerGone(f"container vanished: {type(exc).__name__}: {exc}") from exc
        if not state.get("Running"):
            raise ContainerGone(f"container stopped (state {state.get('Status')})")
        with contextlib.suppress(Exception):
            code = self._client.api.exec_inspect(cont.agent_exec).get("ExitCode")
        tail = err.decode("utf-8", errors="replace")[-2000:]
        if state.get("OOMKilled") or code == 128 + signal.SIGKILL:
            return self._result(
                Outcome.OOM, start, "container memory limit hit; the runner was killed", stderr=tail
            )
        return self._result(
            Outcome.SANDBOX_ERROR,
            start,
            f"the sandbox runner ended without a report (exit {code}); container removed",
            stderr=tail,
        )

    def _result(self, outcome: Outcome, start: float, detail: str, **extra: Any) -> RunResult:
        return RunResult(
            outcome=outcome,
            backend=self.name,
            elapsed_s=time.monotonic() - start,
            detail=detail,
            **extra,
        )

    def _from_report(
        self, report: dict[str, Any], limits: Limits, start: float
    ) -> tuple[RunResult, bool]:
        state = report["state"]
        if state == "tainted":  # the runner's limits changed: not this job's doing
            raise ContainerGone("the runner's limits were changed")
        if state != "exited" and state not in ("timeout", "overflow"):
            detail = f"sandbox runner could not start the job: {report.get('error', state)}"
            return self._result(Outcome.SANDBOX_ERROR, start, detail), False
        stdout, stderr = str(report["stdout"]), str(report["stderr"])
        common: dict[str, Any] = {"stdout": stdout, "stderr": stderr}
        clean = report.get("clean") is True  # else a process survived: never reuse it
        if state == "overflow":
            which = "stdout" if report["stdout_total"] > limits.max_output_bytes else "stderr"
            detail = f"{which} exceeded {limits.max_output_bytes} bytes; killed"
            return self._result(Outcome.OUTPUT_OVERFLOW, start, detail, **common), clean
        if state == "timeout":
            detail = f"wall-clock limit of {limits.wall_s:g}s exceeded; killed"
            res = self._result(Outcome.TIMEOUT, start, detail, signal=signal.SIGKILL, **common)
            return res, False
        returncode = int(report["returncode"])
        memory_killed = report["oom_kills"] > 0 and returncode == -signal.SIGKILL
        outcome, code, sig, detail = classify_exit(returncode, stderr, memory_killed=memory_killed)
        if memory_killed:
            detail = f"killed at the container memory limit ({limits.memory_mb} MB)"
        elif sig == signal.SIGKILL and report["cpu_s"] >= math.ceil(limits.cpu_s) - 0.05:
            outcome, detail = Outcome.TIMEOUT, f"CPU limit of {limits.cpu_s:g}s exceeded; killed"
        elif sig == signal.SIGXCPU:
            detail = f"CPU limit of {limits.cpu_s:g}s exceeded (SIGXCPU)"
        res = self._result(outcome, start, detail, exit_code=code, signal=sig, **common)
        return res, clean and outcome not in (Outcome.OOM, Outcome.TIMEOUT)

    # -- sessions (warm pool, method servers) ----------------------------------------------------
    def spawn(self, job: SandboxJob, limits: Limits) -> DockerSession:
        """Start ``job`` as a long-lived worker in a container of its own (see DockerSession)."""
        ok, reason = self.probe()
        if not ok:
            raise RuntimeError(f"docker backend unavailable: {reason}")
        refusal = host_python_refusal(job, self.name)
        if refusal:
            raise RuntimeError(refusal)
        cont, _ = self._acquire("", limits)
        cont.session = True
        self._local.container = cont.id
        agent = cont.agent
        fds: tuple[int, int] | None = None
        out_fd = -1
        try:
            if agent is None or agent.eof:
                raise ContainerGone("its runner is gone")
            if cont.io_dir is not None:
                # our read end first, so that the runner's open of "out" for writing returns
                out_fd = os.open(os.path.join(cont.io_dir, "out"), os.O_RDONLY | os.O_NONBLOCK)
            agent.send(self._payload(job, limits, session=True,
                                     io=IO_MOUNT if cont.io_dir is not None else None))
            if cont.io_dir is not None:
                fds = (open_writer(os.path.join(cont.io_dir, "in"), agent), out_fd)
        except Exception as exc:
            if out_fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(out_fd)
            self._dispose([cont], kill=True)
            raise RuntimeError(f"could not start a docker session: {exc}") from exc
        return DockerSession(cont, cont.agent_exec, agent, fds,
                             inspect=self._client.api.exec_inspect,
                             dispose=lambda c: self._dispose([c], kill=True))


