"""How much the host's other work slowed the gate's timed calls, and how far that stretches the
timing check's budgets.

The timing check measures calls on the host's wall clock: what production pays, on a machine
that is not also running other work. The gate itself often shares its cores -- beside the
embedded model's server in a run, beside other checks (``--concurrency``), beside a test
suite -- and a chain of processes that waits for a CPU looks slower than it is.

:class:`LoadProbe` measures that wait directly, as one more CPU-bound process would see it: a
small trusted process on the host (never in a sandbox) that, every :data:`PERIOD_S`, runs a
busy loop until it has used :data:`BURST_S` of CPU and reports how much wall-clock time that
took. Its ratio (wall over CPU, summed over the bursts of the suite's timed phases) is the
slowdown a CPU-bound call suffered meanwhile: 1.0 on an idle machine, about 2 when every core
has two runnable processes. A busy loop that follows a pause is favoured by the scheduler for
its first milliseconds, so a burst of 20 ms reads the slowdown low rather than high.

The timing budgets grow by that slowdown, at most :data:`MAX_STRETCH`-fold, and the report
says so. A bootcamp gains nothing by keeping its own sandbox busy to raise the figure: its
timed calls wait for those processes as much as the probe does. The sandbox's own limits (CPU
seconds, wall clock) hold whatever the load. The probe costs about 5 % of one core while a
suite runs; it ends when the suite does, or when its host process goes (its stdin closes).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

__all__ = ["BURST_S", "MAX_STRETCH", "PERIOD_S", "LoadProbe", "describe", "reason_note",
           "stretch"]

#: the most the timing budgets grow for a loaded host
MAX_STRETCH = 3.0
#: CPU seconds of each busy burst, and the seconds from one burst's start to the next
BURST_S = 0.02
PERIOD_S = 0.4

_PROBE = f"""
import select, sys, time
while True:
    w0, c0 = time.perf_counter(), time.process_time()
    while time.process_time() - c0 < {BURST_S}:
        pass
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    sys.stdout.write(f"{{wall:.6f}} {{cpu:.6f}}\\n")
    sys.stdout.flush()
    if select.select([sys.stdin], [], [], max(0.0, {PERIOD_S} - wall))[0]:
        break  # the host closed our stdin (or is gone): the suite is over
"""


class LoadProbe:
    """The probe process and the sums of what it reported (see the module docstring)."""

    def __init__(self) -> None:
        self.wall = 0.0
        self.cpu = 0.0
        self.bursts = 0
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-S", "-c", _PROBE], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                env={"PATH": os.environ.get("PATH", "")})
        except OSError:
            return  # no probe: the budgets stay as configured
        self._reader = threading.Thread(target=self._read, name="load-probe", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in self._proc.stdout:
            try:
                wall, cpu = (float(x) for x in line.split())
            except ValueError:
                continue
            with self._lock:
                self.wall += wall
                self.cpu += cpu
                self.bursts += 1

    def slowdown(self) -> float:
        """Wall over CPU seconds of the bursts so far (1.0 before the first)."""
        with self._lock:
            return self.wall / self.cpu if self.cpu > 0 else 1.0

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        self._reader.join(timeout=2)


def stretch(slowdown: float) -> float:
    """The factor the timing budgets grow by for a measured ``slowdown``: at least 1, at most
    :data:`MAX_STRETCH`."""
    return min(MAX_STRETCH, max(1.0, slowdown))


def describe(probe: LoadProbe, k: float) -> str:
    """The measurement and the stretch, for a timing check's artifacts."""
    return (f"a CPU-bound probe ran {probe.slowdown():.2f}x slower than its CPU time over "
            f"{probe.bursts} bursts; budgets x{k:.2f}")


def reason_note(probe: LoadProbe, k: float) -> str:
    """What a timing check's reason adds when the budgets were stretched ("" when not)."""
    if k <= 1.0:
        return ""
    return f" (budgets x{k:.2f} for a loaded host: other work slowed a CPU-bound probe " \
           f"{probe.slowdown():.2f}x)"
