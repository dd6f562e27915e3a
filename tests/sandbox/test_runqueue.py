"""The kernel's clocks of a sandboxed job's process tree (synth/sandbox/runqueue.py): how long
its processes ran and waited for a CPU the host gave to other work. A method server
counts the wait (evidence of a loaded host); the gate's time budgets still measure the wall
time (tests/adversarial: gate_timing_verify_clock busy-waits for a wall time, which a load
correction would halve).

The load is made exact by pinning: the job and a spinning process share one CPU."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from helpers import require_backend

from synth.gate.report import CheckConfig
from synth.gate.timing import check_timing
from synth.sandbox.methods import MethodServer
from synth.sandbox.runqueue import Sample, TreeClock

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
    """``n`` processes spinning on ``cpu``, outside any tree measured here, each in a session
    of its own: the kernel shares a CPU between sessions (autogroups) first, and the sandbox's
    job has a session of its own, so each spinner takes as large a share as the job."""
    procs = [subprocess.Popen([sys.executable, "-c", SPIN, str(cpu)], start_new_session=True)
             for _ in range(n)]
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
        # three spinners share one CPU (and whatever else the host runs there): the tree's two
        # ran at most about 2/3 of it, each waited at least about 1/3 of the time; the
        # stranger's CPU, which would make the tree's nearly the whole wall time, is not counted
        assert 0.05 * wall < got.cpu_s < 0.85 * wall, got
        assert 0.9 * wall < got.wait_s < 2.05 * wall, got
    finally:
        subprocess.run(["pkill", "-KILL", "-P", str(tree.pid)], check=False)
        tree.kill()
        tree.wait()
    assert TreeClock(None).sample() == Sample()
    gone = TreeClock(tree.pid)  # a tree that is gone reads nothing
    assert gone.sample() == Sample()


@pytest.mark.parametrize("backend", ["process", "bwrap"])
def test_the_server_says_how_long_the_job_waited_for_a_cpu(backend: str) -> None:
    """0.3 s of CPU per case: on a CPU shared with spinners the call takes longer, and the
    server's clock says how long its job waited; what is left is the job's own 0.3 s. A case
    that sleeps waits on no run queue. (The test run's other worker may share the CPU too: the
    bounds hold with any such extra load.) A closed session's wait is kept."""
    require_backend(backend)
    with pinned(), MethodServer(SLOW, backend=backend) as server:
        assert server.info["class"] == "SlowBootcamp", server.load_reply
        burn = server.call("construct", {"params": {"how": "burn"}, "seed": 1}).value
        sleep = server.call("construct", {"params": {"how": "sleep"}, "seed": 1}).value
        with spinners(3):  # the job gets about a quarter of its CPU
            before = server.waited()
            loaded = server.call("generate", {"handle": burn}, timeout_s=10)
            loaded_waited = server.waited() - before
            slept = server.call("generate", {"handle": sleep}, timeout_s=10)
            slept_waited = server.waited() - before - loaded_waited
        total = server.waited()
        server.close()
        assert server.waited() >= total  # the closed session's wait stays counted
    assert loaded.ok and slept.ok, (loaded, slept)
    assert loaded_waited > 0.1, (loaded.elapsed_s, loaded_waited)  # the spinners' share
    assert 0.25 < loaded.elapsed_s - loaded_waited < 0.45, (loaded.elapsed_s, loaded_waited)
    assert slept.elapsed_s >= 0.29 and slept_waited < 0.1, (slept, slept_waited)


def _suite(waited_s: float, verify_s: float) -> SimpleNamespace:
    """What check_timing reads of a suite: one level, 10 fast cases, 20 verify calls of
    ``verify_s`` each, of which the job waited ``waited_s`` in all for a CPU."""
    return SimpleNamespace(
        cfg=CheckConfig(), levels=[("easy", {}, 1)], gen_times=[[0.001] * 10],
        construct_times=[0.001], hung=False, verify_times=[verify_s] * 20, answer_times=[],
        prompt_times=[], too_slow="", cand=SimpleNamespace(
            server=SimpleNamespace(waited=lambda: waited_s), asked_s=20 * verify_s + 0.01))


def test_the_timing_verdict_is_the_wall_time_and_says_when_the_host_was_loaded() -> None:
    # 80 ms per verify call, half of it waiting for a CPU: still over the 50 ms budget (the
    # wait is never subtracted), and the reason says the host was loaded
    loaded = check_timing(_suite(waited_s=0.8, verify_s=0.08))  # type: ignore[arg-type]
    assert loaded["status"] == "failed"
    assert "verify_score takes 80.0 ms" in loaded["reason"]
    assert "the host was loaded: the job waited for a CPU 50% " in loaded["reason"]
    quiet = check_timing(_suite(waited_s=0.0, verify_s=0.08))  # type: ignore[arg-type]
    assert quiet["status"] == "failed" and "loaded" not in quiet["reason"]
    fine = check_timing(_suite(waited_s=0.1, verify_s=0.01))  # type: ignore[arg-type]
    assert fine["status"] == "passed"
    assert "waited 0.10s for a CPU" in fine["artifacts"]["timings"]
