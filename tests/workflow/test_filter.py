"""The self-consistency filter with scripted solvers, on the real process sandbox."""

from __future__ import annotations

import asyncio
import re
import time

import pytest
from helpers import TOY_SUM, assert_no_leftovers, pids_with

from filters.self_consistency import FilterConfig, decided, run_filter

CFG = FilterConfig(samples=64, pool_size=1, verify_timeout_s=2.0)


def answer(prompt: str, right: bool) -> str:
    nums = [int(x) for x in re.findall(r"-?\d+", prompt.split(":", 1)[1].split(".", 1)[0])]
    return f"<answer>{sum(nums) + (0 if right else 1)}</answer>"


def solver(rule):
    async def solve(prompt: str) -> str:
        await asyncio.sleep(0)
        return answer(prompt, rule(prompt))

    return solve


def run(code, solve, cfg=CFG):
    return asyncio.run(run_filter(code, solve, config=cfg, backend="process"))


def test_decided_bounds():
    assert decided(55, 55, 64, 0.03, 0.85) == "too_easy"
    assert decided(54, 54, 64, 0.03, 0.85) is None
    assert decided(0, 63, 64, 0.03, 0.85) == "too_hard"
    assert decided(0, 62, 64, 0.03, 0.85) is None
    assert decided(2, 12, 64, 0.03, 0.85) == "accepted"  # 2/64 >= .03 and 54/64 <= .85
    assert decided(1, 12, 64, 0.03, 0.85) is None


def test_always_solved_is_too_easy_and_stops_early():
    res = run(TOY_SUM, solver(lambda p: True))
    assert res.verdict == "too_easy"
    assert res.stopped_early and res.answered < 64
    assert res.pass_rate == 1.0


def test_never_solved_is_too_hard():
    res = run(TOY_SUM, solver(lambda p: False))
    assert res.verdict == "too_hard" and res.pass_rate == 0.0


def test_in_band_is_accepted_with_per_level_rates():
    # right on "easy" prompts (3 numbers), wrong on "hard" ones (8 numbers): rate ~ 0.5
    res = run(TOY_SUM, solver(lambda p: len(re.findall(r"\d+", p)) <= 4),
              FilterConfig(samples=64, pool_size=1, early_stop=False))
    assert res.verdict == "accepted" and res.answered == 64
    assert res.level_pass_rates == {"easy": 1.0, "hard": 0.0}
    assert res.level_counts == {"easy": 32, "hard": 32}
    assert res.pass_rate == pytest.approx(0.5)
    early = run(TOY_SUM, solver(lambda p: len(re.findall(r"\d+", p)) <= 4))
    assert early.verdict == "accepted" and early.stopped_early and early.answered < 64


CRASHY = TOY_SUM.replace(
    "        s = solution.strip()\n",
    "        s = solution.strip()\n        if s.endswith('7'):\n            raise RuntimeError('verifier bug')\n",
)


def test_verifier_exception_rejects_with_evidence():
    res = run(CRASHY, solver(lambda p: False))
    assert res.verdict == "verifier_error"
    assert "verifier bug" in res.reason or any("verifier bug" in s.error for s in res.samples)


HANGING = TOY_SUM.replace(
    "        s = solution.strip()\n",
    "        s = solution.strip()\n        while s.endswith('7'):\n            pass\n",
)


def test_verifier_hang_is_a_timeout_rejection():
    before = pids_with("_synth_worker.py")
    t0 = time.monotonic()
    res = run(HANGING, solver(lambda p: False))
    assert res.verdict == "verifier_error" and "timeout" in res.reason
    assert time.monotonic() - t0 < 30
    # the pool kills its workers on close: a hung verifier's worker is not left running
    assert_no_leftovers("_synth_worker.py", grace_s=5, before=before)


def test_generator_crash_is_a_sample_error():
    broken = TOY_SUM.replace("return {\"numbers\"", "raise ValueError('no cases')\n        return {\"numbers\"")
    res = run(broken, solver(lambda p: True))
    assert res.verdict == "sample_error" and "no cases" in res.reason


def test_failing_solver_is_a_solver_error():
    async def solve(prompt: str) -> str:
        raise ConnectionError("endpoint down")

    res = run(TOY_SUM, solve)
    assert res.verdict == "solver_error" and "endpoint down" in res.reason


def test_a_nan_score_is_never_inside_the_band(monkeypatch):
    """Even if a non-finite score got past the pool, the filter refuses it (NaN compares false
    with both bounds, so a NaN pass rate would otherwise look "accepted")."""
    from filters import self_consistency as sc
    from synth.sandbox.base import Outcome
    from synth.sandbox.pool import VerifyResult

    def nan_many(self, items, format_score=0.0):
        return [VerifyResult(outcome=Outcome.PASSED, score=float("nan")) for _ in items]

    monkeypatch.setattr(sc.WorkerPool, "verify_many", nan_many)
    res = run(TOY_SUM, solver(lambda p: True), FilterConfig(samples=40, pool_size=1))
    assert res.verdict == "verifier_error" and "invalid_score" in res.reason


RUNTIME_PATCH = TOY_SUM.replace(
    "    @classmethod\n    def _verify_correction(cls, solution, identity):",
    "    @classmethod\n    def _verify_correction(cls, solution, identity):\n"
    "        setattr(cls.__mro__[1], 'verify_score', classmethod(lambda c, r, i, f=0.0: 1.0))",
)


def test_a_verifier_that_patches_the_contract_at_run_time_is_a_verifier_error():
    assert RUNTIME_PATCH != TOY_SUM
    res = run(RUNTIME_PATCH, solver(lambda p: False), FilterConfig(samples=40, pool_size=1))
    assert res.verdict == "verifier_error"
    assert "contract" in res.reason, res.reason
