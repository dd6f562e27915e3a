"""CheckReport schema and the host-side reading of the harness stream (no sandbox needed)."""

from __future__ import annotations

import json

import pytest
from conftest import CORPUS
from pydantic import ValidationError

from synth.checks import (
    ARTIFACT_CAP,
    CHECK_NAMES,
    CheckReport,
    CheckResult,
    CheckStatus,
    _collect,
    detect_mode,
    run_checks,
)
from synth.sandbox.base import Limits, Outcome, RunResult, SandboxJob

NONCE = "@@0123456789abcdef@@"
SANDBOX_CHECKS = CHECK_NAMES[1:]


def line(event: str, check: str | None = None, **fields) -> str:
    body = {"event": event, **({"check": check} if check else {}), **fields}
    return NONCE + json.dumps(body)


def passed(check: str) -> str:
    return line("result", check, status="passed", reason="fine", artifacts={}, elapsed_s=0.01)


def run(stdout: str, outcome: Outcome = Outcome.PASSED, **kw) -> RunResult:
    return RunResult(outcome=outcome, stdout=stdout, backend="fake", **kw)


def test_artifacts_and_reason_are_capped_for_the_prompt():
    result = CheckResult(
        name="generate", status=CheckStatus.ERROR, reason="a\nb   c" + "x" * 5000,
        artifacts={"traceback": "HEAD" + "t" * 10_000 + "TAIL", "case": "HEAD" + "c" * 10_000},
    )
    assert "\n" not in result.reason and len(result.reason) <= 400
    assert all(len(v) <= ARTIFACT_CAP for v in result.artifacts.values())
    assert result.artifacts["traceback"].endswith("TAIL")  # tracebacks keep their tail
    assert result.artifacts["case"].startswith("HEAD")  # cases keep their head


def test_report_forbids_unknown_fields():
    with pytest.raises(ValidationError):
        CheckResult(name="x", status="passed", reason="r", verdict="trust me")  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        CheckResult(name="x", status="brilliant", reason="r")  # type: ignore[arg-type]


def test_a_complete_stream_becomes_one_result_per_check():
    stdout = "\n".join(
        ["noise printed by someone else", *(line("start", n) + "\n" + passed(n)
                                            for n in SANDBOX_CHECKS), line("done")]
    )
    results = _collect(run(stdout), NONCE)
    assert [r.name for r in results] == list(SANDBOX_CHECKS)
    assert all(r.status is CheckStatus.PASSED for r in results)


def test_lines_without_the_nonce_are_ignored():
    forged = json.dumps({"event": "result", "check": "load", "status": "passed", "reason": "x",
                         "artifacts": {}, "elapsed_s": 0})
    stdout = "\n".join([forged, line("start", "load")])
    results = _collect(run(stdout, Outcome.TIMEOUT, detail="wall-clock limit"), NONCE)
    assert results[0].name == "load" and results[0].status is CheckStatus.TIMEOUT


def test_a_run_killed_mid_check_keeps_finished_checks_and_blames_the_running_one():
    done = ["load", "construct", "generate"]
    stdout = "\n".join([*(passed(n) for n in done), line("start", "determinism")])
    for outcome, status in [(Outcome.TIMEOUT, CheckStatus.TIMEOUT), (Outcome.OOM, CheckStatus.OOM),
                            (Outcome.ERROR, CheckStatus.ERROR)]:
        results = {r.name: r for r in _collect(run(stdout, outcome, detail="killed",
                                                   stderr="boom"), NONCE)}
        assert [results[n].status for n in done] == [CheckStatus.PASSED] * 3
        assert results["determinism"].status is status
        assert "ended during this check" in results["determinism"].reason
        assert results["determinism"].artifacts["stderr"] == "boom"
        later = [n for n in SANDBOX_CHECKS if n not in done and n != "determinism"]
        assert all(results[n].status is CheckStatus.SKIPPED for n in later)
        assert all("determinism" in results[n].reason for n in later)


def test_an_infrastructure_failure_is_never_blamed_on_the_candidate():
    results = _collect(run("", Outcome.SANDBOX_ERROR, detail="docker engine gone"), NONCE)
    assert results[0].status is CheckStatus.SANDBOX_ERROR
    assert "docker engine gone" in results[0].reason
    assert all(r.status is CheckStatus.SKIPPED for r in results[1:])
    assert not any(r.status in (CheckStatus.FAILED, CheckStatus.ERROR) for r in results)


class _BrokenBackend:
    name = "broken"

    def probe(self) -> tuple[bool, str]:
        return True, "ok"

    def run(self, job: SandboxJob, limits: Limits) -> RunResult:
        assert job.argv == ["harness.py"] and "candidate.py" in job.files
        return RunResult(outcome=Outcome.SANDBOX_ERROR, backend=self.name, detail="no uid left")

    def close(self) -> None:
        pass


def test_run_checks_reports_sandbox_errors_as_infrastructure(tmp_path):
    report = run_checks((CORPUS / "clean_sort.py").read_text(), backend=_BrokenBackend())
    assert report.infrastructure_error and not report.passed
    assert report.backend == "broken"
    assert report.get("static").status is CheckStatus.PASSED
    assert report.get("load").status is CheckStatus.SANDBOX_ERROR
    assert "no uid left" in report.feedback()


def test_feedback_lists_failing_checks_with_evidence_and_is_bounded():
    checks = [
        CheckResult(name="static", status=CheckStatus.PASSED, reason="ok"),
        CheckResult(name="generate", status=CheckStatus.ERROR, reason="case_generator raised",
                    artifacts={"traceback": "Traceback ...\nIndexError: boom"}),
        CheckResult(name="mutation", status=CheckStatus.FAILED, reason="accepts junk",
                    artifacts={"survivors": "x" * 1900}),
        CheckResult(name="levels", status=CheckStatus.SKIPPED, reason="not run"),
        CheckResult(name="static", status=CheckStatus.FAILED, hard=False, reason="soft"),
    ]
    report = CheckReport(candidate_sha256="0" * 64, backend="process", checks=checks,
                         passed=False)
    text = report.feedback()
    assert "## generate: error -- case_generator raised" in text
    assert "IndexError: boom" in text
    assert "## mutation: failed" in text
    assert "soft" not in text  # non-hard findings do not block and are not fed back
    assert "levels" in text.split("Not run")[1]
    assert len(report.feedback(max_chars=300)) <= 300
    assert [c.name for c in report.failing] == ["generate", "mutation"]


@pytest.mark.parametrize(
    ("source", "mode", "relative"),
    [
        ("from synth.bootcamp import BaseBootcamp\n", "native", False),
        ("from bootcamp import Basebootcamp\n", "intern", False),
        ("from internbootcamp.bootcamp.base import Basebootcamp\n", "intern", False),
        ("from .base import Basebootcamp\n", "intern", True),
        ("def broken(:\n", "native", False),
    ],
)
def test_detect_mode(source, mode, relative):
    assert detect_mode(source) == (mode, relative)


def test_a_module_that_does_not_parse_never_passes_in_either_mode():
    for head in ("from synth.bootcamp import BaseBootcamp\n", "from bootcamp import Basebootcamp\n"):
        report = run_checks(head + "class X(:\n", backend=_BrokenBackend())
        assert not report.passed and not report.infrastructure_error
        assert report.get("load").status is CheckStatus.FAILED
        assert "does not parse" in report.get("load").reason
        assert all(c.status is CheckStatus.SKIPPED for c in report.checks[2:])


def test_malformed_result_lines_are_ignored_and_the_harness_death_between_checks_is_infra():
    stdout = "\n".join([
        passed("load"),
        NONCE + "{not json",
        line("result", "construct", status="unheard-of", reason="x", artifacts={}, elapsed_s=0),
        line("result", None, status="passed"),
    ])
    results = {r.name: r for r in _collect(run(stdout, Outcome.ERROR, stderr="harness bug"),
                                           NONCE)}
    assert results["load"].status is CheckStatus.PASSED
    assert results["construct"].status is CheckStatus.SANDBOX_ERROR
    assert results["generate"].status is CheckStatus.SKIPPED
