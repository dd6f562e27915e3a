"""A real two-node Ray cluster on this machine, loopback only, for the Ray tests.

    cluster = LocalRayCluster().start()       # `ray start --head`, then `ray start --address`
    cluster.connect()                         # ray.init(address=cluster.address) in this process
    cluster.kill_worker()                     # the worker node dies (SIGKILL, like a lost machine)
    cluster.restart_worker()                  # a fresh worker node joins (a new node id)
    cluster.stop()                            # `ray stop --force`, but only this cluster's processes

Each node is started by ``ray start`` in a session of its own, and every process of the node
(GCS, raylet, agents, log monitor, the Ray workers that run tasks and actors) stays in that
session; so the cluster's processes are exactly those of its sessions. ``ray stop`` would kill
every Ray process of the machine (other clusters included), so :meth:`LocalRayCluster.stop`
does what ``ray stop --force`` does -- SIGKILL -- to this cluster's sessions only, and checks
that none of their processes is left.

Loopback only. ``ray start --node-ip-address 127.0.0.1`` on its own does not do it: Ray's CLI
rewrites a loopback address to the machine's routable one (``resolve_ip_for_localhost``, "so that
other machines can reach it"), and a node with a routable address listens on every interface.
The nodes are therefore started through the ordinary CLI entry point with that one rewrite
switched off (:data:`_LAUNCHER`), and so is this process's ``ray.init``; then the GCS, the
raylets, the object managers and the agents listen on 127.0.0.1 only. :meth:`sockets` lists
what the cluster's processes listen on and talk to, so that a test can check it. Usage stats
are off (flag and environment), there is no dashboard, and no ``RAY_ADDRESS`` of the machine
leaks in.
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
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Runs Ray's own CLI (``ray start ...``) with the loopback-to-routable rewrite switched off.
_LAUNCHER = """
import sys
import ray._private.services as services
services.resolve_ip_for_localhost = lambda host: host
from ray.scripts.scripts import main
sys.argv[0] = "ray"
main()
"""

#: Environment of every node and of the driver while it connects.
RAY_ENV = {
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_USAGE_STATS_PROMPT_ENABLED": "0",
    # a lost node is declared dead after ~3 s instead of ~30 s
    "RAY_health_check_initial_delay_ms": "1000",
    "RAY_health_check_period_ms": "1000",
    "RAY_health_check_timeout_ms": "1000",
    "RAY_health_check_failure_threshold": "3",
    # Ray 2.60 turns token authentication on by itself once ~/.ray/auth_token exists (any local
    # ray.init() writes one): a head that took the token then refuses a node that did not
    # (InvalidAuthToken). The cluster is loopback-only and the test's own: no token, whatever
    # the machine's home folder holds
    "RAY_AUTH_MODE": "disabled",
}
LOOPBACK = ("127.0.0.1", "::ffff:127.0.0.1", "::1")
OBJECT_STORE_BYTES = 100 * 1024 * 1024


class ClusterError(RuntimeError):
    """A node did not start or stop; the message carries ``ray start``'s output."""


@dataclass
class Node:
    """One ``ray start`` of the cluster: the session that holds all of its processes."""

    role: str  # "head" | "worker"
    session: int  # the session id (the pid of the ``ray start`` that created it)
    node_id: str  # the raylet's node id (hex), as ray.nodes() and the runtime context give it
    start_s: float  # wall time of ``ray start``
    log: str = ""  # what ``ray start`` printed


@dataclass
class Proc:
    pid: int
    ppid: int
    session: int
    state: str
    name: str


@dataclass
class LocalRayCluster:
    """A head and one worker node, ``num_cpus`` logical CPUs each, under a short temp dir."""

    num_cpus: int = 1
    nodes: list[Node] = field(default_factory=list)
    dead: list[Node] = field(default_factory=list)  # killed worker nodes (their sessions)
    connect_s: float = 0.0
    root: Path | None = None
    port: int = 0

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def head(self) -> Node:
        return next(n for n in self.nodes if n.role == "head")

    @property
    def worker(self) -> Node:
        return next(n for n in self.nodes if n.role == "worker")

    # -- life cycle -------------------------------------------------------------------------
    def start(self) -> LocalRayCluster:
        # /tmp and a short name: Ray puts its unix sockets under it (108-byte path limit)
        self.root = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))
        self.port = free_port()
        try:
            self.nodes.append(self._ray_start("head", [
                "--head", "--port", str(self.port), "--include-dashboard", "false"]))
            self.nodes.append(self._ray_start("worker", ["--address", self.address]))
        except BaseException:
            self.stop()
            raise
        return self

    def connect(self) -> None:
        """``ray.init(address=...)`` this process into the cluster (as its driver)."""
        import ray
        import ray._private.services as services

        t0 = time.perf_counter()
        rewrite = services.resolve_ip_for_localhost
        services.resolve_ip_for_localhost = _same_host  # type: ignore[assignment]
        try:
            with _environ(RAY_ENV):
                ray.init(address=self.address, log_to_driver=False, logging_level="warning")
        finally:
            services.resolve_ip_for_localhost = rewrite
        self.connect_s = time.perf_counter() - t0
        # Ray prefers the head among several nodes of one address; killing the worker node
        # must never take the driver's own node with it
        here = ray.get_runtime_context().get_node_id()
        if here != self.head.node_id:
            ray.shutdown()
            raise ClusterError(f"the driver joined node {here}, not the head {self.head.node_id}")

    def kill_worker(self, wait_dead_s: float = 30.0) -> Node:
        """Kill every process of the worker node at once (a lost machine) and, when connected,
        wait until the cluster has declared the node dead. Returns the dead node."""
        node = self.worker
        self.nodes.remove(node)
        self.dead.append(node)
        _kill_sessions({node.session})
        if _connected():
            deadline = time.monotonic() + wait_dead_s
            while node.node_id in alive_node_ids():
                if time.monotonic() > deadline:
                    raise ClusterError(f"node {node.node_id} still alive {wait_dead_s:g}s after kill")
                time.sleep(0.2)
        return node

    def restart_worker(self) -> Node:
        """Start a fresh worker node (after :meth:`kill_worker`); waits until it is alive."""
        if any(n.role == "worker" for n in self.nodes):
            raise ClusterError("the worker node is running; kill it first")
        node = self._ray_start("worker", ["--address", self.address])
        self.nodes.append(node)
        if _connected():
            deadline = time.monotonic() + 30
            while node.node_id not in alive_node_ids():
                if time.monotonic() > deadline:
                    raise ClusterError(f"node {node.node_id} did not join within 30s")
                time.sleep(0.2)
        return node

    def stop(self, grace_s: float = 15.0) -> None:
        """Disconnect, SIGKILL every process of the cluster's sessions (``ray stop --force``,
        scoped), wait until none is left, remove the temp dir. Raises if a process survives."""
        if _connected():
            import ray

            ray.shutdown()
        sessions = self.sessions()
        self.nodes, self.dead = [], []
        _kill_sessions(sessions)
        left = _wait_gone(sessions, grace_s)
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
        if left:
            raise ClusterError(f"processes of the cluster survived ray stop: {left}")

    # -- inspection -------------------------------------------------------------------------
    def sessions(self) -> set[int]:
        return {n.session for n in [*self.nodes, *self.dead]}

    def processes(self) -> list[Proc]:
        """Every live (non-zombie) process of the cluster, dead nodes' stragglers included."""
        sessions = self.sessions()
        return [p for p in all_processes() if p.session in sessions and p.state != "Z"]

    def sockets(self) -> list[tuple[str, str, str]]:
        """(process name, local address, remote address or "" for a listener) for every TCP
        socket of the cluster's processes."""
        return sockets_of({p.pid: p.name for p in self.processes()})

    # -- internals --------------------------------------------------------------------------
    def _ray_start(self, role: str, args: list[str]) -> Node:
        assert self.root is not None
        cmd = [sys.executable, "-c", _LAUNCHER, "start", *args,
               "--node-ip-address", "127.0.0.1", "--num-cpus", str(self.num_cpus),
               "--num-gpus", "0", "--object-store-memory", str(OBJECT_STORE_BYTES),
               "--node-name", f"{role}-{len(self.nodes) + len(self.dead)}",
               "--disable-usage-stats", "--temp-dir", str(self.root)]
        env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")} | RAY_ENV
        t0 = time.perf_counter()
        # start_new_session: the node's processes keep this session, which scopes stop/kill
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True, text=True)
        try:
            out, _ = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            _kill_sessions({proc.pid})
            proc.communicate()
            raise ClusterError(f"`ray start` ({role}) took longer than 120s") from None
        elapsed = time.perf_counter() - t0
        if proc.returncode != 0:
            _kill_sessions({proc.pid})
            raise ClusterError(f"`ray start` ({role}) exited {proc.returncode}:\n{out[-3000:]}")
        raylets = [p for p in all_processes()
                   if p.session == proc.pid and p.name == "raylet"]
        if len(raylets) != 1:
            _kill_sessions({proc.pid})
            raise ClusterError(f"`ray start` ({role}) left {len(raylets)} raylets:\n{out[-3000:]}")
        return Node(role=role, session=proc.pid, node_id=_raylet_node_id(raylets[0].pid),
                    start_s=elapsed, log=out)


def _same_host(host: str) -> str:
    return host


def _connected() -> bool:
    try:
        import ray
    except ImportError:
        return False
    return bool(ray.is_initialized())


def alive_node_ids() -> set[str]:
    import ray

    return {n["NodeID"] for n in ray.nodes() if n["Alive"]}


@contextlib.contextmanager
def _environ(values: dict[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- processes and sockets from /proc ---------------------------------------------------------


def all_processes() -> list[Proc]:
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid pgrp session ..."; comm may hold spaces and parentheses
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        out.append(Proc(pid=int(entry), ppid=int(fields[1]), session=int(fields[3]),
                        state=fields[0], name=name))
    return out


def descendants(pids: set[int]) -> set[int]:
    """Every live process below ``pids`` (not including them)."""
    procs = [p for p in all_processes() if p.state != "Z"]
    found: set[int] = set()
    frontier = set(pids)
    while frontier:
        children = {p.pid for p in procs if p.ppid in frontier and p.pid not in found}
        found |= children
        frontier = children
    return found


def alive(pids: set[int]) -> set[int]:
    live = {p.pid for p in all_processes() if p.state != "Z"}
    return pids & live


def _raylet_node_id(pid: int) -> str:
    argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    for arg in argv:
        if arg.startswith(b"--node_id="):
            return arg.split(b"=", 1)[1].decode()
    raise ClusterError(f"raylet {pid} has no --node_id argument")


def _kill_sessions(sessions: set[int]) -> None:
    for p in all_processes():
        if p.session in sessions and p.pid != os.getpid():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(p.pid, signal.SIGKILL)


def _wait_gone(sessions: set[int], grace_s: float) -> list[tuple[int, str]]:
    deadline = time.monotonic() + grace_s
    while True:
        left = [(p.pid, p.name) for p in all_processes()
                if p.session in sessions and p.state != "Z"]
        if not left or time.monotonic() > deadline:
            return left
        _kill_sessions(sessions)  # a process forked while the first signals went out
        time.sleep(0.1)


def _decode_addr(hexaddr: str) -> str:
    ip_hex, port_hex = hexaddr.split(":")
    port = int(port_hex, 16)
    raw = bytes.fromhex(ip_hex)
    if len(raw) == 4:
        ip = socket.inet_ntop(socket.AF_INET, raw[::-1])
    else:  # /proc/net/tcp6: four 32-bit words, each in host (little-endian) order
        words = b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4))
        ip = socket.inet_ntop(socket.AF_INET6, words)
    return f"{ip}:{port}"


def sockets_of(pids: dict[int, str]) -> list[tuple[str, str, str]]:
    """(name, local, remote) of the TCP sockets held by ``pids`` (remote "" when listening)."""
    owner: dict[str, str] = {}
    for pid, name in pids.items():
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if link.startswith("socket:["):
                        owner[link[8:-1]] = name
    out: list[tuple[str, str, str]] = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                cols = line.split()
                local, remote, state, inode = cols[1], cols[2], cols[3], cols[9]
                if inode in owner:
                    listening = state == "0A"
                    out.append((owner[inode], _decode_addr(local),
                                "" if listening else _decode_addr(remote)))
    return out


def host_of(addr: str) -> str:
    return addr.rsplit(":", 1)[0]


def summary(cluster: LocalRayCluster) -> dict[str, Any]:
    return {"head_start_s": round(cluster.head.start_s, 2),
            "worker_start_s": round(cluster.worker.start_s, 2),
            "connect_s": round(cluster.connect_s, 2)}
