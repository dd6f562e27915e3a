"""Function bootcamps (``FunctionBootcamp``, HumanEval's reference functions) through the whole
gate: the corpus of ``tests/fixtures/function`` -- the model's part of correct bootcamps and of
defective ones, assembled here with the task's reference function and specification -- is
accepted where it is correct and rejected, by the named finding, where it is not.

One gate run per module (about a second each on the process backend), shared by the module's
tests.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from synth import compiled
from synth.gate import run_checks
from synth.sandbox.static import check_source
from synth.sources import HumanEvalSource
from synth.tasks import TaskDescription

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "function"
TASKS = {"has_close": "HumanEval/0", "sum_product": "HumanEval/8", "mean_absolute": "HumanEval/4",
         "is_happy": "HumanEval/80", "gcd": "HumanEval/13", "longest": "HumanEval/12",
         "filter_by_substring": "HumanEval/7", "string_xor": "HumanEval/11"}
#: each defective module -> (the check that must fail, its finding)
DEFECTS = {
    "bad_gcd_floats": ("inputs", "argument_type"),
    "bad_has_close_tuple": ("inputs", "argument_type"),
    "bad_is_happy_list": ("inputs", "argument_type"),
    "bad_has_close_one_argument": ("oracle", "reference_raises"),
    "bad_mean_absolute_deviation_empty": ("oracle", "reference_raises"),
    "bad_has_close_lenient": ("static", ""),
    "bad_gcd_shown_examples": ("inputs", "answer_in_prompt"),
    "bad_filter_by_substring_all_kept": ("prompt", "returns_an_argument"),
    "bad_string_xor_unequal_lengths": ("inputs", "argument_relation"),
}
GOOD = ["ok_has_close_elements", "ok_sum_product", "ok_mean_absolute_deviation", "ok_is_happy",
        "ok_longest_strings", "ok_string_xor"]


def _tasks() -> dict[str, TaskDescription]:
    wanted = set(TASKS.values())
    found = {}
    for item in HumanEvalSource().load():
        if isinstance(item, TaskDescription) and item.provenance.original_id in wanted:
            found[item.provenance.original_id] = item
    return found


def assembled(name: str, tasks: dict[str, TaskDescription]) -> tuple[str, TaskDescription]:
    """The module of fixture ``name`` and its task."""
    task = tasks[next(v for k, v in TASKS.items() if k in name)]
    ref = compiled.function_reference(task, verified_only=False)
    assert ref is not None
    model = (CORPUS / f"{name}.model.py").read_text(encoding="utf-8")
    return compiled.assemble(model, ref[0], compiled.function_text(task),
                             entry_point=ref[1]), task


@pytest.fixture(scope="module")
def reports() -> dict[str, Any]:
    tasks = _tasks()
    out: dict[str, Any] = {}
    for name in [*GOOD, *DEFECTS]:
        code, task = assembled(name, tasks)
        start = time.perf_counter()
        report = run_checks(code, backend="process", name=name,
                            function_tests=task.tests.check_code)
        out[name] = (report, time.perf_counter() - start)
    return out


def test_the_corpus_is_complete() -> None:
    names = {p.name.removesuffix(".model.py") for p in CORPUS.glob("*.model.py")}
    assert names == set(GOOD) | set(DEFECTS)


@pytest.mark.parametrize("name", GOOD)
def test_correct_function_bootcamps_pass(reports: dict[str, Any], name: str) -> None:
    report, seconds = reports[name]
    assert report.passed, [(c.name, c.reason) for c in report.failing]
    by_name = {c.name: c for c in report.checks}
    assert by_name["oracle"].status.value == "passed"
    assert by_name["inputs"].status.value == "passed"
    assert "example and test call" in by_name["inputs"].reason
    assert seconds < 10


@pytest.mark.parametrize("name", sorted(DEFECTS))
def test_defective_function_bootcamps_fail_by_their_finding(reports: dict[str, Any],
                                                            name: str) -> None:
    report, _ = reports[name]
    check, finding = DEFECTS[name]
    assert not report.passed
    failed = {c.name: c for c in report.failing}
    assert check in failed, [(c.name, c.reason) for c in report.failing]
    assert (failed[check].finding or "") == finding
    if finding == "reference_raises":
        evidence = failed[check].artifacts
        assert "Error" in evidence["exception"] and "(" in evidence["call"]


def test_the_raising_call_is_named(reports: dict[str, Any]) -> None:
    report, _ = reports["bad_mean_absolute_deviation_empty"]
    oracle = next(c for c in report.checks if c.name == "oracle")
    assert "mean_absolute_deviation([])" in oracle.reason
    assert "ZeroDivisionError" in oracle.artifacts["exception"]


def test_the_revise_feedback_leads_with_the_argument_findings(reports: dict[str, Any]) -> None:
    from synth.gate import FINDINGS

    assert {"argument_type", "reference_raises"} <= set(FINDINGS)
    report, _ = reports["bad_has_close_one_argument"]
    text = report.feedback()
    assert text.startswith(("## oracle", "## inputs")), text[:200]
    assert "## self_consistency" not in text
    assert "Also failed, on the same raising call of the reference function:" in text
    assert "self_consistency" in text.split("Also failed")[1]


def test_prompt_states_the_contract_and_never_the_solution() -> None:
    tasks = _tasks()
    code, task = assembled("ok_sum_product", tasks)
    namespace: dict[str, Any] = {}
    exec(compile(code, "ok_sum_product.py", "exec"), namespace)  # trusted fixture, test only
    cls = namespace["SumProductBootcamp"]
    case = cls(seed=3).case_generator()
    prompt = cls.prompt_func(case)
    solution = task.references[0].code[len(task.statement):].strip()
    assert solution and solution.splitlines()[0].strip() not in prompt
    assert "sum_product(" in prompt and "Python literal" in prompt
    assert '"""' not in prompt.split("The call:")[1]
    assert "HumanEval" not in prompt  # the specification, not the benchmark's title
    # the declared return type's form first, then the whole rule, then room to reason
    rule = prompt.split("The call:")[1]
    assert "declared to return Tuple[int, int], a tuple: write it in parentheses" in rule
    assert rule.index("a tuple: write") < rule.index("Python literal")
    assert prompt.rstrip().endswith("give the returned value inside <answer></answer> tags.")
    answer = cls.reference_answer(case)
    assert answer.startswith("(") and cls.verify_score(cls.wrap_answer(answer), case) == 1.0
    assert cls.verify_score(cls.wrap_answer(answer.replace("(", "[").replace(")", "]")), case) == 1.0


def test_static_gate_knows_function_bootcamps() -> None:
    tasks = _tasks()
    code, _ = assembled("ok_is_happy", tasks)
    assert check_source(code, "synth") == []
    no_args = code.replace("def call_args", "def other_name")
    assert any("call_args" in str(v) for v in check_source(no_args, "synth"))
    swapped = code.replace("class IsHappyBootcamp(FunctionBootcamp):",
                           "class IsHappyBootcamp(FunctionBootcamp):\n    ENTRY_POINT = 'len'")
    assert any(v.rule == "compiled" for v in check_source(swapped, "synth"))
    for name in ("call_text", "arguments", "prompt_func", "render_stdin", "reference_answer"):
        own = code.replace("    @staticmethod\n    def call_args",
                           f"    @classmethod\n    def {name}(cls, identity):\n        return []\n\n"
                           "    @staticmethod\n    def call_args")
        assert any(v.rule == "compiled" and name in str(v) for v in check_source(own, "synth")), name


def test_a_relation_the_task_s_calls_share_is_named_and_one_they_do_not_is_not() -> None:
    """The inputs check reads which arguments every call of the task passes with one length:
    string_xor's two bit strings (its docstring example and tests), not filter_by_substring's
    list and substring, nor a pair no call passes together."""
    from synth.gate.functions import expected_arguments

    tasks = _tasks()
    for task_id, entry, want in (("HumanEval/11", "string_xor", [(0, 1)]),
                                 ("HumanEval/7", "filter_by_substring", []),
                                 ("HumanEval/12", "longest", [])):
        task = tasks[task_id]
        got = expected_arguments(task.references[0].code, entry, task.tests.check_code)
        assert got is not None and [(k, m) for k, m, _ in got.equal_lengths] == want, task_id
