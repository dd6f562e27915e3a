"""The judge (trusted): the static gate's findings, every check's logic, the CheckReport.

Untrusted code -- a candidate bootcamp, a reference program -- runs only in the sandbox
(:mod:`synth.sandbox`), where the kit's method server answers questions with plain values.
This package asks the questions and decides: :func:`run_checks` is the gate.
"""

from synth.gate.key import Voter
from synth.gate.report import (
    ARTIFACT_CAP,
    CHECK_NAMES,
    FINDINGS,
    MULTI_TURN_CHECK_NAMES,
    CheckConfig,
    CheckReport,
    CheckResult,
    CheckStatus,
)
from synth.gate.run import detect_mode, run_checks, run_checks_file

__all__ = [
    "ARTIFACT_CAP",
    "CHECK_NAMES",
    "FINDINGS",
    "MULTI_TURN_CHECK_NAMES",
    "CheckConfig",
    "CheckReport",
    "CheckResult",
    "CheckStatus",
    "Voter",
    "detect_mode",
    "run_checks",
    "run_checks_file",
]
