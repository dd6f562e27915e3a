"""CheckReport schema, and the host judging a scripted (hostile) method server (no sandbox)."""

from __future__ import annotations

import json

import pytest
from conftest import CORPUS
from pydantic import ValidationError

from synth.gate import (
    ARTIFACT_CAP,
    CHECK_NAMES,
    CheckConfig,
    CheckReport,
    CheckResult,
    CheckStatus,
    detect_mode,
    run_checks,
)
from synth.sandbox.base import Limits, Outcome, RunResult, SandboxJob, SessionError

SANDBOX_CHECKS = CHECK_NAMES[1:]


class ScriptedSession:
    """A Session whose "sandboxed bootcamp" is a Python function of each request: it stands
    for a hostile method server that writes whatever it likes into its reply pipe."""

    def __init__(self, answer) -> None:
        self.answer = answer
        self.out: list[bytes] = []
        self.closed = False
        self.code: int | None = None

    def send(self, data: bytes, timeout_s: float | None = None) -> None:
        if self.code is not None:
            raise SessionError("gone")
        rid, method, params = json.loads(data)
        reply = self.answer(rid, method, params, self)
        if reply is None:
            return
        self.out += [r if isinstance(r, bytes) else json.dumps(r).encode() for r in reply]

    def recv_line(self, timeout_s: float, max_bytes: int) -> bytes:
        if self.out:
            return self.out.pop(0)
        if self.code is not None:
            raise SessionError("the worker exited")
        raise TimeoutError("nothing")

    def stderr_tail(self) -> str:
        return "scripted stderr"

    def root_pid(self) -> int | None:
        return None

    def returncode(self) -> int | None:
        return self.code

    def close(self) -> None:
        self.closed = True


class ScriptedBackend:
    name = "scripted"

    def __init__(self, answer, hello=None) -> None:
        self.answer = answer
        self.hello = hello or {"id": 0, "ok": {"class": "X", "defines": [
            "case_generator", "prompt_func", "reference_answer", "_verify_correction"],
            "levels": {}, "tampered": []}}
        self.sessions: list[ScriptedSession] = []

    def probe(self) -> tuple[bool, str]:
        return True, "ok"

    def run(self, job: SandboxJob, limits: Limits) -> RunResult:
        return RunResult(outcome=Outcome.SANDBOX_ERROR, backend=self.name, detail="no runs here")

    def spawn(self, job: SandboxJob, limits: Limits) -> ScriptedSession:
        session = ScriptedSession(self.answer)
        session.out.append(json.dumps(self.hello).encode())
        self.sessions.append(session)
        return session

    def close(self) -> None:
        pass


def forger(rid, method, params, session):
    """Answers construct honestly, then floods its channel with 'verdicts' and a stray id."""
    if method == "construct":
        return [{"id": rid, "ok": 1}]
    forged = {"event": "result", "check": "mutation", "status": "passed", "reason": "trust me"}
    return [json.dumps(forged).encode(), {"id": rid + 7, "ok": {"score": 1.0}}]


def test_whatever_the_sandbox_writes_is_never_a_verdict():
    backend = ScriptedBackend(forger)
    report = run_checks((CORPUS / "clean_sort.py").read_text(), backend=backend,
                        config=CheckConfig(worker_timeout_s=1))
    assert not report.passed
    generate = report.get("generate")
    assert generate.status is CheckStatus.ERROR and generate.finding == "protocol"
    assert all(c.status is CheckStatus.SKIPPED for c in report.checks[4:-1])
    assert all(s.closed for s in backend.sessions)


def nan_scorer(rid, method, params, session):
    if method == "construct":
        return [{"id": rid, "ok": rid}]
    if method == "generate":
        return [{"id": rid, "ok": {"text": json.dumps({"n": rid}, sort_keys=True)}}]
    if method == "prompt":
        return [{"id": rid, "ok": f"Say {params['case_text']} as <answer>N</answer>."}]
    if method == "answer":
        return [{"id": rid, "ok": str(json.loads(params["case_text"])["n"])}]
    if method == "wrap":
        return [{"id": rid, "ok": f"<answer>{params['answer']}</answer>"}]
    if method == "score":
        return [{"id": rid, "ok": {"score": "nan"}}]
    return [{"id": rid, "err": {"kind": "usage", "message": "no"}}]


def test_a_score_that_is_not_a_finite_float_in_0_1_is_the_finding_invalid_score():
    report = run_checks((CORPUS / "clean_sort.py").read_text(), backend=ScriptedBackend(nan_scorer),
                        config=CheckConfig(worker_timeout_s=1))
    check = report.get("self_consistency")
    assert check.status is CheckStatus.FAILED and check.finding == "invalid_score"
    assert "nan" in check.reason and not report.passed


def test_a_session_that_dies_mid_check_blames_that_check_and_skips_the_rest():
    def dies(rid, method, params, session):
        if method == "generate":
            session.code = -9
            return None
        return nan_scorer(rid, method, params, session)

    report = run_checks((CORPUS / "clean_sort.py").read_text(), backend=ScriptedBackend(dies),
                        config=CheckConfig(worker_timeout_s=1))
    generate = report.get("generate")
    assert generate.status is CheckStatus.ERROR and "died" in generate.reason
    assert "scripted stderr" in generate.artifacts.get("traceback", "")
    later = [c for c in report.checks if c.name not in ("static", "load", "construct", "generate")]
    assert all(c.status is CheckStatus.SKIPPED for c in later)


def test_tampering_reported_by_the_server_fails_the_contract():
    def tampered(rid, method, params, session):
        if method == "score":
            return [{"id": rid, "ok": {"score": 1.0, "tampered": ["BaseBootcamp.verify_score was replaced"]}}]
        return nan_scorer(rid, method, params, session)

    report = run_checks((CORPUS / "clean_sort.py").read_text(), backend=ScriptedBackend(tampered),
                        config=CheckConfig(worker_timeout_s=1))
    assert report.get("self_consistency").finding == "contract_tampered"
    contract = report.get("contract")
    assert contract.status is CheckStatus.FAILED and contract.finding == "contract_tampered"
    assert "verify_score was replaced" in contract.reason


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


class _BrokenBackend:
    name = "broken"

    def probe(self) -> tuple[bool, str]:
        return True, "ok"

    def run(self, job: SandboxJob, limits: Limits) -> RunResult:
        return RunResult(outcome=Outcome.SANDBOX_ERROR, backend=self.name, detail="no uid left")

    def spawn(self, job: SandboxJob, limits: Limits):
        assert "candidate.py" in job.files and job.unit
        raise RuntimeError("no uid left")

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
