"""What the kernel says a sandboxed job's processes ran and waited for: CPU time and run-queue
time (``/proc/PID/task/TID/schedstat``: nanoseconds on a CPU, nanoseconds runnable but waiting
for one), summed over the job's process tree, read by the trusted host (nothing the job says
is asked).

The gate's time budgets are measured on the host's clock, and on a loaded host a call's wall
time grows by the time the job waited for a CPU that the host gave to other work. That wait is
*evidence*, shown beside a timing verdict (the host was loaded: measure again on a quiet one);
it is never subtracted from the verdict's times. Subtracting it was tried and an attack in
tests/adversarial/corpus shows why not: a verifier that busy-waits for a fixed *wall* time
(70 ms) uses only half of it on a CPU shared two ways, so its CPU time, and its wall time less
its wait, are half its cost on a quiet host. No measure taken under load tells such code from
code that does a fixed amount of work; only the wall time is never below what production pays.

The gate reads the total once, in its timing check (:meth:`synth.sandbox.methods.MethodServer.
waited`): no question pays for it.

Where there is no tree to read (the Docker backend's processes belong to the engine's shim, a
kernel without schedstat, a process gone), a sample reads nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

__all__ = ["Sample", "TreeClock"]

#: the most processes walked in one sample (a job's tree is a handful: its launcher, the
#: method server, an engine; a fork bomb's tree is cut here)
MAX_PROCESSES = 64


@dataclass(frozen=True)
class Sample:
    """Seconds a job's processes ran (``cpu_s``) and waited runnable (``wait_s``) between two
    samples of a :class:`TreeClock`."""

    cpu_s: float = 0.0
    wait_s: float = 0.0


def _read(path: str) -> str | None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(fd, 4096).decode("ascii", "replace")
    except OSError:
        return None
    finally:
        os.close(fd)


@dataclass
class TreeClock:
    """Cumulative CPU and run-queue nanoseconds of the process tree under ``root`` (a host
    pid: the sandbox's launcher), per thread, so that :meth:`sample` returns what the tree did
    since the previous sample. ``root`` None: every sample is empty."""

    root: int | None
    _seen: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._seen = self._totals()

    def _totals(self) -> dict[tuple[int, int], tuple[int, int]]:
        """(pid, tid) -> (ns on a CPU, ns waiting) of every thread of the tree now."""
        out: dict[tuple[int, int], tuple[int, int]] = {}
        if self.root is None:
            return out
        todo, walked = [self.root], 0
        while todo and walked < MAX_PROCESSES:
            pid = todo.pop()
            walked += 1
            try:
                tids = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for tid in tids:
                base = f"/proc/{pid}/task/{tid}/"
                stat = _read(base + "schedstat")
                if stat is not None:
                    fields = stat.split()
                    if len(fields) >= 2 and fields[0].isdigit() and fields[1].isdigit():
                        out[(pid, int(tid))] = (int(fields[0]), int(fields[1]))
                children = _read(base + "children")
                if children:
                    todo.extend(int(c) for c in children.split() if c.isdigit())
        return out

    def sample(self) -> Sample:
        """What the tree ran and waited since the previous sample (threads that appeared since
        count from zero; threads that ended are left out)."""
        if self.root is None:
            return Sample()
        now = self._totals()
        cpu = wait = 0
        for key, (ran, waited) in now.items():
            ran0, waited0 = self._seen.get(key, (0, 0))
            if ran >= ran0 and waited >= waited0:  # else a reused id: count nothing for it
                cpu += ran - ran0
                wait += waited - waited0
        self._seen = now
        return Sample(cpu / 1e9, wait / 1e9)
