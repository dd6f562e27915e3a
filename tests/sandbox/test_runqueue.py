"""A call's cost is its wall time less the time the job waited for a CPU that the host gave to
other work (synth/sandbox/runqueue.py): on a loaded host a bootcamp is not charged for the
load, and a bootcamp cannot use the rule to look cheaper than it is (sleeping costs its wall
time; processes that compete with each other cost their CPU time).

The load is made exact by pinning: the job and a spinning process share one CPU."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from helpers import require_backend

from synth.sandbox.methods import MethodServer
from synth.sandbox.runqueue import Sample, TreeClock, call_cost

CPU = min(os.sched_getaffinity(0))

#: a bootcamp whose case costs ``work`` seconds: of CPU (``burn``) or of sleep (``sleep``)
SLOW = '''"""Test fixture: a case that costs a fixed time, of CPU or of sleep."""

import time

from synth.bootcamp import BaseBootcamp


class SlowBootcamp(BaseBootcamp):
    LEVELS = {"burn": {"how": "burn"}, "sleep": {"how": "sleep"}}

    def __init__(self, seed=None, how="burn", work=0.3):
        super().__init__(seed=seed)
        self.how, self.work = how, work

    def case_generator(self):
        if self.how == "sleep":
            time.sleep(self.work)
        else:
            end = time.process_time() + self.work
            while time.process_time() < end:
                pass
        return {"n": self.rng.randint(0, 9)}

    @staticmethod
    def prompt_func(identity):
        return "Say <answer>" + str(identity["n"]) + "</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(identity["n"])

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == str(identity["n"])
'''

SPIN = "import os, sys\nos.sched_setaffinity(0, {int(sys.argv[1])})\nwhile True:\n    pass\n"


@contextlib.contextmanager
def spinners(n: int, cpu: int = CPU) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``n`` processes spinning on ``cpu``, outside any tree measured here."""
    procs = [subprocess.Popen([sys.executable, "-c", SPIN, str(cpu)]) for _ in range(n)]
    try:
        time.sleep(0.2)  # running
        yield procs
    finally:
        for p in procs:
            p.kill()
            p.wait()


@contextlib.contextmanager
def pinned(cpu: int = CPU) -> Iterator[None]:
    """This thread (and what it starts) on ``cpu`` only."""
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def test_the_cost_rules() -> None:
    # loaded: ran 0.4 s, waited 0.6 s of a 1 s call -> 0.4 s
    assert call_cost(1.0, Sample(cpu_s=0.4, wait_s=0.6)) == pytest.approx(0.4)
    # sleeping waits on no run queue: the whole wall time
    assert call_cost(1.0, Sample()) == 1.0
    # processes of the job that wait for each other: never below the CPU time they used
    assert call_cost(1.0, Sample(cpu_s=2.0, wait_s=3.0)) == 1.0
    assert call_cost(1.0, Sample(cpu_s=0.7, wait_s=0.9)) == pytest.approx(0.7)
    assert call_cost(0.5, Sample(cpu_s=0.0, wait_s=0.9)) == 0.0


def test_the_clock_reads_the_tree_and_only_the_tree() -> None:
    """A parent and its child spinning on one CPU beside a stranger: the tree's clock counts
    the two (their CPU and their waits), not the stranger's."""
    tree = subprocess.Popen([sys.executable, "-c",
                             "import subprocess, sys\n"
                             f"child = subprocess.Popen([sys.executable, '-c', {SPIN!r}, '{CPU}'])\n"
                             f"exec({SPIN!r}.replace('int(sys.argv[1])', '{CPU}'))\n"])
    try:
        with spinners(1):
            time.sleep(0.3)
            clock = TreeClock(tree.pid)
            t0 = time.monotonic()
            time.sleep(1.0)
            got = clock.sample()
            wall = time.monotonic() - t0
        # three spinners share one CPU: the tree's two ran about 2/3 of it and waited the rest
        assert 0.45 * wall < got.cpu_s < 0.85 * wall, got
        assert 0.9 * wall < got.wait_s < 1.6 * wall, got
        assert call_cost(wall, got) >= 0.45 * wall  # their CPU: no cheaper than that
    finally:
        subprocess.run(["pkill", "-KILL", "-P", str(tree.pid)], check=False)
        tree.kill()
        tree.wait()
    assert TreeClock(None).sample() == Sample()
    gone = TreeClock(tree.pid)  # a tree that is gone reads nothing
    assert gone.sample() == Sample()


@pytest.mark.parametrize("backend", ["process", "bwrap"])
def test_a_loaded_host_does_not_charge_the_call(backend: str) -> None:
    """0.3 s of CPU per case: on a CPU shared with a spinner the call takes about twice that,
    and costs what it ran. A case that sleeps 0.3 s costs its 0.3 s, loaded or not."""
    require_backend(backend)
    with pinned(), MethodServer(SLOW, backend=backend) as server:
        assert server.info["class"] == "SlowBootcamp", server.load_reply
        burn = server.call("construct", {"params": {"how": "burn"}, "seed": 1}).value
        sleep = server.call("construct", {"params": {"how": "sleep"}, "seed": 1}).value
        quiet = server.call("generate", {"handle": burn}, timeout_s=10)
        assert quiet.ok, quiet
        assert quiet.cost_s == pytest.approx(quiet.elapsed_s, abs=0.06)
        with spinners(1):
            loaded = server.call("generate", {"handle": burn}, timeout_s=10)
            slept = server.call("generate", {"handle": sleep}, timeout_s=10)
    assert loaded.ok and slept.ok, (loaded, slept)
    assert loaded.elapsed_s > 0.5, loaded.elapsed_s  # the load was there
    assert 0.25 < loaded.cost_s < 0.42, (loaded.elapsed_s, loaded.cost_s)
    assert slept.cost_s >= 0.29 and slept.cost_s == pytest.approx(slept.elapsed_s, abs=0.06)
