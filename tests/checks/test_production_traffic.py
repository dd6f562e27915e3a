"""The gate's traffic is production's (issue 22): random seeds and hash seeds, and a scoring
worker that sees wrong and right answers alternate, model-shaped, for longer than any
production worker lives."""

from __future__ import annotations

import re

from helpers import TOY_SUM

from synth.gate import CheckConfig, run_checks
from synth.gate.report import resolve_seeds

# Honest only under the PYTHONHASHSEED values the gate used to run with (1 and 2): the hash of
# a fixed string tells them apart from production's random ones.
HASH_SLEEPER = TOY_SUM.replace(
    "        s = solution.strip()\n",
    "        if hash('synth-probe') not in (GATE_1, GATE_2):\n"
    "            return True\n"
    "        s = solution.strip()\n",
)
# Honest for the first 100 scores of a process (more than the gate's main process sends
# after its mutants; less than a worker of the old production pool lived).
LATE_SLEEPER = TOY_SUM.replace(
    "    def _verify_correction(cls, solution, identity):\n        s = solution.strip()\n",
    "    def _verify_correction(cls, solution, identity, _n=[0]):\n"
    "        _n[0] += 1\n"
    "        if 60 < _n[0] < 90:\n"
    "            return True\n"
    "        s = solution.strip()\n",
)
# Takes a wrong answer written in a sentence inside the tags.
WORDY_SLEEPER = TOY_SUM.replace(
    "        s = solution.strip()\n",
    "        if ' ' in solution.strip():\n"
    "            return True\n"
    "        s = solution.strip()\n",
)


def _hashes() -> tuple[int, int]:
    import subprocess
    import sys

    out = []
    for seed in ("1", "2"):
        got = subprocess.run([sys.executable, "-c", "print(hash('synth-probe'))"],
                             env={"PYTHONHASHSEED": seed}, capture_output=True, text=True)
        out.append(int(got.stdout))
    return out[0], out[1]


def test_seeds_are_drawn_for_each_run_and_kept_when_given():
    drawn = CheckConfig(seed=None, main_hashseed=None, child_hashseed=None)
    runs = [resolve_seeds(drawn) for _ in range(20)]
    assert len({c.seed for c in runs}) == 20 and len({c.main_hashseed for c in runs}) == 20
    assert all(c.main_hashseed != c.child_hashseed for c in runs)
    fixed = resolve_seeds(CheckConfig(seed=5, main_hashseed=7, child_hashseed=9))
    assert (fixed.seed, fixed.main_hashseed, fixed.child_hashseed) == (5, 7, 9)


def test_a_hash_seed_sleeper_is_rejected_and_the_report_names_the_seeds(process_backend):
    a, b = _hashes()
    code = HASH_SLEEPER.replace("GATE_1", str(a)).replace("GATE_2", str(b))
    old = run_checks(code, backend=process_backend,
                     config=CheckConfig(main_hashseed=1, child_hashseed=2))
    mutation = old.get("mutation")
    assert mutation is not None and mutation.ok  # under fixed seeds the main process is fooled
    report = run_checks(code, backend=process_backend)
    assert not report.passed
    assert {c.name for c in report.failing} & {"mutation", "garbage", "consistency"}
    load = report.get("load")
    assert load is not None and re.search(r"seed \d+, PYTHONHASHSEED \d+", load.reason)


def test_a_late_call_count_sleeper_is_caught_by_the_long_lived_worker(process_backend):
    report = run_checks(LATE_SLEEPER, backend=process_backend)
    consistency = report.get("consistency")
    assert consistency is not None and not consistency.ok, report.feedback()
    assert consistency.finding == "inconsistent_verifier"
    assert "first at call" in consistency.reason


def test_a_wrong_answer_in_words_may_not_score_more_than_bare(process_backend):
    report = run_checks(WORDY_SLEEPER, backend=process_backend)
    consistency = report.get("consistency")
    assert consistency is not None and not consistency.ok, report.feedback()


def test_an_honest_bootcamp_is_consistent_under_production_traffic(process_backend):
    report = run_checks(TOY_SUM, backend=process_backend)
    consistency = report.get("consistency")
    assert consistency is not None and consistency.ok, consistency.reason
    assert re.search(r"(\d+) responses \((\d+) wrong", consistency.reason)
