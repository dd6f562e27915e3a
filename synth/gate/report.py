"""The gate's typed results: one :class:`CheckResult` per check, a :class:`CheckReport` per
candidate, and the :class:`CheckConfig` of sizes and budgets.

Every result carries its evidence (traceback tail, the failing case, expected vs got) sized for
the revise prompt, which shows exactly these artifacts to the code model. Results are built by
the trusted host (``synth.gate.suite``); nothing in them is parsed from the sandbox's output.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from synth.sandbox.base import Limits

__all__ = [
    "ARTIFACT_CAP",
    "CHECK_NAMES",
    "FINDINGS",
    "CheckConfig",
    "CheckReport",
    "CheckResult",
    "CheckStatus",
]

#: Every check of the suite, in the order it runs. "static" lints the source on the host; the
#: others ask the sandboxed method server questions and judge its answers on the host.
CHECK_NAMES: tuple[str, ...] = (
    "static", "load", "construct", "generate", "determinism", "diversity", "prompt",
    "self_consistency", "purity", "mutation", "garbage", "differential", "oracle", "levels",
    "timing", "contract",
)
#: Largest artifact kept per entry (characters): sized for the revise prompt.
ARTIFACT_CAP = 2000
#: Named findings a check can carry (``CheckResult.finding``).
FINDINGS: tuple[str, ...] = (
    "invalid_score", "contract_tampered", "protocol", "impure_verifier", "reference_disagrees",
    "verifier_too_lenient", "verifier_too_strict", "checker_broken", "impure_reference",
)

class CheckStatus(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    TIMEOUT = "timeout"
    OOM = "oom"
    SANDBOX_ERROR = "sandbox_error"
    SKIPPED = "skipped"


def _cap(text: str, limit: int, keep_tail: bool = False) -> str:
    if len(text) <= limit:
        return text
    cut = f"...[{len(text) - limit + 20} chars cut]..."
    room = limit - len(cut)
    return cut + text[-room:] if keep_tail else text[:room] + cut


class CheckResult(BaseModel):
    """One check: status, a one-line reason and prompt-sized evidence."""

    model_config = ConfigDict(extra="forbid")

    name: str
    status: CheckStatus
    hard: bool = True
    reason: str
    artifacts: dict[str, str] = Field(default_factory=dict)
    elapsed_s: float = 0.0
    finding: str = Field(default="", max_length=64, description="a named finding, e.g. invalid_score")

    @field_validator("reason")
    @classmethod
    def _one_line(cls, value: str) -> str:
        return _cap(" ".join(value.split()), 400)

    @field_validator("artifacts")
    @classmethod
    def _bounded(cls, value: dict[str, str]) -> dict[str, str]:
        return {
            k[:64]: _cap(v, ARTIFACT_CAP, keep_tail=k in ("traceback", "stderr"))
            for k, v in list(value.items())[:12]
        }

    @property
    def ok(self) -> bool:
        """True when this check does not block acceptance."""
        return not self.hard or self.status in (CheckStatus.PASSED, CheckStatus.SKIPPED)


class CheckConfig(BaseModel):
    """Sizes and budgets of the suite. Defaults keep a normal bootcamp under ~1.5 s."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seed: int = Field(default=20240611, ge=0, lt=2**62)
    cases_per_level: int = Field(default=40, ge=4, le=1000)
    min_cases: int = Field(default=8, ge=4, le=1000)
    level_budget_s: float = Field(default=0.15, gt=0, le=60)
    case_limit_s: float = Field(default=2.0, gt=0, le=60)
    case_max_chars: int = Field(default=100_000, ge=100)
    determinism_cases: int = Field(default=6, ge=1, le=100)
    worker_timeout_s: float = Field(default=15.0, gt=0, le=600)
    mutation_cases: int = Field(default=30, ge=1, le=1000)
    garbage_cases: int = Field(default=3, ge=1, le=100)
    garbage_limit_s: float = Field(default=2.0, gt=0, le=60)
    garbage_max_s: float = Field(default=1.0, gt=0, le=60)
    oracle_cases: int = Field(default=100, ge=1, le=1000)
    purity_cases: int = Field(default=10, ge=1, le=1000)
    differential_cases: int = Field(default=200, ge=1, le=5000)
    differential_budget_s: float = Field(default=6.0, gt=0, le=600)
    probes_per_case: int = Field(default=8, ge=0, le=100)
    disagreement_min_cases: int = Field(default=2, ge=1, le=1000)
    disagreement_rate: float = Field(default=0.01, ge=0, le=1)
    oracle_timeout_s: float = Field(default=5.0, gt=0, le=120)
    prompt_max_chars: int = Field(default=20_000, ge=100)
    check_budget_s: float = Field(default=5.0, gt=0, le=600)  # bootcamp time per check
    gen_mean_s: float = Field(default=0.25, gt=0, le=60)  # mean generation time per case
    gen_max_s: float = Field(default=2.0, gt=0, le=60)  # slowest single case
    call_mean_s: float = Field(default=0.05, gt=0, le=60)  # mean verify/answer/prompt call
    call_max_s: float = Field(default=1.0, gt=0, le=60)  # slowest such call
    main_hashseed: int = Field(default=1, ge=0, le=4294967295)
    child_hashseed: int = Field(default=2, ge=0, le=4294967295)
    limits: Limits = Limits(wall_s=60, cpu_s=60, memory_mb=1024, pids=64)


class CheckReport(BaseModel):
    """The gate's verdict on one candidate (saved as ``round_<k>.check.json``)."""

    model_config = ConfigDict(extra="forbid")

    candidate_sha256: str
    candidate_name: str = ""
    mode: Literal["native", "intern"] = "native"
    backend: str
    checks: list[CheckResult]
    passed: bool
    infrastructure_error: bool = False
    timings: dict[str, float] = Field(default_factory=dict)

    def get(self, name: str) -> CheckResult | None:
        return next((c for c in self.checks if c.name == name), None)

    @property
    def failing(self) -> list[CheckResult]:
        """Checks that block acceptance, in suite order."""
        return [c for c in self.checks if not c.ok]

    def feedback(self, max_chars: int = 6000) -> str:
        """The failing checks as compact text for the revise prompt (bounded)."""
        if self.passed:
            return "All hard checks passed."
        parts: list[str] = []
        for check in self.failing:
            lines = [f"## {check.name}: {check.status.value} -- {check.reason}"]
            for key, value in check.artifacts.items():
                lines.append(f"{key}:\n```\n{_cap(value, 800, key in ('traceback', 'stderr'))}\n```")
            parts.append("\n".join(lines))
        skipped = [c.name for c in self.checks if c.status is CheckStatus.SKIPPED and c.hard]
        if skipped:
            parts.append("Not run because of the failures above or not applicable: "
                         + ", ".join(skipped))
        return _cap("\n\n".join(parts), max_chars)
