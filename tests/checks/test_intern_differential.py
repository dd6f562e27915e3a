"""The differential check on InternBootcamp-style modules (no reference answer, no
wrap_answer): with an independent checker it runs, learns the answer format from the checker's
own solve() answers, and finds a lenient verifier; a correct one passes; without a checker it
is skipped."""

from __future__ import annotations

from synth.gate import run_checks

MODULE = '''"""Audit fixture: sort a list of numbers."""
import random
import re

from bootcamp import Basebootcamp


class SortNumbersbootcamp(Basebootcamp):
    def __init__(self, **params):
        self.size = params.get("size", 6)

    def case_generator(self):
        return {"numbers": [random.randint(1, 999) for _ in range(self.size)]}

    @staticmethod
    def prompt_func(question_case):
        shown = " ".join(str(x) for x in question_case["numbers"])
        return f"Sort {shown} in ascending order, as <answer>a b c ...</answer>."

    @staticmethod
    def extract_output(output):
        found = re.findall(r"<answer>(.*?)</answer>", output, re.DOTALL)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        got = [int(x) for x in solution.split()]
        return VERIFY
'''
LENIENT = 'sorted(got) == sorted(identity["numbers"])'  # any order of the numbers
STRICT = 'got == sorted(identity["numbers"])'

CHECKER = '''"""Independent checker: the numbers in ascending order."""


def check(identity, answer):
    try:
        return [int(x) for x in answer.split()] == sorted(identity["numbers"])
    except ValueError:
        return False


def solve(identity):
    return " ".join(str(x) for x in sorted(identity["numbers"]))
'''


def _differential(verify: str, checker: str | None):
    report = run_checks(MODULE.replace("VERIFY", verify), backend="process", checker=checker)
    assert report.mode == "intern"
    diff = report.get("differential")
    assert diff is not None
    return report, diff


def test_a_lenient_verifier_is_found_by_the_checker():
    report, diff = _differential(LENIENT, CHECKER)
    assert diff.status.value == "failed" and diff.finding == "verifier_too_lenient"
    assert diff.severity == "reject" and report.verdict == "rejected"
    assert "mutant" in diff.artifacts["evidence"]  # a reordering of the numbers scored 1.0


def test_a_correct_verifier_agrees_with_the_checker():
    report, diff = _differential(STRICT, CHECKER)
    assert diff.severity != "reject" or diff.clean, diff
    assert "agree" in diff.reason or "no systematic disagreement" in diff.reason
    assert report.verdict == "accepted", report.decisive


def test_without_a_checker_it_is_skipped():
    _, diff = _differential(LENIENT, None)
    assert diff.status.value == "skipped" and "--checker" in diff.reason
