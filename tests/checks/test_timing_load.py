"""The timing check on a loaded host (synth.gate.load): a trusted probe process measures how
much other work slows a CPU-bound process while the suite runs, and the budgets grow by that,
at most MAX_STRETCH-fold; a call over its budget on an idle host still fails, one far over it
fails however loaded the host, and the probe leaves no process behind."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import types
from typing import Any

import pytest
from helpers import descendants

from synth.gate import load
from synth.gate.report import CheckConfig
from synth.gate.suite import Suite
from synth.gate.timing import check_timing

SPIN = "import time\nwhile True:\n    pass\n"


def _measure(seconds: float) -> load.LoadProbe:
    probe = load.LoadProbe()
    time.sleep(seconds)
    probe.stop()
    return probe


def test_the_probe_reads_an_idle_and_a_loaded_host_and_leaves_nothing() -> None:
    """Measured, not assumed: with one busy process per core beside it, a CPU-bound probe
    runs clearly slower than alone (the test runs at nice 0 beside whatever else the machine
    does, so only the direction and a margin are asserted), and it ends with the suite."""
    before = descendants()
    quiet = _measure(1.5)
    assert quiet.bursts >= 3 and quiet.slowdown() >= 1.0
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(os.cpu_count() or 1)]
    try:
        busy = _measure(2.5)
    finally:
        for p in spinners:
            p.kill()
            p.wait()
    assert busy.bursts >= 3
    assert busy.slowdown() > 1.3 * quiet.slowdown(), (quiet.slowdown(), busy.slowdown())
    assert not descendants() - before


def test_stretch_is_between_one_and_the_cap() -> None:
    assert load.stretch(0.7) == 1.0
    assert load.stretch(2.5) == pytest.approx(2.5)
    assert load.stretch(12.0) == load.MAX_STRETCH


class _FixedProbe:
    """A probe that measured ``slowdown`` (what check_timing reads of it)."""

    def __init__(self, slowdown: float) -> None:
        self._slowdown, self.bursts = slowdown, 40

    def slowdown(self) -> float:
        return self._slowdown


def _suite(slowdown: float, verify_s: float) -> Any:
    """What check_timing reads of a suite: one level of quick cases, and verify_score calls of
    ``verify_s`` each, while other work slowed a CPU-bound process ``slowdown``-fold."""
    s = types.SimpleNamespace(
        cfg=CheckConfig(), levels=[("easy", {}, 1)], gen_times=[[0.001] * 10],
        construct_times=[0.001], hung=False, too_slow=None, verify_times=[verify_s] * 20,
        answer_times=[0.001] * 20, prompt_times=[0.001] * 20, load=_FixedProbe(slowdown))
    s.timing_stretch = types.MethodType(Suite.timing_stretch, s)
    return s


def test_a_loaded_host_stretches_the_budgets_and_says_so() -> None:
    budget = CheckConfig().call_mean_s
    # twice the mean budget: a failure on an idle host ...
    idle = check_timing(_suite(1.0, 2 * budget))
    assert idle["status"] == "failed" and "verify_score takes" in idle["reason"]
    assert "budgets x1.00" in idle["artifacts"]["host_load"]
    # ... and within budget when other work made every CPU-bound process 2.5 times slower
    loaded = check_timing(_suite(2.5, 2 * budget))
    assert loaded["status"] == "passed", loaded["reason"]
    assert "budgets x2.50 for a loaded host" in loaded["reason"]


def test_the_stretch_is_capped() -> None:
    """A call four times over its budget fails even on a host ten times overloaded."""
    budget = CheckConfig().call_mean_s
    out = check_timing(_suite(10.0, 4 * budget))
    assert out["status"] == "failed"
    assert f"budgets x{load.MAX_STRETCH:.2f}" in out["reason"]
    assert f"budget {load.MAX_STRETCH * budget * 1000:g} ms" in out["reason"]
