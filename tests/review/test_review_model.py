"""synth.reporting.review: what is gathered about a bootcamp, and decisions through the library API."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from conftest import HOSTILE, ReviewRun

from synth.library import Library, LibraryError
from synth.reporting.review import ReviewError, accept, gather, list_records, reject, round_diffs


def _numbers(prompt: str) -> list[int]:
    m = re.search(r"Add these numbers: ([\d ]+)\.", prompt)
    assert m, prompt
    return [int(x) for x in m.group(1).split()]


def test_gather_revised_bootcamp(review_run: ReviewRun, library: Path):
    r = gather(Library(library), "local_revise_b", review_run.runs_dir, backend="process", per_level=2)
    assert r.code_matches and not r.samples_error and r.notes == []
    # the bootcamp's own LEVELS order (the record lists them sorted)
    assert r.levels == ["easy", "medium", "hard"]
    by_level = r.samples_by_level()
    assert {lvl: len(v) for lvl, v in by_level.items()} == {"easy": 2, "medium": 2, "hard": 2}
    sizes = {"easy": 3, "medium": 5, "hard": 8}
    for level, cases in by_level.items():
        for case in cases:
            nums = _numbers(case.prompt)
            assert len(nums) == sizes[level]
            assert case.answer == str(sum(nums))  # the reference answer, computed in the sandbox
            assert json.loads(case.identity) == {"numbers": nums}
    # the filter's record: every scored response with its verdict
    f = r.filter
    assert f is not None and f.verdict == "accepted"
    filt = json.loads((review_run.run_dir / "filter" / "local_revise-b.json").read_text())
    assert [s.response for s in f.samples] == [s["response"] for s in filt["samples"]]
    assert sum(1 for s in f.samples if s.score is not None) == f.answered == r.record.samples
    easy = [s for s in f.samples if s.level == "easy" and s.score is not None]
    assert easy and all(s.score == 1.0 for s in easy)
    # winner, gate report and repair history
    assert r.winner is not None and r.winner.label == "round_1_0"
    assert r.gate is not None and r.gate.passed
    assert [c.label for c in r.candidates] == ["round_0_0", "round_0_1", "round_1_0"]
    assert [c.passed for c in r.candidates] == [False, False, True]
    assert r.candidates[0].failing == ["static"]
    (d,) = r.diffs
    assert (d.round, d.parent, d.child) == (1, "round_0_0", "round_1_0")
    assert "-import os\n" in d.diff and d.removed == 2 and d.added == 1
    assert r.calibration() == [("easy", 1.0, f.level_counts["easy"]),
                               ("medium", 0.0, f.level_counts["medium"]),
                               ("hard", 0.0, f.level_counts["hard"])]
    # a calibration replaces the rates and their answers: shown together, never the run's
    # filter counts beside the calibration's rates
    r.record = r.record.model_copy(update={"level_pass_rates": {"easy": 0.5, "medium": 0.2,
                                                                "hard": 0.0},
                                           "level_samples": {"easy": 6, "medium": 5, "hard": 5}})
    assert r.calibration() == [("easy", 0.5, 6), ("medium", 0.2, 5), ("hard", 0.0, 5)]
    assert r.band == (0.03, 0.85)


def test_gather_first_round_bootcamp_has_no_diffs(review_run: ReviewRun, library: Path):
    r = gather(Library(library), "local_accept_a", review_run.runs_dir, samples=False)
    assert r.samples == [] and r.winner is not None and r.winner.label == "round_0_0"
    assert r.diffs == [] and len(r.candidates) == 2


def test_gather_without_run_folder_says_so(library: Path, tmp_path: Path):
    r = gather(Library(library), "local_accept_a", tmp_path / "nowhere", samples=False)
    assert r.filter is None and r.winner is None
    assert any("not found" in n and "--runs-dir" in n for n in r.notes)
    hand = gather(Library(library), HOSTILE, None, backend="process", per_level=1)
    assert hand.filter is None and any("without a run" in n for n in hand.notes)
    assert [s.level for s in hand.samples] == ["easy", "hard"]
    assert hand.samples[0].prompt.startswith("<script>")


def test_gather_never_imports_the_bootcamp(review_run: ReviewRun, library: Path):
    lib = Library(library)
    paths = {str((library / r.module_path).resolve()) for r in lib.records(None)}
    for name in (HOSTILE, "local_revise_b"):
        gather(lib, name, review_run.runs_dir, backend="process", per_level=1)
    loaded = {str(Path(f).resolve()) for m in list(sys.modules.values())
              if (f := getattr(m, "__file__", None))}
    assert not paths & loaded


def test_gather_reports_a_module_edited_after_commit(library: Path):
    path = library / "local" / "local_accept_a.py"
    path.write_text(path.read_text() + "\n# edited\n")
    lib = Library(library)
    r = gather(lib, "local_accept_a", None, samples=False)
    assert not r.code_matches and any("sha256" in n for n in r.notes)
    with pytest.raises(ReviewError, match="sha256"):
        accept(lib, "local_accept_a")
    assert lib.record("local_accept_a").status == "pending-review"


def test_decisions_go_through_the_library(library: Path):
    lib = Library(library)
    assert [r.name for r in list_records(lib)] == ["local_accept_a", "local_accept_x", "local_revise_b",
                                                   HOSTILE]
    with pytest.raises(ReviewError, match="reason"):
        reject(lib, "local_accept_a", "   ")
    rec = reject(lib, "local_accept_a", "verifier  accepts\nwrong sums")
    assert rec.status == "rejected-in-review" and rec.review_reason == "verifier accepts wrong sums"
    accept(lib, "local_revise_b")
    fresh = Library(library)  # a new reader sees the decisions
    assert fresh.list_bootcamps() == ["local_revise_b"]
    assert (library / "local" / "local_accept_a.py").exists()  # stays on disk
    with pytest.raises(LibraryError, match="not loadable"):
        fresh.load_bootcamp("local_accept_a")
    with pytest.raises(ReviewError, match="already accepted"):
        accept(fresh, "local_revise_b")
    with pytest.raises(LibraryError):
        reject(fresh, "no_such_bootcamp", "x")
    with pytest.raises(ReviewError, match="unknown status"):
        list_records(fresh, "pending")
    assert [r.name for r in list_records(fresh, "rejected-in-review")] == ["local_accept_a"]


def test_round_diffs_follow_the_best_candidate(review_run: ReviewRun):
    from synth.reporting.review import load_candidates

    cands = load_candidates(review_run.run_dir / "candidates" / "local_revise-b")
    # drop the passing revision: no round 1 left, nothing to diff
    assert round_diffs([c for c in cands if c.round == 0]) == []
    # a revision without code is reported, not diffed
    cands[-1].code, cands[-1].failure = None, "no_code: the model wrote prose"
    (d,) = round_diffs(cands)
    assert d.diff == "" and "no_code" in d.note


def test_draw_samples_uses_the_method_server_and_the_filter_specs():
    from helpers import TOY_SUM

    from filters.self_consistency import sample_specs
    from synth.reporting.review import draw_samples

    samples, why = draw_samples(TOY_SUM, 2, "process", seed=4)
    assert why == ""
    assert [(s.level, s.seed) for s in samples] == sample_specs(["easy", "hard"], 4, 4)
    for s in samples:
        nums = _numbers(s.prompt)
        assert s.answer == str(sum(nums)) and json.loads(s.identity) == {"numbers": nums}
        assert len(nums) == {"easy": 3, "hard": 8}[s.level]


def test_draw_samples_reports_a_failing_bootcamp():
    from helpers import TOY_SUM

    from synth.reporting.review import draw_samples

    broken = TOY_SUM.replace("        return str(sum(identity[\"numbers\"]))",
                             "        raise ArithmeticError('no answer today')")
    samples, why = draw_samples(broken, 1, "process")
    assert samples == [] and "level easy" in why and "ArithmeticError: no answer today" in why
    samples, why = draw_samples("x = 1\n", 1, "process")
    assert samples == [] and "did not load" in why


def test_a_committed_repaired_candidate_is_accounted_for(review_run: ReviewRun, library: Path,
                                                        tmp_path: Path):
    """The library commits a candidate after the workflow's static repairs (the run folder keeps
    the model's module as round_<k>_<i>.py and the repaired one beside it): review finds it and
    says so, instead of warning that no candidate has the committed code's sha256."""
    import shutil

    runs = tmp_path / "runs"
    shutil.copytree(review_run.runs_dir, runs)
    lib = Library(library)
    committed = lib.code("local_accept_a")
    (folder,) = [p for p in runs.glob("*/candidates/local_accept-a")]
    for path in folder.glob("round_*.py"):  # the modules as the model wrote them
        if path.read_text(encoding="utf-8") == committed:
            path.write_text("import os\n" + committed, encoding="utf-8")
    r = gather(lib, "local_accept_a", runs, samples=False)
    assert r.winner is None
    assert any("no candidate of run" in n for n in r.notes)  # unaccounted: the warning holds
    (folder / "round_0_0.repaired.py").write_text(committed, encoding="utf-8")
    r = gather(lib, "local_accept_a", runs, samples=False)
    assert r.winner is not None and r.winner.label == "round_0_0"
    assert not any("no candidate of run" in n for n in r.notes), r.notes
    assert any("after the workflow's static repairs" in n for n in r.notes), r.notes
