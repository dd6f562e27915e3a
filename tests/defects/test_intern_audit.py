"""Issue 12 acceptance: the gate on the InternBootcamp-style fixture corpus
(tests/defects/intern_corpus), run module by module on the process backend, as
``synth check FILE --sandbox process`` would.

The corpus has ``fine`` modules (correct, using the library's conventions), ``defective`` ones
(exactly one real defect each, described in MANIFEST.json) and ``cannot_judge`` ones (a missing
third-party dependency). The targets: at least 90 % of the defective rejected, at most 5 % of the
fine not accepted, and every cannot-judge module reported as such.

:func:`outcome` is the single place that turns a report into "accepted" / "rejected" /
"cannot_judge"; :data:`CANNOT_JUDGE_OUTCOMES` is what a cannot-judge module may get. The table's
reason column is the report's decisive finding (``CheckReport.decisive``).
"""

from __future__ import annotations

import ast
import json
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from synth.gate.report import CheckReport
from synth.gate.run import detect_mode, run_checks
from synth.sandbox import get_backend

CORPUS = Path(__file__).resolve().parent / "intern_corpus"
MANIFEST: dict[str, Any] = json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))
ENTRIES: list[dict[str, Any]] = MANIFEST["modules"]
KINDS = ("fine", "defective", "cannot_judge")
#: What each kind of module must get from the audit.
EXPECTED = {"fine": "accepted", "defective": "rejected", "cannot_judge": "cannot_judge"}
#: What a cannot-judge module may get.
CANNOT_JUDGE_OUTCOMES = frozenset({"cannot_judge"})
DEFECTIVE_REJECTED_MIN = 0.90
FINE_NOT_ACCEPTED_MAX = 0.05
#: The import paths of Basebootcamp the audit shim provides (synth/sandbox/methods.py).
BASE_IMPORTS = frozenset({"bootcamp", "internbootcamp.bootcamp", "internbootcamp.bootcamp.base"})
WORKERS = 2

pytestmark = pytest.mark.timeout(900)


def outcome(report: CheckReport) -> str:
    """The audit's verdict on one module: "cannot_judge", "accepted" or "rejected"."""
    if report.cannot_judge:
        return "cannot_judge"
    return "accepted" if report.passed else "rejected"


@dataclass
class Verdict:
    entry: dict[str, Any]
    report: CheckReport
    seconds: float

    @property
    def outcome(self) -> str:
        return outcome(self.report)

    @property
    def wrong(self) -> bool:
        if self.entry["kind"] == "cannot_judge":
            return self.outcome not in CANNOT_JUDGE_OUTCOMES
        return self.outcome != EXPECTED[self.entry["kind"]]

    @property
    def reason(self) -> str:
        """The decisive finding (the first reject one) and its reason."""
        decisive = self.report.decisive
        if decisive is None:
            return "-"
        name = decisive.name + (f"/{decisive.finding}" if decisive.finding else "")
        return f"{name}: {decisive.reason}"

    @property
    def failing(self) -> str:
        return ",".join(c.name for c in self.report.failing) or "-"


def table(verdicts: list[Verdict], only_wrong: bool = False) -> str:
    rows = [v for v in verdicts if v.wrong or not only_wrong]
    lines = [f"{'module':24} {'kind':12} {'class':20} {'outcome':12} {'s':>5}  failing / reason"]
    for v in sorted(rows, key=lambda v: (v.entry["kind"], not v.wrong, v.entry["file"])):
        mark = "!" if v.wrong else " "
        lines.append(f"{mark}{v.entry['file'][:-3]:23} {v.entry['kind']:12} "
                     f"{v.entry['class'] or '-':20} {v.outcome:12} {v.seconds:5.1f}  "
                     f"[{v.failing}] {v.reason[:150]}")
    return "\n".join(lines)


def rates(verdicts: list[Verdict]) -> dict[str, float]:
    defective = [v for v in verdicts if v.entry["kind"] == "defective"]
    fine = [v for v in verdicts if v.entry["kind"] == "fine"]
    return {
        "defective_rejected": sum(v.outcome == "rejected" for v in defective) / len(defective),
        "fine_not_accepted": sum(v.outcome != "accepted" for v in fine) / len(fine),
    }


@pytest.fixture(scope="module")
def verdicts() -> list[Verdict]:
    backend = get_backend("process")

    def one(entry: dict[str, Any]) -> Verdict:
        source = (CORPUS / entry["file"]).read_text(encoding="utf-8")
        t0 = time.perf_counter()
        report = run_checks(source, backend=backend, name=entry["file"])
        return Verdict(entry, report, time.perf_counter() - t0)

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        done = list(pool.map(one, ENTRIES))
    print(f"\nintern corpus: {len(done)} modules in {time.perf_counter() - t0:.1f}s "
          f"on the process backend ({WORKERS} workers); rates {rates(done)}")
    return done


def test_manifest_lists_every_module_and_every_module_parses():
    """The corpus is what the manifest says: no sandbox needed."""
    files = [e["file"] for e in ENTRIES]
    assert len(files) == len(set(files))
    on_disk = {p.name for p in CORPUS.glob("*.py") if not p.name.startswith("_")}
    assert on_disk == set(files), sorted(on_disk ^ set(files))
    kinds = Counter(e["kind"] for e in ENTRIES)
    assert set(kinds) == set(KINDS), kinds
    assert kinds["fine"] >= 24 and kinds["defective"] >= 24 and kinds["cannot_judge"] >= 2, kinds
    classes = Counter(e["class"] for e in ENTRIES if e["kind"] == "defective")
    assert sum(n >= 3 for n in classes.values()) >= 10, classes
    for e in ENTRIES:
        assert set(e) == {"file", "kind", "defect", "class", "conventions"}, e
        assert (e["defect"] is None) == (e["kind"] == "fine"), e
        assert (e["class"] is None) == (e["kind"] == "fine"), e
        source = (CORPUS / e["file"]).read_text(encoding="utf-8")
        tree = ast.parse(source, filename=e["file"])
        assert detect_mode(source)[0] == "intern", e["file"]
        bases = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                 and any(a.name == "Basebootcamp" for a in n.names)]
        assert len(bases) == 1 and ((bases[0].level == 1 and bases[0].module == "base")
                                    or bases[0].module in BASE_IMPORTS), e["file"]
        classes_defined = [n.name for n in tree.body if isinstance(n, ast.ClassDef)]
        assert len(classes_defined) == 1 and classes_defined[0].endswith("bootcamp"), e["file"]


def test_every_module_gets_a_report_without_an_infrastructure_error(verdicts):
    broken = {v.entry["file"]: v.reason for v in verdicts if v.report.infrastructure_error}
    assert len(verdicts) == len(ENTRIES)
    assert not broken, f"{broken}\n{table(verdicts)}"


def test_cannot_judge_modules_are_not_accepted(verdicts):
    wrong = [v for v in verdicts if v.entry["kind"] == "cannot_judge"
             and v.outcome not in CANNOT_JUDGE_OUTCOMES]
    assert not wrong, table(wrong)


def test_audit_rejects_90_percent_of_defective_and_at_most_5_percent_of_fine(verdicts):
    measured = rates(verdicts)
    print(table(verdicts))
    summary = (f"defective rejected {measured['defective_rejected']:.0%} "
               f"(need >= {DEFECTIVE_REJECTED_MIN:.0%}), fine not accepted "
               f"{measured['fine_not_accepted']:.0%} (need <= {FINE_NOT_ACCEPTED_MAX:.0%})")
    wrong = table(verdicts, only_wrong=True)
    assert measured["defective_rejected"] >= DEFECTIVE_REJECTED_MIN, f"{summary}\n{wrong}"
    assert measured["fine_not_accepted"] <= FINE_NOT_ACCEPTED_MAX, f"{summary}\n{wrong}"
    cannot = [v for v in verdicts if v.entry["kind"] == "cannot_judge"
              and v.outcome != "cannot_judge"]
    assert not cannot, f"{summary}\n{table(cannot)}"
