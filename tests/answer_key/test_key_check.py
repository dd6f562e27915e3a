"""The gate's key check (synth.gate.key) on trojan answer keys: a "verified" reference program
right only on the task file's own tests, embedded in a compiled bootcamp.

Adversarial first: every trojan of tests/answer_key/key_tasks.py passes its file's tests; with
another solution of the task it is caught on generated inputs, with the evidence (the stdin,
both outputs, which solution); where the data has only one solution, a judge-written solver
catches it; a second "solution" that is the trojan renamed does not count. Clean tasks with
several honest solutions -- one with several right answers -- pass, and the report says how
the key was verified. Runs on the process backend (the check's logic; the sandbox boundary is
the sandbox suite's).
"""

from __future__ import annotations

import json
import re
import time
from functools import cache

import pytest
from key_tasks import (
    STRETCH_HONEST,
    STRETCH_LAST_RUN,
    TOWER_HONEST,
    WEIGHTS_HONEST,
    WEIGHTS_MEMO,
    WEIGHTS_MEMO_RENAMED,
    WEIGHTS_RARE,
    WEIGHTS_WRAP,
    examples,
    module,
)

from synth.gate import CheckConfig, CheckReport, CheckResult, CheckStatus, Voter, run_checks
from synth.gate.key import CHUNK


def solutions(*codes: str, first: int = 2) -> tuple[Voter, ...]:
    return tuple(Voter(c, f"solution {n} of the task") for n, c in enumerate(codes, first))


@cache
def gate(name: str, key: str, voters: tuple[Voter, ...] = (), reference: str | None = None
         ) -> CheckReport:
    return run_checks(module(name, key), backend="process", voters=voters, reference=reference,
                      example_inputs=examples(name), name=f"{name}")


def disagreements(key: CheckResult) -> int:
    """How many of the 100 generated inputs the first dissenting voter disagrees on."""
    found = re.search(r"disagree on (\d+) of 100 generated inputs", key.reason)
    assert found is not None, key.reason
    return int(found.group(1))


def key_of(report: CheckReport) -> CheckResult:
    check = report.get("key")
    assert check is not None
    return check


def assert_caught(report: CheckReport, voter: str) -> CheckResult:
    """Rejected by the key check, with the evidence of one disagreement."""
    key = key_of(report)
    assert key.status is CheckStatus.FAILED and key.hard and key.finding == "key_disagrees", key
    assert report.verdict == "rejected" and report.decisive is not None
    assert report.decisive.name == "key"
    assert not report.key_verified and (report.key_verified_by or "").startswith("disputed: ")
    arts = key.artifacts
    assert arts["voter"] == voter
    assert arts["stdin"].strip() and arts["key_output"].split() != arts["voter_output"].split()
    assert json.loads(arts["disagreements"])[0]["voter"] == voter
    # every other check passes: the trojan is invisible to them
    assert [c.name for c in report.failing] == ["key"]
    return key


# -- trojans, several solutions -----------------------------------------------------------------


def test_a_key_that_knows_only_the_files_outputs_is_outvoted_by_two_solutions():
    report = gate("weights", WEIGHTS_MEMO, solutions(*WEIGHTS_HONEST[:2]))
    key = assert_caught(report, "solution 2 of the task")
    assert "The majority disagrees with the key" in key.reason and "(2 to 1)" in key.reason
    majority = json.loads(key.artifacts["majority"])
    assert majority == [v.sha256 for v in solutions(*WEIGHTS_HONEST[:2])]
    # the voters' outputs are the sum; the key's is the sum without the first weight
    stdin = key.artifacts["stdin"].split()
    weights = [int(x) for x in stdin[1:]]
    assert int(key.artifacts["voter_output"]) == sum(weights)
    assert int(key.artifacts["key_output"]) == sum(weights[1:])


def test_a_32_bit_accumulator_is_caught_where_only_the_hard_level_reaches():
    report = gate("weights", WEIGHTS_WRAP, solutions(WEIGHTS_HONEST[0]))
    key = assert_caught(report, "solution 2 of the task")
    assert "level 'hard'" in key.reason  # easy and medium totals fit in 31 bits: they agree
    assert all(row["where"].startswith("level 'hard'")
               for row in json.loads(key.artifacts["disagreements"]))
    assert "majority" not in key.artifacts  # one against one: nobody's key
    assert int(key.artifacts["voter_output"]) > 2**31


def test_a_key_wrong_on_a_rare_branch_is_caught():
    report = gate("weights", WEIGHTS_RARE, solutions(WEIGHTS_HONEST[0], WEIGHTS_HONEST[2]))
    key = assert_caught(report, "solution 2 of the task")
    assert int(key.artifacts["voter_output"]) % 13 == 0
    assert int(key.artifacts["key_output"]) * 13 == int(key.artifacts["voter_output"])
    assert 1 <= disagreements(key) <= 25  # rare: about 1 total in 13


def test_a_key_that_forgets_the_last_block_is_caught():
    report = gate("stretch", STRETCH_LAST_RUN, solutions(*STRETCH_HONEST))
    key = assert_caught(report, "solution 2 of the task")
    readings = key.artifacts["stdin"].split()[1:]
    longest = int(key.artifacts["voter_output"])
    assert longest > int(key.artifacts["key_output"])
    assert len(set(readings[-longest:])) == 1  # the longest block is the final one


def test_an_honest_key_outvotes_a_wrong_extra_solution():
    report = gate("weights", WEIGHTS_HONEST[0], solutions(WEIGHTS_HONEST[1], WEIGHTS_RARE))
    key = assert_caught(report, "solution 3 of the task")
    assert "The majority agrees with the key (2 to at most 1)" in key.reason
    assert "solution 3 of the task outvoted" in key.reason
    majority = json.loads(key.artifacts["majority"])
    assert len(majority) == 2 and majority[1] == solutions(WEIGHTS_HONEST[1])[0].sha256


# -- a renamed copy is no second solution -------------------------------------------------------


def test_the_same_trojan_renamed_is_not_a_second_vote():
    report = gate("weights", WEIGHTS_MEMO, solutions(WEIGHTS_MEMO_RENAMED))
    key = key_of(report)
    assert key.finding == "key_unverified" and not key.hard and key.severity == "cannot_judge"
    assert report.key_verified_by == ("unverified: one solution, no second voter (1 other copy "
                                      "of it does not count)")
    assert "the key's own program (up to names and layout)" in key.artifacts["notes"]
    assert not report.key_verified


def test_with_one_solution_and_no_second_voter_the_key_is_never_called_verified():
    report = gate("weights", WEIGHTS_MEMO)
    key = key_of(report)
    assert key.status is CheckStatus.FAILED and key.label == "cannot judge"
    assert report.key_verified_by == "unverified: one solution, no second voter"
    assert report.passed and not report.key_verified  # the gate judged the code; not the key


# -- one solution and a judge's solver ----------------------------------------------------------


@pytest.mark.parametrize(("name", "trojan", "solver"), [
    ("weights", WEIGHTS_MEMO, WEIGHTS_HONEST[2]),
    ("weights", WEIGHTS_WRAP, WEIGHTS_HONEST[1]),
    ("weights", WEIGHTS_RARE, WEIGHTS_HONEST[0]),
    ("stretch", STRETCH_LAST_RUN, STRETCH_HONEST[1]),
])
def test_with_one_solution_a_judge_solver_catches_the_trojan(name, trojan, solver):
    voter = Voter(solver, "the judge's solver", kind="solver")
    report = gate(name, trojan, (voter,))
    key = assert_caught(report, "the judge's solver")
    assert "majority" not in key.artifacts  # a solver is never embedded


def test_a_renamed_copy_and_a_judge_solver():
    voters = (*solutions(WEIGHTS_MEMO_RENAMED),
              Voter(WEIGHTS_HONEST[0], "the judge's solver", kind="solver"))
    report = gate("weights", WEIGHTS_MEMO, voters)
    key = assert_caught(report, "the judge's solver")
    assert "not an independent voter" in key.artifacts["notes"]


# -- clean tasks ---------------------------------------------------------------------------------


def test_three_honest_solutions_verify_the_key():
    report = gate("weights", WEIGHTS_HONEST[0], solutions(*WEIGHTS_HONEST[1:]))
    key = key_of(report)
    assert report.verdict == "accepted" and key.status is CheckStatus.PASSED, key
    assert report.key_verified
    assert report.key_verified_by == "3 solutions agree on 100 generated inputs"


def test_several_right_answers_are_agreement_not_disagreement():
    report = gate("tower", TOWER_HONEST[0], solutions(*TOWER_HONEST[1:]))
    key = key_of(report)
    assert report.verdict == "accepted" and report.key_verified, key
    assert report.key_verified_by == "3 solutions agree on 100 generated inputs"
    # the first and the last tallest positions differ on ties: verify_score accepted them
    assert "output(s) differ from the key's but verify_score accepts them" in key.artifacts["notes"]


def test_a_judge_solver_verifies_an_honest_key():
    voter = Voter(STRETCH_HONEST[1], "the judge's solver", kind="solver")
    report = gate("stretch", STRETCH_HONEST[0], (voter,))
    assert report.verdict == "accepted" and report.key_verified
    assert report.key_verified_by == ("the judge's solver agrees with the reference program on "
                                      "100 generated inputs")


def test_the_same_program_given_as_reference_is_no_vote():
    report = gate("stretch", STRETCH_HONEST[0], reference=STRETCH_HONEST[0])
    assert report.key_verified_by == "unverified: one solution, no second voter"


# -- limits: a slow solution is not compared, never a disagreement -----------------------------

SLOW = "import time\ntime.sleep(30)\n"


def test_a_solution_that_times_out_is_not_compared_and_the_check_stays_bounded():
    cfg = CheckConfig(oracle_timeout_s=0.5, key_budget_s=2.0)
    voters = (*solutions(SLOW), *solutions(WEIGHTS_HONEST[1], first=3))
    started = time.monotonic()
    report = run_checks(module("weights", WEIGHTS_HONEST[0]), backend="process", config=cfg,
                        voters=voters, example_inputs=examples("weights"))
    key = key_of(report)
    assert key.elapsed_s < 2 * cfg.key_budget_s + 3, key.elapsed_s
    assert time.monotonic() - started < 60
    assert key.status is CheckStatus.PASSED and report.verdict == "accepted", key
    assert report.key_verified_by == "2 solutions agree on 100 generated inputs"
    notes = key.artifacts["notes"]
    assert "solution 2 of the task: not run (its time budget ran out) on 96, timed out on 4" \
        in notes and "no disagreement" in notes
    votes = key.artifacts["votes"]
    assert "solution 2 of the task (solution" in votes and "disagrees on 0" in votes
    assert CHUNK < 100  # the budget is checked between chunks of inputs


def test_only_slow_voters_leave_the_key_unverified():
    cfg = CheckConfig(oracle_timeout_s=0.3, key_budget_s=1.0)
    report = run_checks(module("weights", WEIGHTS_MEMO), backend="process", config=cfg,
                        voters=solutions(SLOW), example_inputs=examples("weights"))
    key = key_of(report)
    assert key.finding == "key_unverified" and not key.hard
    assert (report.key_verified_by or "").startswith("unverified: no voter was compared on "
                                                     "enough inputs")


# -- how voters run: one process with the contract's runner, else one process per input -------

#: right, but it tells the contract's in-process runner from a real process and lies there
RUNNER_SHY = '''import sys

data = sys.stdin.read().split()
if type(sys.stdin).__name__ != "TextIOWrapper":
    print(-1)
else:
    print(sum(map(int, data[1:])))
'''


def test_a_program_the_contracts_runner_cannot_run_runs_as_processes():
    voter = "import os\n" + WEIGHTS_HONEST[1]  # os: outside the runner's modules
    report = gate("weights", WEIGHTS_HONEST[0], solutions(voter))
    assert report.key_verified, key_of(report)
    assert report.key_verified_by == "2 solutions agree on 100 generated inputs"


def test_what_the_in_process_runner_got_wrong_is_run_again_as_a_process():
    report = gate("weights", WEIGHTS_HONEST[0], solutions(RUNNER_SHY))
    key = key_of(report)
    assert key.status is CheckStatus.PASSED and report.key_verified, key
    assert report.key_verified_by == "2 solutions agree on 100 generated inputs"


def test_a_trojan_caught_in_process_is_confirmed_by_a_process_run():
    report = gate("weights", WEIGHTS_RARE, solutions(WEIGHTS_HONEST[0]))
    key = assert_caught(report, "solution 2 of the task")
    assert 1 <= disagreements(key) <= 25
