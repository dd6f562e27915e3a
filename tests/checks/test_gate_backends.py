"""The gate gives the same verdicts on the stronger backends (bwrap, docker) as on process."""

from __future__ import annotations

import pytest
from conftest import CORPUS, check_corpus_file

from synth.gate import CheckConfig, CheckStatus, run_checks
from synth.sandbox import SandboxUnavailableError, get_backend
from synth.sandbox.base import Backend, Limits

BACKENDS = [pytest.param("bwrap"), pytest.param("docker", marks=pytest.mark.docker)]


@pytest.fixture(params=BACKENDS)
def backend(request) -> Backend:
    try:
        return get_backend(request.param)
    except SandboxUnavailableError as exc:
        pytest.skip(f"SKIPPED LOUDLY: the {request.param} backend cannot run here: {exc}")


def test_clean_bootcamp_with_oracle_passes(backend):
    report = check_corpus_file("clean_sum_oracle.py", backend)
    assert report.passed, report.feedback()
    assert report.backend == backend.name
    assert report.get("oracle").status is CheckStatus.PASSED


@pytest.mark.parametrize(
    ("name", "check", "status"),
    [
        ("unseeded_hash.py", "determinism", CheckStatus.FAILED),
        ("run_memory_bomb.py", "generate", CheckStatus.OOM),
        ("lenient_verifier.py", "mutation", CheckStatus.FAILED),
    ],
)
def test_defects_get_the_same_verdict(backend, name, check, status):
    report = check_corpus_file(name, backend)
    assert report.get(check).status is status
    assert not report.infrastructure_error


def test_a_run_killed_by_the_wall_clock_keeps_earlier_results(backend):
    report = run_checks((CORPUS / "run_hang_swallows_timeout.py").read_text(), backend=backend,
                        config=CheckConfig(limits=Limits(wall_s=4, cpu_s=10)))
    assert report.get("prompt").status is CheckStatus.PASSED
    assert report.get("self_consistency").status is CheckStatus.TIMEOUT
    assert report.get("garbage").status is CheckStatus.SKIPPED
