"""``CheckConfig(fail_fast=True)`` (``synth check --fail-fast``): the suite ends at the first
check that rejects; every later check is skipped and says why; the verdict is the same."""

from __future__ import annotations

from helpers import TOY_SUM

from synth.gate import CheckConfig, CheckStatus, run_checks

# accepts any answer: the mutation check rejects it, and later checks would run on
LENIENT = TOY_SUM.replace("        s = solution.strip()\n", "        return True\n        s = solution.strip()\n")


def test_fail_fast_skips_what_follows_the_first_rejection(process_backend) -> None:
    assert LENIENT != TOY_SUM
    full = run_checks(LENIENT, backend=process_backend)
    fast = run_checks(LENIENT, backend=process_backend, config=CheckConfig(fail_fast=True))
    assert full.verdict == fast.verdict == "rejected"
    names = [c.name for c in full.checks]
    assert [c.name for c in fast.checks] == names  # the report still lists every check
    first = next(c for c in fast.checks if c.status is CheckStatus.FAILED)
    after = names[names.index(first.name) + 1:]
    assert after and all(fast.get(n).status is CheckStatus.SKIPPED for n in after)
    assert all("fail_fast" in fast.get(n).reason for n in after)
    assert full.get(first.name).status is CheckStatus.FAILED
    # the full report ran at least one of them
    assert any(full.get(n).status is not CheckStatus.SKIPPED for n in after)
