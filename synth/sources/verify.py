"""Run reference programs in the sandbox and check that they reproduce a task's tests.

Sources do not trust a dataset's label that a solution is correct: a reference program is kept
only when it reproduces the public tests when run in the sandbox (``synth.sandbox``). Output is
compared after whitespace normalisation (token by token). A crash, a timeout, an out-of-memory
kill or an output flood counts as a failure of that program; a ``sandbox_error`` is an
infrastructure failure and is reported as such, never blamed on the task.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from synth.tasks import SkipReason, TestCase

__all__ = ["ProgramCheck", "Runner", "check_program", "outputs_match", "sandbox_runner"]


@dataclass(frozen=True)
class RunOutput:
    """The part of a sandbox ``RunResult`` that verification needs."""

    outcome: str  # a synth.sandbox.Outcome value
    stdout: str
    stderr: str
    detail: str = ""


#: ``runner(code, stdin, timeout_s) -> RunOutput``: runs a standalone Python 3 program.
Runner = Callable[[str, str, float], RunOutput]


@dataclass(frozen=True)
class ProgramCheck:
    """Verdict on one program: ``failure`` is None when every test passed."""

    failure: SkipReason | None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.failure is None


def outputs_match(got: str, expected: str) -> bool:
    """Whitespace-normalised comparison: the same tokens in the same order."""
    return got.split() == expected.split()


def sandbox_runner(backend: str = "auto", memory_mb: int = 512) -> Runner:
    """A runner on :func:`synth.sandbox.run_program` (imported lazily). A sandbox that cannot
    run at all raises :class:`~synth.sources.base.SourceUnavailableError`."""

    def run(code: str, stdin: str, timeout_s: float) -> RunOutput:
        from synth.sandbox import Limits, SandboxUnavailableError, run_program
        from synth.sources.base import SourceUnavailableError

        limits = Limits(wall_s=timeout_s, cpu_s=timeout_s, memory_mb=memory_mb)
        try:
            result = run_program(code, stdin, limits=limits, backend=backend)
        except (SandboxUnavailableError, ValueError) as exc:
            raise SourceUnavailableError(
                f"cannot verify reference solutions: {exc}; fix the sandbox or pass --no-verify"
            ) from None
        return RunOutput(outcome=str(result.outcome.value), stdout=result.stdout,
                         stderr=result.stderr, detail=result.detail)

    return run


def _tail(text: str, limit: int = 300) -> str:
    text = text.strip()
    return text if len(text) <= limit else "..." + text[-limit:]


def _short(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + "..."


def check_program(
    code: str, tests: Sequence[TestCase], runner: Runner, timeout_s: float
) -> ProgramCheck:
    """Run ``code`` on every test's input; stop at the first failing test."""
    for number, test in enumerate(tests, start=1):
        out = runner(code, test.input, timeout_s)
        where = f"public test {number}"
        if out.outcome == "timeout":
            return ProgramCheck(SkipReason.REFERENCE_TIMEOUT,
                                f"{where}: no answer within {timeout_s:g}s")
        if out.outcome == "sandbox_error":
            return ProgramCheck(SkipReason.SANDBOX_ERROR, f"{where}: {out.detail or 'sandbox'}")
        if out.outcome != "passed":
            why = out.detail or out.outcome
            tail = _tail(out.stderr)
            return ProgramCheck(SkipReason.REFERENCE_CRASHED,
                                f"{where}: {out.outcome} ({why})" + (f": {tail}" if tail else ""))
        if not outputs_match(out.stdout, test.output):
            return ProgramCheck(
                SkipReason.REFERENCE_WRONG_OUTPUT,
                f"{where}: expected {_short(test.output)!r}, got {_short(out.stdout)!r}",
            )
    return ProgramCheck(None)
