"""The quality gate: run a candidate bootcamp's check suite in the sandbox -> :class:`CheckReport`.

Host side of the gate (DESIGN.md, "The quality gate"). :func:`run_checks` lints the source with
the static gate (L0), then runs the whole suite in ONE sandbox job: the trusted harness
(``synth/sandbox/harness.py`` + ``harness_checks.py``, standard library only) imports the
candidate once and streams one JSON line per check. If the sandbox kills the run (timeout,
memory, crash), the checks that finished keep their results, the one that was running gets the
run's outcome, and the rest are ``skipped`` with the reason. ``sandbox_error`` is reserved for
the infrastructure and is never blamed on the candidate.

InternBootcamp-style modules (``from bootcamp import Basebootcamp`` and similar) are audited
with a shim (``synth/sandbox/intern_shim.py``): the checks that need what such classes lack
(``reference_answer``, ``LEVELS``) are skipped with the reason.
"""

from __future__ import annotations

import ast
import hashlib
import json
import secrets
import time
from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from synth.sandbox import get_backend
from synth.sandbox.base import Backend, Limits, Outcome, RunResult, SandboxJob
from synth.sandbox.static import check_source, format_violations

__all__ = [
    "ARTIFACT_CAP",
    "CHECK_NAMES",
    "CheckConfig",
    "CheckReport",
    "CheckResult",
    "CheckStatus",
    "detect_mode",
    "run_checks",
]

#: Every check of the suite, in the order it runs ("static" on the host, the rest in the sandbox).
CHECK_NAMES: tuple[str, ...] = (
    "static", "load", "construct", "generate", "determinism", "diversity", "prompt",
    "self_consistency", "mutation", "garbage", "oracle", "levels", "timing",
)
#: Largest artifact kept per entry (characters): sized for the revise prompt.
ARTIFACT_CAP = 2000
_SANDBOX_DIR = Path(__file__).resolve().parent / "sandbox"
_CONTRACT = Path(__file__).resolve().parent / "bootcamp.py"
_INTERN_BASES = frozenset({"bootcamp", "base", "internbootcamp.bootcamp", "internbootcamp.bootcamp.base",
                           "internbootcamp.bootcamp.base_bootcamp"})


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
    oracle_cases: int = Field(default=8, ge=1, le=200)
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


# ------------------------------------------------------------------------------------------
# Running the suite
# ------------------------------------------------------------------------------------------


def detect_mode(source: str) -> tuple[Literal["native", "intern"], bool]:
    """("intern", relative) when the module imports InternBootcamp's ``Basebootcamp``."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return "native", False
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == "Basebootcamp" for a in node.names):
            module = node.module or ""
            if node.level > 0 or module in _INTERN_BASES or module.endswith(".base"):
                return "intern", node.level > 0
    return "native", False


def _static(source: str, mode: str) -> tuple[CheckResult, bool]:
    """(result, parses) of the L0 gate. In intern mode its findings are informational."""
    start = time.perf_counter()
    violations = check_source(source, "intern" if mode == "intern" else "synth")
    elapsed = time.perf_counter() - start
    parses = not any(v.rule == "syntax" for v in violations)
    hard = mode == "native"
    if not violations:
        return CheckResult(name="static", status=CheckStatus.PASSED, hard=hard, elapsed_s=elapsed,
                           reason="shape, imports and names pass the static gate"), parses
    return CheckResult(
        name="static", status=CheckStatus.FAILED, hard=hard, elapsed_s=elapsed,
        reason=f"{len(violations)} static rule violation(s); first: {violations[0]}",
        artifacts={"violations": format_violations(violations)},
    ), parses


def _job(source: str, mode: str, relative: bool, reference: str | None, cfg: CheckConfig,
         nonce: str) -> SandboxJob:
    files = {
        "harness.py": (_SANDBOX_DIR / "harness.py").read_text(encoding="utf-8"),
        "harness_checks.py": (_SANDBOX_DIR / "harness_checks.py").read_text(encoding="utf-8"),
        "synth/__init__.py": "",
        "synth/bootcamp.py": _CONTRACT.read_text(encoding="utf-8"),
    }
    module = "candidate"
    if mode == "intern":
        reexport = "from intern_shim import Basebootcamp  # noqa: F401\n"
        files.update({
            "intern_shim.py": (_SANDBOX_DIR / "intern_shim.py").read_text(encoding="utf-8"),
            "bootcamp/__init__.py": reexport,
            "internbootcamp/__init__.py": "",
            "internbootcamp/bootcamp/__init__.py": reexport,
            "internbootcamp/bootcamp/base.py": reexport,
        })
        if relative:
            module = "internbootcamp.bootcamp.candidate"
    files[module.replace(".", "/") + ".py"] = source
    if reference is not None:
        files["reference.py"] = reference
    settings = cfg.model_dump(exclude={"limits"})
    settings.update(nonce=nonce, mode=mode, module=module, oracle=reference is not None)
    return SandboxJob(files=files, argv=["harness.py"], stdin=json.dumps(settings),
                      env={"PYTHONHASHSEED": str(cfg.main_hashseed)})


_OUTCOME_STATUS = {
    Outcome.TIMEOUT: CheckStatus.TIMEOUT,
    Outcome.OOM: CheckStatus.OOM,
    Outcome.SANDBOX_ERROR: CheckStatus.SANDBOX_ERROR,
}


def _collect(run: RunResult, nonce: str) -> list[CheckResult]:
    """Turn the harness's streamed lines (and, if it died, the run's outcome) into results."""
    done: dict[str, CheckResult] = {}
    running: str | None = None
    finished = False
    for line in run.stdout.splitlines():
        if not line.startswith(nonce):
            continue
        try:
            event = json.loads(line[len(nonce):])
        except ValueError:
            continue
        kind = event.pop("event", None)
        if kind == "start":
            running = event.get("check")
        elif kind == "result":
            try:
                result = CheckResult(name=event.pop("check"), **event)
            except (KeyError, TypeError, ValueError):  # not a line our harness wrote
                continue
            done[result.name] = result
            running = None
        elif kind == "done":
            finished = True
    names = [n for n in CHECK_NAMES if n != "static"]
    if finished and all(n in done for n in names):
        return [done[n] for n in names]
    # Outside any check only the harness runs: its death is not the candidate's fault.
    infra = run.outcome is Outcome.SANDBOX_ERROR or running is None
    status = CheckStatus.SANDBOX_ERROR if infra else _OUTCOME_STATUS.get(run.outcome,
                                                                         CheckStatus.ERROR)
    detail = run.detail or f"outcome {run.outcome.value}"
    victim = running or next(n for n in names if n not in done)
    why = (f"the sandbox failed ({detail})" if infra else
           f"the sandbox run ended during this check: {detail}")
    arts = {"stderr": run.stderr[-ARTIFACT_CAP:]} if run.stderr.strip() else {}
    done[victim] = CheckResult(name=victim, status=status, reason=why, artifacts=arts)
    for name in names:
        if name not in done:
            done[name] = CheckResult(name=name, status=CheckStatus.SKIPPED,
                                     reason=f"not run: the sandbox run ended during {victim}")
    return [done[n] for n in names]


def run_checks(
    source: str,
    *,
    reference: str | None = None,
    backend: str | Backend = "auto",
    config: CheckConfig | None = None,
    name: str = "",
) -> CheckReport:
    """Run the whole gate on one candidate module's source. Never raises for candidate
    behaviour; an unavailable backend raises ``SandboxUnavailableError`` (from get_backend)."""
    cfg = config or CheckConfig()
    start = time.perf_counter()
    mode, relative = detect_mode(source)
    sha = hashlib.sha256(source.encode("utf-8")).hexdigest()
    static, parses = _static(source, mode)
    runner = get_backend(backend) if isinstance(backend, str) else backend
    checks = [static]
    sandbox_s = 0.0
    if not parses:
        checks.append(CheckResult(name="load", status=CheckStatus.FAILED,
                                  reason=f"the module does not parse: {static.reason}",
                                  artifacts=static.artifacts))
        checks += [CheckResult(name=n, status=CheckStatus.SKIPPED,
                               reason="not run: the module does not parse")
                   for n in CHECK_NAMES[2:]]
    else:
        nonce = "@@" + secrets.token_hex(8) + "@@"
        job = _job(source, mode, relative, reference, cfg, nonce)
        run = runner.run(job, cfg.limits)
        sandbox_s = run.elapsed_s
        checks += _collect(run, nonce)
    infra = any(c.status is CheckStatus.SANDBOX_ERROR for c in checks)
    passed = not infra and all(c.ok for c in checks)
    return CheckReport(
        candidate_sha256=sha,
        candidate_name=name,
        mode=mode,
        backend=runner.name,
        checks=checks,
        passed=passed,
        infrastructure_error=infra,
        timings={"static_s": round(static.elapsed_s, 4), "sandbox_s": round(sandbox_s, 4),
                 "total_s": round(time.perf_counter() - start, 4)},
    )


def run_checks_file(path: Path, *, reference: Path | None = None, backend: str | Backend = "auto",
                    config: CheckConfig | None = None) -> CheckReport:
    """:func:`run_checks` on a file (and optional reference program file)."""
    ref = reference.read_text(encoding="utf-8") if reference is not None else None
    return run_checks(path.read_text(encoding="utf-8"), reference=ref, backend=backend,
                      config=config, name=path.name)
