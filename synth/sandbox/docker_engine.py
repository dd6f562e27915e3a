"""The Docker engine and image the docker backend runs on.

:func:`connect` finds an engine that answers, the sandbox image (built offline by
``scripts/build_sandbox_image.sh``, tagged by the script's hash: :func:`default_image`) and the
runtime (gVisor's ``runsc`` when asked for or present); :func:`io_mode` how sessions talk to
their worker. Containers carry their creator's :func:`owner_tag`, so that a later backend
removes only the leftovers of owners that are gone (:func:`owner_alive`).
"""

from __future__ import annotations

import hashlib
import os
import socket
from pathlib import Path
from typing import Any

__all__ = ["BUILD_SCRIPT", "ENGINE_SCRIPT", "IMAGE_REPO", "connect", "default_image", "io_mode",
           "owner_alive", "owner_tag", "process_start_time"]

IMAGE_REPO = "bootcamp-synth-sandbox"
BUILD_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "build_sandbox_image.sh"
ENGINE_SCRIPT = "scripts/docker_engine.sh"


def default_image() -> str:
    """``bootcamp-synth-sandbox:<sha256(build script)[:12]>`` -- the tag the script builds."""
    digest = hashlib.sha256(BUILD_SCRIPT.read_bytes()).hexdigest()[:12]
    return f"{IMAGE_REPO}:{digest}"


def process_start_time(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            stat = fh.read()
    except OSError:
        return None
    return stat.rsplit(")", 1)[-1].split()[19]  # field 22: start time in clock ticks


def owner_tag() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{process_start_time(os.getpid())}"


def owner_alive(tag: str) -> bool:
    """Is the process that created a container still running (on this host)?"""
    try:
        host, pid, start = tag.split(":")
        if host != socket.gethostname():
            return True  # another machine's container: not ours to judge
        return process_start_time(int(pid)) == start
    except ValueError:
        return False


def connect(api_timeout_s: float, image: str | None,
            runtime_choice: str) -> tuple[Any, str, str | None] | str:
    """(client, image, runtime) of an engine that answers and has the image, or why not (one
    line that says what to do). ``runtime_choice``: ``auto`` (runsc when the engine has it),
    ``runc`` or ``runsc``; the runtime is None for the engine's default."""
    try:
        import docker
    except ImportError:
        return "the docker SDK is not installed: pip install 'docker>=7.1'"
    try:
        client = docker.from_env(timeout=int(api_timeout_s))
        client.ping()
    except Exception as exc:
        return (f"no Docker engine answers ({type(exc).__name__}: {exc}); "
                f"start one with {ENGINE_SCRIPT}")
    try:
        if image is None:
            image = default_image()
    except OSError as exc:
        return f"cannot compute the sandbox image tag ({exc}); pass image=..."
    try:
        client.images.get(image)
    except docker.errors.ImageNotFound:
        return (f"the sandbox image {image} is not built; build it (offline, ~2 min) with "
                "scripts/build_sandbox_image.sh")
    except Exception as exc:
        return f"cannot inspect image {image}: {type(exc).__name__}: {exc}"
    try:
        runtimes = client.info().get("Runtimes") or {}
    except Exception as exc:
        return f"docker info failed: {type(exc).__name__}: {exc}"
    if runtime_choice == "runsc" and "runsc" not in runtimes:
        return "runtime='runsc' requested but the engine has no gVisor (runsc) runtime"
    runtime = "runsc" if runtime_choice != "runc" and "runsc" in runtimes else None
    return client, image, runtime


def io_mode(client: Any, runtime: str | None, choice: str) -> str:
    """How sessions talk to their worker: ``fifo`` (two FIFOs in a host folder bind-mounted
    read-only into the container: the kernel carries the bytes, as for the process backend)
    when the engine runs on this machine (a unix socket) under runc; else ``stream`` (the
    ``docker exec`` stream through the engine). ``choice``: ``auto``, or either one."""
    if choice != "auto":
        return choice
    url = str(getattr(getattr(client, "api", None), "base_url", ""))
    host = os.environ.get("DOCKER_HOST", "unix://")
    # the SDK names a unix-socket engine "http+docker://localhost"
    local = host.startswith("unix://") and url.startswith(("http+docker://", "http+unix://"))
    return "fifo" if local and runtime is None and hasattr(os, "mkfifo") else "stream"
