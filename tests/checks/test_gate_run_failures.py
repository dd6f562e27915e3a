"""A sandboxed bootcamp that hangs, exits or explodes still yields a report: finished checks
keep their results, the running check gets the outcome the host observed, the rest are skipped
with the reason."""

from __future__ import annotations

import time

from conftest import CORPUS

from synth.gate import CheckConfig, CheckStatus, run_checks
from synth.sandbox.base import Limits

BEFORE_SELF_CONSISTENCY = ["load", "construct", "generate", "determinism", "diversity", "prompt"]


def test_a_hang_that_swallows_the_call_timer_is_stopped_by_the_sandbox(process_backend):
    cfg = CheckConfig(limits=Limits(wall_s=4, cpu_s=10))
    start = time.monotonic()
    report = run_checks((CORPUS / "run_hang_swallows_timeout.py").read_text(),
                        backend=process_backend, config=cfg)
    assert time.monotonic() - start < 8
    statuses = {c.name: c.status for c in report.checks}
    assert all(statuses[n] is CheckStatus.PASSED for n in BEFORE_SELF_CONSISTENCY)
    assert statuses["self_consistency"] is CheckStatus.TIMEOUT
    later = ["mutation", "garbage", "oracle", "timing"]
    assert all(statuses[n] is CheckStatus.SKIPPED for n in later)
    assert "self_consistency" in report.get("timing").reason
    assert not report.passed and not report.infrastructure_error


def test_a_bootcamp_that_ends_the_process_is_an_error_of_the_running_check(process_backend):
    report = run_checks((CORPUS / "run_exits.py").read_text(), backend=process_backend)
    prompt = report.get("prompt")
    assert prompt.status is CheckStatus.ERROR
    assert "exit status 3" in prompt.reason
    assert report.get("self_consistency").status is CheckStatus.SKIPPED
    assert report.get("diversity").status is CheckStatus.PASSED
    assert not report.infrastructure_error


def test_a_memory_bomb_is_reported_as_oom(process_backend):
    report = run_checks((CORPUS / "run_memory_bomb.py").read_text(), backend=process_backend)
    generate = report.get("generate")
    assert generate.status is CheckStatus.OOM, generate.reason
    assert "memory" in generate.reason.lower()
    assert report.get("determinism").status is CheckStatus.SKIPPED
