"""The multi-turn gate (synth.gate.episodes) on the planted defects of tests/defects/multiturn/:
each is rejected by the check meant to catch it, with its finding and evidence; the clean
control and the shipped Mastermind pass every check."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from synth.gate import MULTI_TURN_CHECK_NAMES, CheckStatus, run_checks_file
from synth.sandbox import get_backend

CORPUS = Path(__file__).resolve().parents[1] / "defects" / "multiturn"
FAILED, ERROR, TIMEOUT = CheckStatus.FAILED, CheckStatus.ERROR, CheckStatus.TIMEOUT

# file -> (the intended check, its status, its finding, a phrase of its reason, artifacts it must
#          carry, other checks allowed to fail as well)
DEFECTS: dict[str, tuple[str, CheckStatus, str, str, tuple[str, ...], frozenset[str]]] = {
    "rewards_illegal.py": ("degenerate_policies", FAILED, "rewards_illegal_actions",
                           "illegal or empty actions must earn nothing", ("transcript", "scores"),
                           frozenset()),
    "rewards_doing_nothing.py": ("degenerate_policies", FAILED, "rewards_illegal_actions",
                                 "the empty policy", ("transcript",), frozenset()),
    "wins_by_waiting.py": ("degenerate_policies", FAILED, "rewards_illegal_actions",
                           "scored 1", ("transcript",), frozenset({"levels"})),
    "reference_loses.py": ("reference_policy", FAILED, "reference_loses", "scored 0",
                           ("transcript", "actions", "case"), frozenset({"levels"})),
    "hash_order.py": ("episode_determinism", FAILED, "nondeterministic_episode",
                      "other PYTHONHASHSEED", ("first_process", "second_process", "state"),
                      frozenset()),
    "hidden_class_state.py": ("state_purity", FAILED, "hidden_state", "fresh process",
                              ("second_process",), frozenset()),
    "hidden_counter.py": ("state_purity", FAILED, "hidden_state", "fresh process",
                          ("first_process", "second_process"), frozenset({"episode_determinism"})),
    "reset_counter.py": ("observation", FAILED, "nondeterministic_episode",
                         "two different starts", ("first", "second"),
                         frozenset({"state_purity", "episode_determinism"})),
    "step_hangs.py": ("unusual_actions", TIMEOUT, "slow_step", "did not return within",
                      ("action", "state"), frozenset({"timing"})),
    "step_raises_garbage.py": ("unusual_actions", ERROR, "step_crashes", "ValueError",
                               ("action", "traceback"), frozenset({"degenerate_policies"})),
    "reward_nan.py": ("unusual_actions", FAILED, "invalid_score", "reward nan",
                      ("action", "value"), frozenset({"degenerate_policies"})),
    "reward_above_one.py": ("reference_policy", FAILED, "invalid_score", "not a finite float",
                            ("value", "action"), frozenset({"levels"})),
    "never_ends.py": ("turn_limit", FAILED, "episode_never_ends", "MAX_TURNS=12",
                      ("transcript",), frozenset()),
    "terminal_resets.py": ("terminal", FAILED, "terminal_changes", "reward 1 -> 0",
                           ("state",), frozenset()),
    "levels_identical.py": ("levels", FAILED, "", "identical parameters", ("metrics",),
                            frozenset()),
}


def descendants() -> list[int]:
    """Live processes below this test process (sandbox sessions it started and left)."""
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z":
            parents[int(name)] = int(fields[1])
    mine, found, grown = {os.getpid()}, [], True
    while grown:
        grown = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                found.append(pid)
                grown = True
    return found


def settled(before: set[int]) -> list[int]:
    """The processes below this test process that were not there before the test (a whole-
    suite run keeps some of earlier tests' long-lived pools), after at most 2 s to exit."""
    deadline = time.monotonic() + 2.0
    while set(descendants()) - before and time.monotonic() < deadline:
        time.sleep(0.05)
    return sorted(set(descendants()) - before)


@pytest.fixture(scope="module")
def backend():  # type: ignore[no-untyped-def]
    return get_backend("process")


@pytest.mark.parametrize("name", sorted(DEFECTS))
def test_planted_multi_turn_defect_is_rejected_by_the_intended_check(name, backend):
    check, status, finding, phrase, artifacts, also = DEFECTS[name]
    before = set(descendants())
    t0 = time.monotonic()
    report = run_checks_file(CORPUS / name, backend=backend)
    elapsed = time.monotonic() - t0
    assert [c.name for c in report.checks] == list(MULTI_TURN_CHECK_NAMES)
    result = report.get(check)
    assert result is not None
    assert result.status is status, f"{check}: {result.status} {result.reason}"
    assert result.finding == finding
    assert phrase in result.reason, result.reason
    for key in artifacts:
        assert result.artifacts.get(key), f"{check} lacks the {key!r} artifact: {result.artifacts}"
    assert not report.passed and not report.infrastructure_error
    blamed = {c.name for c in report.failing}
    assert blamed - also == {check}, report.feedback()
    assert f"## {check}: {status.value}" in report.feedback()
    assert elapsed < 60
    if name == "step_hangs.py":
        # the hang costs the step's limit (2 s) and the host's grace, not more; the killed
        # sandbox session leaves no process behind
        assert result.elapsed_s < 8, result.elapsed_s
        assert settled(before) == []


def test_the_corpus_holds_at_least_eight_defects() -> None:
    files = sorted(p.name for p in CORPUS.glob("*.py") if p.name != "clean_guess.py")
    assert files == sorted(DEFECTS)
    assert len(files) >= 8


@pytest.mark.parametrize("path", [
    CORPUS / "clean_guess.py",
    Path(__file__).resolve().parents[2] / "generated_bootcamps" / "handwritten" / "mastermind.py",
])
def test_good_multi_turn_bootcamps_pass_every_check(path, backend):
    before = set(descendants())
    t0 = time.monotonic()
    report = run_checks_file(path, backend=backend)
    assert report.passed, report.feedback()
    assert [c.name for c in report.checks] == list(MULTI_TURN_CHECK_NAMES)
    assert all(c.status is CheckStatus.PASSED for c in report.checks), report.feedback()
    assert time.monotonic() - t0 < 60
    assert settled(before) == []
