"""Differential verification: the verifier against an independent checker, on the process
sandbox. Each planted defect is caught by the finding meant for it; the checker's own
mistakes are reported as the checker's, never blamed on the bootcamp."""

from __future__ import annotations

import time

from helpers import TOY_SUM

from synth.gate import CheckConfig, CheckStatus, run_checks
from synth.gate.differential import threshold

SUM_CHECKER = '''
def check(identity, answer):
    a = answer.strip()
    return a.lstrip("-").isdigit() and int(a) == sum(identity["numbers"])

def solve(identity):
    return str(sum(identity["numbers"]))

def probes(identity):
    s = sum(identity["numbers"])
    return [str(s + 1), str(-s) if s else "1", str(s) + ".0"]
'''

# any two numbers from the list whose sum is even -- several correct answers per case
PAIR = '''"""Toy multi-solution task for the differential tests: two positions whose values sum to an
even number."""

from synth.bootcamp import BaseBootcamp


class EvenPairBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 5}, "hard": {"n": 9}}

    def __init__(self, seed=None, n=6):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        xs = [self.rng.randint(1, 50) for _ in range(self.n)]
        xs[1] = xs[0] + 2 * self.rng.randint(0, 3)
        return {"xs": xs}

    @staticmethod
    def prompt_func(identity):
        return (f"Numbers (positions count from 0): {identity['xs']}. Give two different "
                "positions i j whose numbers sum to an even number, as <answer>i j</answer>.")

    @classmethod
    def reference_answer(cls, identity):
        return "0 1"

    @classmethod
    def _verify_correction(cls, solution, identity):
        parts = solution.split()
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            return False
        i, j = int(parts[0]), int(parts[1])
        xs = identity["xs"]
        if i == j or not (0 <= i < len(xs) and 0 <= j < len(xs)):
            return False
        return STRICT_OR_NOT
'''
PAIR_RIGHT = PAIR.replace("STRICT_OR_NOT", "(xs[i] + xs[j]) % 2 == 0")
PAIR_STRICT = PAIR.replace("STRICT_OR_NOT", "solution.strip() == cls.reference_answer(identity)")
PAIR_CHECKER = '''
def check(identity, answer):
    parts = answer.split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return False
    i, j = int(parts[0]), int(parts[1])
    xs = identity["xs"]
    return i != j and 0 <= i < len(xs) and 0 <= j < len(xs) and (xs[i] + xs[j]) % 2 == 0

def probes(identity):
    xs = identity["xs"]
    out = []
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if (xs[i] + xs[j]) % 2 == 0 and (i, j) != (0, 1):
                out.append(f"{i} {j}")
    return out[:3] + ["1 0", "0 0"]
'''

FAST = CheckConfig(cases_per_level=12, min_cases=4, mutation_cases=10)


def check(source: str, checker: str | None, backend, cfg: CheckConfig = FAST):
    start = time.monotonic()
    report = run_checks(source, backend=backend, checker=checker, config=cfg)
    return report, time.monotonic() - start


def test_a_lenient_verifier_is_caught_with_evidence(process_backend):
    lenient = TOY_SUM.replace('return int(s) == sum(identity["numbers"])',
                              'return abs(int(s) - sum(identity["numbers"])) <= 1')
    assert lenient != TOY_SUM
    report, elapsed = check(lenient, SUM_CHECKER, process_backend)
    diff = report.get("differential")
    assert diff.status is CheckStatus.FAILED and diff.finding == "verifier_too_lenient"
    assert '"checker_says": false' in diff.artifacts["evidence"]
    assert '"verifier_score": 1.0' in diff.artifacts["evidence"]
    assert not report.passed
    assert elapsed < 10


def test_the_clean_bootcamp_agrees_over_200_cases(process_backend):
    report, _ = check(TOY_SUM, SUM_CHECKER, process_backend)
    diff = report.get("differential")
    assert diff.status is CheckStatus.PASSED, diff.reason
    assert "to 200 cases over 2 level(s)" in diff.reason
    assert report.passed, report.feedback()


def test_a_strict_verifier_on_a_multi_solution_task(process_backend):
    report, _ = check(PAIR_STRICT, PAIR_CHECKER, process_backend)
    diff = report.get("differential")
    assert diff.status is CheckStatus.FAILED and diff.finding == "verifier_too_strict"
    right, _ = check(PAIR_RIGHT, PAIR_CHECKER, process_backend)
    assert right.get("differential").status is CheckStatus.PASSED, right.get("differential").reason


def test_a_wrong_reference_that_agrees_with_its_own_verifier(process_backend):
    wrong = TOY_SUM.replace('return str(sum(identity["numbers"]))',
                            'return str(sum(identity["numbers"]) - min(identity["numbers"]))') \
        .replace('return int(s) == sum(identity["numbers"])',
                 'return s == cls.reference_answer(identity)')
    assert wrong.count("min(identity") == 1
    report, _ = check(wrong, SUM_CHECKER, process_backend)
    diff = report.get("differential")
    assert diff.status is CheckStatus.FAILED and diff.finding == "reference_disagrees"
    assert report.get("self_consistency").status is CheckStatus.PASSED  # agrees with itself


def test_a_broken_checker_is_the_checker_s_problem(process_backend):
    report, _ = check(TOY_SUM, "raise RuntimeError('checker bug')\n", process_backend)
    diff = report.get("differential")
    assert diff.status is CheckStatus.ERROR and not diff.hard
    assert diff.finding == "checker_broken" and "checker bug" in diff.reason
    assert report.passed  # never blamed on the bootcamp


def test_threshold_one_stray_case_is_reported_not_failed():
    assert threshold(FAST, 200) == 2 and threshold(FAST, 1000) == 10
    assert threshold(CheckConfig(disagreement_min_cases=3), 50) == 3


FLOAT = '''"""Toy float task: the mean of a list, accepted within 1e-4 (stated in the prompt)."""

from synth.bootcamp import BaseBootcamp


class MeanBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 3}, "hard": {"n": 9}}

    def __init__(self, seed=None, n=4):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"xs": [self.rng.randint(1, 999) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        return (f"Mean of {identity['xs']}? Any value within 1e-4 of it is correct. "
                "Answer as <answer>x</answer>.")

    @classmethod
    def reference_answer(cls, identity):
        return f"{sum(identity['xs']) / len(identity['xs']):.6f}"

    @classmethod
    def _verify_correction(cls, solution, identity):
        try:
            value = float(solution)
        except ValueError:
            return False
        return abs(value - sum(identity["xs"]) / len(identity["xs"])) <= 1e-4
'''
FLOAT_CHECKER = '''
import math

def check(identity, answer):
    try:
        v = float(answer)
    except ValueError:
        return False
    return math.isfinite(v) and abs(v - sum(identity["xs"]) / len(identity["xs"])) <= 1e-4

def solve(identity):
    return repr(sum(identity["xs"]) / len(identity["xs"]))
'''


def test_in_tolerance_float_answers_are_not_false_rejects(process_backend):
    alone, _ = check(FLOAT, None, process_backend)
    assert alone.get("mutation").status is CheckStatus.PASSED, alone.get("mutation").reason
    judged, _ = check(FLOAT, FLOAT_CHECKER, process_backend)
    assert judged.passed, judged.feedback()
    assert judged.get("mutation").status is CheckStatus.PASSED
    assert "near_offset" in judged.get("mutation").artifacts["accepted_by_checker"]
    assert judged.get("differential").status is CheckStatus.PASSED


def test_without_a_checker_semantic_mutants_catch_an_off_by_one_tolerance(process_backend):
    lenient = TOY_SUM.replace('return int(s) == sum(identity["numbers"])',
                              'return abs(int(s) - sum(identity["numbers"])) <= 1')
    report, _ = check(lenient, None, process_backend)
    mutation = report.get("mutation")
    assert mutation.status is CheckStatus.FAILED and "plus_one" in mutation.reason
