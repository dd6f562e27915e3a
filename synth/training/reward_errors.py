"""What every reward function of :mod:`synth.training` reports besides a score: the findings
counter and the two errors that are not the model's doing. Re-exported by
:mod:`synth.training.reward`, where users import them from."""

from __future__ import annotations

from collections import Counter

__all__ = ["FINDINGS", "RewardDataError", "RewardSandboxError"]

#: bootcamp name -> verifier failures (exceptions, timeouts, invalid scores) seen in this process
FINDINGS: Counter[str] = Counter()


class RewardDataError(ValueError):
    """The row's data source or ground truth does not match the library."""


class RewardSandboxError(RuntimeError):
    """The sandbox could not score at all (no backend, a worker that cannot start)."""
