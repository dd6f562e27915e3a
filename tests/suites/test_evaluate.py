"""`synth suite-eval` (synth.suites.evaluate) on a labelled fixture of its own: a correct
program, an off-by-one one and a too-slow one for the "Even Pairs" bootcamp, whose STRESS level
alone catches the too-slow program; the numbers, the catches, the minimised suite; labelled
solutions read from a CodeContests data file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from suites_helpers import (
    EVEN_PAIRS_TASK,
    LABELLED,
    compiled_library,
    even_pairs_module,
    even_pairs_reference,
    even_pairs_text,
)
from typer.testing import CliRunner

from synth.cli import app
from synth.sandbox import get_backend
from synth.suites.build import BuildOptions
from synth.suites.evaluate import EvalReport, ProgramResult, minimise, suite_eval
from synth.suites.format import CodeSuite, SuiteTest
from synth.suites.labelled import read_codecontests, read_labelled
from synth.tasks import make_task_id

OPTIONS = BuildOptions(per_level=4, stress=2)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> EvalReport:
    lib = compiled_library(tmp_path_factory.mktemp("lib"), {"even_pairs": even_pairs_module()})
    return suite_eval(read_labelled(LABELLED), library=lib, backend=get_backend("process"),
                      options=OPTIONS)


def test_tpr_and_tnr_side_by_side(report: EvalReport) -> None:
    (t,) = report.tasks
    assert t.task_id == EVEN_PAIRS_TASK and t.bootcamp == "even_pairs" and t.has_stress
    full, no_stress, examples = t.suites["full"], t.suites["no_stress"], t.suites["examples"]
    assert (full.correct, full.incorrect) == (1, 2)
    assert full.tpr == 1.0 and full.tnr == 1.0
    # the off-by-one program fails an example; the quadratic one passes everything but stress
    assert examples.tests == 2 and examples.tpr == 1.0 and examples.tnr == 0.5
    assert no_stress.tpr == 1.0 and no_stress.tnr == 0.5
    assert full.tests == no_stress.tests + 2
    assert t.false_rejections == []
    # each program's most CPU-costly finished test: the correct one's is within the limit
    (right,) = [p for p in t.programs if p.correct]
    assert 0 < right.slowest_cpu_s <= t.time_limit_s and right.slowest_test is not None


def test_which_tests_catch_which_faults(report: EvalReport) -> None:
    (t,) = report.tasks
    assert t.catches == {
        "off_by_one": {"programs": 1, "examples": 1, "levels": 0, "stress": 0, "missed": 0},
        "too_slow": {"programs": 1, "examples": 0, "levels": 0, "stress": 1, "missed": 0}}
    slow = next(p for p in t.programs if p.kind == "too_slow")
    assert slow.caught_by == "stress" and slow.first_failure is not None
    assert "time limit" in slow.first_failure or "killed" in slow.first_failure
    if "time limit" in slow.first_failure:  # its slowest finished test is a stress test
        assert slow.slowest_cpu_s > t.time_limit_s
        assert t.build.levels and slow.slowest_test in slow.failed
    assert t.build.levels["stress"].kept == 2
    assert report.catches()["too_slow"]["stress"] == 1


def test_minimised_suite_keeps_every_catch(report: EvalReport) -> None:
    (t,) = report.tasks
    m = t.minimised
    assert m.rejects_all and m.examples == 2 and m.size == 3 < m.full_size
    assert m.levels == {"example": 2, "stress": 1}
    for p in t.programs:
        if not p.correct:
            kept = set(m.tests) | {k for k in range(m.examples)}
            assert set(p.failed) & kept, p.name


def test_greedy_cover_on_its_own() -> None:
    tests = [SuiteTest(level=lv, stdin=f"{k}\n", expected="0", identity=None if lv == "example"
                       else {"k": k}) for k, lv in enumerate(["example", "easy", "easy", "hard",
                                                              "hard", "stress"])]
    suite = CodeSuite(kind="stdin", bootcamp="b", code_sha256="a" * 64, judge="tokens",
                      time_limit_s=1.0, memory_mb=256, tests=tests)
    results = [ProgramResult(name="ok", correct=True),
               ProgramResult(name="a", correct=False, failed=[0, 3]),  # the example catches it
               ProgramResult(name="b", correct=False, failed=[1, 4]),
               ProgramResult(name="c", correct=False, failed=[2, 4]),
               ProgramResult(name="d", correct=False, failed=[5]),
               ProgramResult(name="e", correct=False, failed=[])]  # caught by nothing
    m = minimise(suite, results)
    assert m.tests == [4, 5] and m.size == 3 and m.full_size == 6 and m.rejects_all


def test_the_command_prints_the_table_and_writes_json(tmp_path: Path) -> None:
    lib = compiled_library(tmp_path / "lib", {"even_pairs": even_pairs_module()})
    labelled = tmp_path / "labelled"
    (labelled / "no-such-task" / "correct").mkdir(parents=True)
    (labelled / "no-such-task" / "correct" / "a.py").write_text("print(1)\n")
    import shutil

    shutil.copytree(LABELLED / "even-pairs", labelled / "even-pairs")
    out = tmp_path / "eval.json"
    result = CliRunner().invoke(app, [
        "suite-eval", "--labelled", str(labelled), "--library", str(lib.root), "--sandbox",
        "process", "--tests-per-level", "3", "--stress-tests", "1", "--json", str(out)],
        env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "even-pairs" in result.output and "100.0 / 100.0" in result.output
    assert "100.0 / 50.0" in result.output  # the examples alone, and the suite without stress
    assert "no suite for codecontests/no-such-task: no bootcamp of this task" in result.output
    data = json.loads(out.read_text())
    assert data["overall"]["full"]["tnr"] == 1.0 and data["overall"]["no_stress"]["tnr"] == 0.5
    assert data["unmatched"] == [{"task_id": "codecontests/no-such-task",
                                  "why": "no bootcamp of this task in the library"}]
    assert data["tasks"][0]["minimised"]["size"] == 3


def test_labelled_solutions_from_a_codecontests_file(tmp_path: Path) -> None:
    wrong = even_pairs_reference().replace("odd * (odd - 1) // 2 + ", "")  # forgets odd pairs
    record = {"name": "9999_A. Even Pairs", "description": even_pairs_text(),
              "public_tests": {"input": ["4\n1 2 3 4\n"], "output": ["2\n"]},
              "solutions": {"language": [3, 3, 2], "solution": [
                  even_pairs_reference(), (LABELLED / "even-pairs" / "correct" /
                                           "counter.py").read_text(), "int main() {}"]},
              "incorrect_solutions": {"language": [3, 1], "solution": [wrong, "print 1"]},
              "cf_rating": 1200}
    data = tmp_path / "records.jsonl"
    data.write_text(json.dumps(record) + "\n")
    tasks, skipped = read_codecontests(data, verify=False)
    (task,) = tasks
    assert skipped == [] and task.task_id == make_task_id("codecontests", record["name"],
                                                          record["description"])
    assert [(p.name, p.correct, p.kind) for p in task.programs] == [
        ("solutions/1", True, None), ("solutions/2", True, None),
        ("incorrect_solutions/1", False, "dataset")]
    lib = compiled_library(tmp_path / "lib", {"even_pairs": even_pairs_module()},
                           task_id=task.task_id)
    report = suite_eval(tasks, library=lib, backend=get_backend("process"),
                        options=BuildOptions(per_level=3, stress=1))
    (t,) = report.tasks
    assert t.suites["full"].tpr == 1.0 and t.suites["full"].tnr == 1.0
    assert t.catches["dataset"]["programs"] == 1


ANY_MAX_TEXT = """Any Maximum

You are given n integers a_1, ..., a_n. Print any index i such that a_i is a largest value.

Input

The first line contains one integer n (1 ≤ n ≤ 100).

The second line contains n integers a_1, ..., a_n (1 ≤ a_i ≤ 5).

Output

Print one index i (1 ≤ i ≤ n) with a_i maximal. If there are several, print any of them.

Examples

Input

3
1 3 2


Output

2
"""
ANY_MAX_REFERENCE = "n = int(input())\na = list(map(int, input().split()))\nprint(a.index(max(a)) + 1)\n"
ANY_MAX_MODEL = '''"""Compiled bootcamp for tests: any index of a maximum (several valid outputs)."""
from typing import Any

from synth.bootcamp import CompiledBootcamp


class AnyMaxBootcamp(CompiledBootcamp):
    LEVELS = {"easy": {"n": 5}, "hard": {"n": 40}}

    def __init__(self, seed=None, n=5):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self) -> dict[str, Any]:
        return {"a": [self.rng.randint(1, 5) for _ in range(self.rng.randint(2, self.n))]}

    @staticmethod
    def render_stdin(identity):
        a = identity["a"]
        return f"{len(a)}\\n{' '.join(map(str, a))}\\n"

    @staticmethod
    def check_output(identity, expected, answer):
        a = identity["a"]
        text = answer.strip()
        if not text.isdigit() or not 1 <= int(text) <= len(a):
            return False
        return a[int(text) - 1] == max(a)
'''


def test_a_check_output_suite_judges_in_the_bootcamps_sandbox(tmp_path: Path) -> None:
    from synth.compiled import assemble
    from synth.suites.labelled import LabelledTask, Program

    code = assemble(ANY_MAX_MODEL, ANY_MAX_REFERENCE, ANY_MAX_TEXT)
    lib = compiled_library(tmp_path / "lib", {"any_max": code}, task_id="codecontests/any-max")
    last = "n = int(input())\na = list(map(int, input().split()))\n" \
           "print(max(range(n), key=lambda i: (a[i], i)) + 1)\n"
    zero = ANY_MAX_REFERENCE.replace(" + 1)", ")")
    task = LabelledTask("codecontests/any-max", [
        Program("correct/first", ANY_MAX_REFERENCE, True),
        Program("correct/last", last, True),
        Program("incorrect/off_by_one__zero_based", zero, False, "off_by_one")])
    report = suite_eval([task], library=lib, backend=get_backend("process"),
                        options=BuildOptions(per_level=8, stress=0))
    (t,) = report.tasks
    assert t.build.judge == "check_output"
    # the last index of a maximum is another valid output: check_output accepts it
    assert t.suites["full"].tpr == 1.0 and t.suites["full"].tnr == 1.0, t.false_rejections
    assert not t.has_stress and t.suites["no_stress"].tests == t.suites["full"].tests
    # ... on tests where it differs from the reference's (tokens would have rejected it)
    from synth.suites.build import build_suite

    built = build_suite("any_max", code, code_sha256="0" * 64, backend=get_backend("process"),
                        options=BuildOptions(per_level=8, stress=0))
    ties = [t for t in built.suite.tests
            if t.identity and t.identity["a"].count(max(t.identity["a"])) > 1]
    assert ties
