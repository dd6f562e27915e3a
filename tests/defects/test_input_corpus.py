"""The input-validity corpus (tests/defects/inputs, issue 21): compiled bootcamps in the
CodeContests layout, correct ones and ones with one realistic mistake in what the code model
writes (inputs outside the bounds, broken guarantees, a stdin format the program still reads, a
lenient check_output, a prompt that shows another input, no answer where one is promised).

With no validator and no model, the gate must reject at least 90 % of the defective modules
and no correct one, each defect for its kind's reason; each defect is shown independently of
the gate (a hand-made witness per kind, run on the module's own cases in a child process).

The main corpus is gated once for both gate tests (corpus_gate.py): a correct module in full,
a defective one up to its first rejecting check, and in full when its report does not show
its kind's reason or (an input kind) the inputs check's evidence."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_gate import gate_corpus
from helpers import once_per_run

from synth.gate.corpus import CorpusResult, run_corpus
from synth.gate.report import CHECK_NAMES, CheckConfig
from synth.sandbox import get_backend

HERE = Path(__file__).resolve().parent / "inputs"
CORPUS = HERE / "corpus"
MANIFEST = json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))["modules"]
KINDS = {"bounds", "guarantee", "format", "check_output", "prompt", "no_solution"}
pytestmark = pytest.mark.timeout(900)


def test_the_corpus_is_built_from_its_sources_and_has_every_class():
    sys.path.insert(0, str(HERE))
    try:
        import build  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(HERE))
    for name, (module, reference, _) in build.modules().items():
        assert (CORPUS / f"{name}.py").read_text(encoding="utf-8") == module, \
            f"{name}: run tests/defects/inputs/build.py"
        assert (CORPUS / f"{name}.reference.py").read_text(encoding="utf-8") == reference
    kinds = [m["kind"] for m in MANIFEST]
    assert kinds.count("clean") >= 11 and len(kinds) - kinds.count("clean") >= 30
    for kind in KINDS - {"no_solution"}:  # the classes: at least 3 each
        assert kinds.count(kind) >= 3, kind
    assert kinds.count("no_solution") >= 2


def test_every_defect_has_a_witness_and_no_clean_module_has_one():
    """witness.py (a child process: bootcamps are imported only there) shows each defect on the
    module's own generated cases with a hand-written rule per task, not with the gate."""
    out = subprocess.run([sys.executable, str(HERE / "witness.py"), str(CORPUS)],
                         capture_output=True, text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    found = json.loads(out.stdout)
    for m in MANIFEST:
        shown = found[m["module"]]
        if m["kind"] == "clean":
            assert shown is None, (m["module"], shown)
        else:
            assert shown is not None, m["module"]


#: the reasons (a failing check's finding, or its name) a defect of each kind is rejected for
WANT = {"bounds": {"input_violates_statement"}, "guarantee": {"input_violates_statement"},
        "format": {"input_violates_statement", "oracle"},
        "check_output": {"check_output_lenient"}, "prompt": {"prompt_hides_input", "prompt"},
        "no_solution": {"no_solution_where_guaranteed", "self_consistency"}}


#: the kinds whose inputs the statement forbids: their inputs check's evidence is read
INPUT_KINDS = {"bounds", "guarantee", "format"}


def _reasons(r: CorpusResult) -> set[str]:
    return {c.finding or c.name for c in r.report.failing} | {c.name for c in r.report.failing}


def _shows_reason(r: CorpusResult) -> bool:
    """``r`` fails a check for its kind's reason, and a module of an input kind got as far as
    the inputs check (a format module rejected by the oracle first: its inputs evidence too)."""
    first = r.report.decisive  # with fail_fast, the checks after it did not run
    reached = first is None or CHECK_NAMES.index(first.name) >= CHECK_NAMES.index("inputs")
    return bool(_reasons(r) & WANT[r.kind]) and (r.kind not in INPUT_KINDS or reached)


@pytest.fixture(scope="module")
def gate_results(tmp_path_factory):
    return once_per_run(tmp_path_factory, "input-corpus", lambda: gate_corpus(
        CORPUS, get_backend("process"), checkers=False, shows_reason=_shows_reason))


#: corpora written independently (a helper's own tasks and phrasing): each folder has its own
#: MANIFEST.json and check_witnesses.py; the gate must meet the same bar on them
OTHERS = sorted(p for p in HERE.glob("set_*") if (p / "MANIFEST.json").is_file()
                and (p / "check_witnesses.py").is_file())


@pytest.mark.parametrize("folder", OTHERS, ids=[p.name for p in OTHERS])
def test_independent_corpora_witnesses_and_gate(folder):
    out = subprocess.run([sys.executable, str(folder / "check_witnesses.py")], capture_output=True,
                         text=True, timeout=600, check=False, cwd=str(HERE.parents[2]))
    assert out.returncode == 0, (out.stdout[-2000:], out.stderr[-2000:])
    # caught or not is what counts here (the main corpus's tests check the reasons): a defective
    # module's gate stops at its first blocking failure; a clean one runs every check
    results = run_corpus(folder, get_backend("process"), checkers=False, workers=2,
                         config=CheckConfig(fail_fast=True))
    defective = [r for r in results if r.kind != "clean"]
    missed = [r.module for r in defective if not r.rejected]
    assert len(defective) >= 10 and len(missed) <= 0.1 * len(defective), missed
    assert not {r.module: r.failing for r in results if r.kind == "clean" and r.rejected}


def test_the_gate_rejects_90_percent_of_the_defects_and_no_correct_module(gate_results):
    defective = [r for r in gate_results if r.kind != "clean"]
    clean = [r for r in gate_results if r.kind == "clean"]
    missed = [r.module for r in defective if not r.rejected]
    assert len(missed) <= 0.1 * len(defective), missed
    assert not {r.module: r.failing for r in clean if r.rejected}
    assert not any(r.report.infrastructure_error for r in gate_results)


def test_defects_are_rejected_for_their_reason_with_the_rule_and_the_case(gate_results):
    """Every rejected defect's report fails a check for its kind's reason (WANT), and an inputs
    check that found an input the statement forbids shows the input, the statement and the
    rule. A report that shows neither the reason nor (an input kind) the inputs check with
    fail_fast is the full one (corpus_gate.py); a module of another kind rejected before the
    inputs check is not asked about its inputs."""
    wrong = {}
    for r in gate_results:
        if r.kind == "clean" or not r.rejected:
            continue
        if not _reasons(r) & WANT[r.kind]:
            wrong[r.module] = r.failing
        inputs = next(c for c in r.report.checks if c.name == "inputs")
        if inputs.finding == "input_violates_statement":
            assert inputs.artifacts["stdin"] and inputs.artifacts["statement"] and inputs.artifacts["rule"]
    assert not wrong, wrong
