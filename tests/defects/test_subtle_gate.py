"""The differential gate on the issue-10 corpus (tests/defects/subtle): with each module's own
independent checker, at least 95 % of the subtle defects are rejected and no clean bootcamp is;
without checkers the gate must still reject no clean bootcamp (its detection rate without
checkers is reported by bench/differential.py and docs/gate.md, not asserted here).

With checkers the corpus is gated once for both tests that read it (corpus_gate.py): a clean
module in full, a defective one up to its first rejecting check, and in full when a lenient,
strict or wrong-reference module's report does not show one of its kind's reasons (RIGHT)."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_gate import gate_corpus
from helpers import once_per_run

from synth.gate.corpus import CorpusResult, run_corpus
from synth.sandbox import get_backend

CORPUS = Path(__file__).resolve().parent / "subtle"
pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def process_backend():
    return get_backend("process")


#: the checks (name/finding) that must catch a lenient or strict verifier, or a wrong reference
RIGHT = {"lenient": {"differential/verifier_too_lenient", "mutation"},
         "strict": {"differential/verifier_too_strict"},
         "wrong_reference": {"differential/reference_disagrees", "oracle"}}


def _right_reason(r: CorpusResult) -> bool:
    """``r`` fails a check RIGHT names for its kind (always true of the other kinds). A verifier
    that reads the answer with its own extract_output is refused as such, by the static check
    (the contract's extraction is the only one: issue 22)."""
    if r.kind not in RIGHT:
        return True
    own = {"static"} if "def extract_output" in (CORPUS / f"{r.module}.py").read_text() else set()
    return bool(set(r.failing) & (RIGHT[r.kind] | own))


@pytest.fixture(scope="module")
def with_checkers(process_backend, tmp_path_factory):
    return once_per_run(tmp_path_factory, "subtle-with-checkers", lambda: gate_corpus(
        CORPUS, process_backend, checkers=True, shows_reason=_right_reason))


def test_with_checkers_95_percent_of_defects_rejected_and_no_clean_one(with_checkers):
    defective = [r for r in with_checkers if r.kind != "clean"]
    clean = [r for r in with_checkers if r.kind == "clean"]
    assert len(defective) >= 30 and len(clean) >= 12
    assert all(r.with_checker for r in with_checkers)
    missed = [r.module for r in defective if not r.rejected]
    assert len(missed) <= 0.05 * len(defective), missed
    false_rejects = {r.module: r.failing for r in clean if r.rejected}
    assert not false_rejects, false_rejects
    assert not any(r.report.infrastructure_error for r in with_checkers)


def test_lenient_and_strict_defects_are_rejected_for_the_right_reason(with_checkers):
    """A lenient or strict verifier (or a wrong reference) must be caught by the differential
    check or by a probe check (mutation / oracle), not only by an unrelated one (a report
    that does not show it with fail_fast is the full one: corpus_gate.py)."""
    wrong_reason = {r.module: r.failing for r in with_checkers if not _right_reason(r)}
    assert not wrong_reason, wrong_reason


def test_without_checkers_no_clean_bootcamp_is_rejected(process_backend):
    results = run_corpus(CORPUS, process_backend, checkers=False, kinds={"clean"})
    assert len(results) >= 10
    false_rejects = {r.module: r.failing for r in results if r.kind == "clean" and r.rejected}
    assert not false_rejects, false_rejects
