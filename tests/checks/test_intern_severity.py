"""Issue 12: severities (reject / convention / cannot judge), the audited library's own semantics
and no early stop that hides later checks -- on InternBootcamp-style modules, process backend."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from synth.commands.check import check_command
from synth.gate import CheckReport, CheckResult, CheckStatus, run_checks, run_checks_file
from synth.gate.severity import classify_missing, global_random, merge, missing_dependency, note

app = typer.Typer()
app.command("check")(check_command)


@app.callback()
def _root() -> None:
    """Keep `check` a named subcommand, as in synth/cli.py."""


HEAD = '''"""InternBootcamp-style test module written for bootcamp-synth's tests."""

import random
import re

from bootcamp import Basebootcamp

'''
#: A correct module in InternBootcamp's shape; each test replaces one part.
PARTS = {
    "imports": "",
    "init": "    def __init__(self, n=6):\n        self.n = n\n",
    "generate": ("    def case_generator(self):\n"
                 "        return {'nums': [random.randint(1, 99) for _ in range(self.n)]}\n"),
    "prompt": ("    @staticmethod\n    def prompt_func(question_case):\n"
               "        return f\"Sum of {question_case['nums']}? Reply as [answer]N[/answer].\"\n"),
    "extract": ("    @staticmethod\n    def extract_output(output):\n"
                "        found = re.findall(r'\\[answer\\]\\s*(-?\\d{1,12})\\s*\\[/answer\\]', output)\n"
                "        return int(found[-1]) if found else None\n"),
    "verify": ("    @classmethod\n    def _verify_correction(cls, solution, identity):\n"
               "        return solution == sum(identity['nums'])\n"),
}


#: An extract_output that hands any tagged text to the verifier (so garbage reaches it).
LENIENT = """
    @staticmethod
    def extract_output(output):
        found = re.findall(r'\\[answer\\](.*?)\\[/answer\\]', output, re.DOTALL)
        return found[-1] if found else None
"""


def module(**parts: str) -> str:
    chosen = {**PARTS, **{k: textwrap.indent(textwrap.dedent(v), "    ") if k != "imports" else v
                          for k, v in parts.items()}}
    body = "\n".join(chosen[k] for k in ("init", "generate", "prompt", "extract", "verify"))
    return HEAD + chosen["imports"] + "\n\nclass Sumbootcamp(Basebootcamp):\n" + body


def audit(source: str, backend) -> CheckReport:
    report = run_checks(source, backend=backend, name="t.py")
    assert report.mode == "intern"
    return report


def by_name(report: CheckReport) -> dict[str, CheckResult]:
    return {c.name: c for c in report.checks}


def invoke(*args: str):
    return CliRunner().invoke(app, ["check", *args], env={"COLUMNS": "250"})


# -- the report: severity, decisive finding, verdict (no sandbox) --------------------------------


def _result(name: str, status: str = "passed", severity: str = "reject", **kw) -> CheckResult:
    return CheckResult(name=name, status=CheckStatus(status), reason=f"{name} said so",
                       severity=severity, **kw)  # type: ignore[arg-type]


def _report(*checks: CheckResult) -> CheckReport:
    return CheckReport(candidate_sha256="0" * 64, backend="process", mode="intern",
                       checks=list(checks), passed=all(c.ok for c in checks))


def test_a_convention_never_blocks_and_is_listed_with_its_severity():
    report = _report(_result("load"), _result("construct", "failed", "convention",
                                              finding="accepts_unknown_parameter"))
    assert report.passed and report.verdict == "accepted" and report.decisive is None
    assert [c.name for c in report.conventions] == ["construct"]
    assert report.checks[1].label == "convention"
    text = report.feedback()
    assert "All hard checks passed." in text
    assert "## construct: failed [convention] -- construct said so" in text
    again = CheckReport.model_validate_json(report.model_dump_json())
    assert again.checks[1].severity == "convention" and again.passed


def test_the_decisive_finding_is_the_first_reject_even_after_a_cannot_judge():
    report = _report(_result("load"), _result("generate", "error", "cannot_judge",
                                              finding="missing_dependency"),
                     _result("prompt", "failed", finding=""), _result("garbage", "failed"))
    assert not report.passed and not report.cannot_judge
    assert report.verdict == "rejected"
    assert report.decisive is not None and report.decisive.name == "prompt"
    alone = _report(_result("load", "error", "cannot_judge", finding="missing_dependency"))
    assert alone.cannot_judge and alone.verdict == "cannot_judge"
    assert alone.decisive is not None and alone.decisive.name == "load"
    assert "[cannot_judge]" in alone.feedback()


def test_a_report_saved_before_severities_existed_still_loads_as_rejecting():
    old = _report(_result("load", "failed")).model_dump(mode="json")
    for check in old["checks"]:
        del check["severity"]
    report = CheckReport.model_validate(old)
    assert report.checks[0].severity == "reject" and report.verdict == "rejected"


# -- the rules (no sandbox) --------------------------------------------------------------------


@pytest.mark.parametrize(("text", "missing"), [
    ("ModuleNotFoundError: No module named 'numpy'", "numpy"),
    ("ModuleNotFoundError: No module named 'sympy.parsing'", "sympy.parsing"),
    ("ModuleNotFoundError: No module named 'libs'", "libs"),
    ("ModuleNotFoundError: No module named 'internbootcamp.libs'", "internbootcamp.libs"),
    ("ImportError: cannot import name 'Matrix' from 'sympy' (unknown location)",
     "sympy (its Matrix)"),
    # the standard library, or the audited module itself: the code's own defect
    ("ImportError: cannot import name 'nope' from 'math' (unknown location)", None),
    ("ModuleNotFoundError: No module named 'distutils'", None),
    ("ModuleNotFoundError: No module named 'candidate'", None),
    ("ImportError: cannot import name 'x' from partially initialized module 'numpy' (most "
     "likely due to a circular import)", None),
    ("KeyError: 'numpy'", None),
])
def test_which_import_errors_are_a_missing_dependency(text, missing):
    assert missing_dependency("Traceback (most recent call last):\n  ...\n" + text) == missing


def test_a_missing_module_earlier_in_a_traceback_does_not_count():
    """Only the exception that ended the call counts (a fallback import that then works)."""
    trace = ("ModuleNotFoundError: No module named 'numpy'\n\nDuring handling of the above "
             "exception, another exception occurred:\n\nTraceback (most recent call last):\n"
             "  File \"candidate.py\", line 9, in <module>\n    x = {}['k']\nKeyError: 'k'")
    assert missing_dependency(trace) is None


def test_classify_and_merge_order_severities():
    res = {"status": "error", "reason": "importing the module: raised ModuleNotFoundError: No "
           "module named 'numpy'", "artifacts": {}, "finding": ""}
    judged = classify_missing(res)
    assert judged["severity"] == "cannot_judge" and judged["artifacts"]["missing_module"] == "numpy"
    clean = {"status": "passed", "reason": "fine", "artifacts": {}, "finding": ""}
    conv = note("convention", "global_random", "draws from random", global_random="line 3")
    cj = note("cannot_judge", "missing_dependency", "needs sympy", missing_module="sympy")
    merged = merge(clean, [conv, cj])
    assert (merged["status"], merged["severity"], merged["finding"]) == (
        "error", "cannot_judge", "missing_dependency")
    assert "needs sympy; draws from random" in merged["reason"] and "fine" in merged["reason"]
    assert merge(clean, [conv])["status"] == "failed"
    rejected = {"status": "failed", "reason": "bad", "artifacts": {}, "finding": "x"}
    kept = merge(rejected, [conv])
    assert kept.get("severity", "reject") == "reject"
    assert kept["reason"] == "bad" and kept["artifacts"]["also_found"] == "draws from random"


def test_global_random_is_found_in_its_spellings_and_a_private_generator_is_not():
    source = textwrap.dedent("""
        import random
        import random as R
        from random import choice as pick
        import numpy as np
        rng = random.Random(4)
        a = rng.randint(1, 2)
        b = random.randint(1, 2)
        c = R.shuffle([])
        d = pick([1])
        e = np.random.rand(3)
    """)
    assert global_random(source) == ["line 8: random.randint", "line 9: R.shuffle",
                                     "line 10: pick", "line 11: np.random.rand"]
    assert global_random("import random\nrng = random.Random(1)\nrng.random()\n") == []
    assert global_random("def broken(:\n") == []


# -- conventions do not reject, and never stop later checks --------------------------------------


def test_params_accepting_an_unknown_parameter_is_a_convention(process_backend):
    report = audit(module(init="def __init__(self, **params):\n    self.n = params.get('n', 6)\n"),
                   process_backend)
    checks = by_name(report)
    assert report.passed, report.feedback()
    assert (checks["construct"].severity, checks["construct"].finding) == (
        "convention", "accepts_unknown_parameter")
    for name in ("generate", "determinism", "diversity", "prompt", "garbage", "timing"):
        assert checks[name].status is not CheckStatus.SKIPPED, name


def test_tuples_that_verify_the_same_after_the_round_trip_are_a_convention(process_backend):
    report = audit(module(
        generate="""
            def case_generator(self):
                pairs = [(random.randint(1, 9), random.randint(1, 9)) for _ in range(self.n)]
                return {'nums': pairs, 'deg': {i: random.randint(0, 3) for i in range(3)}}
        """,
        verify="""
            @classmethod
            def _verify_correction(cls, solution, identity):
                return solution == sum(a * b for a, b in identity['nums']) + 0 * len(identity['deg'])
        """), process_backend)
    checks = by_name(report)
    assert checks["generate"].severity == "convention", checks["generate"]
    assert checks["generate"].finding == "tuples_in_case"
    assert "is a tuple" in checks["generate"].reason and "case" in checks["generate"].artifacts
    assert report.passed, report.feedback()
    assert checks["diversity"].status is CheckStatus.PASSED
    assert checks["prompt"].status is CheckStatus.PASSED


def test_int_keys_that_the_verifier_reads_back_break_the_round_trip(process_backend):
    """{0: x} comes back from JSON as {"0": x}: a verifier that reads identity['deg'][0] with
    an int key scores a correct answer 1 on the case as generated and 0 after the round trip."""
    report = audit(module(
        generate="""
            def case_generator(self):
                return {'deg': {i: random.randint(0, 9) for i in range(3)}}
        """,
        prompt="""
            @staticmethod
            def prompt_func(question_case):
                return f"Repeat {question_case['deg']} key 0 as [answer]N[/answer]."
        """,
        verify="""
            @classmethod
            def _verify_correction(cls, solution, identity):
                return solution == identity['deg'][0]
        """), process_backend)
    generate = by_name(report)["generate"]
    assert not report.passed and report.decisive is generate
    assert generate.finding == "roundtrip_changes_verdict" and generate.severity == "reject"
    assert "after the round trip" in generate.reason
    assert "(swallowing a KeyError) after the round trip" in generate.reason
    assert set(generate.artifacts) >= {"case", "response"}


def test_a_tuple_the_verifier_compares_with_eq_is_rejected(process_backend):
    report = audit(module(
        generate="def case_generator(self):\n    return {'pos': (random.randint(0, 9), 3)}\n",
        extract="""
            @staticmethod
            def extract_output(output):
                found = re.findall(r'\\[answer\\]\\((\\d+), (\\d+)\\)\\[/answer\\]', output)
                return (int(found[-1][0]), int(found[-1][1])) if found else None
        """,
        verify="""
            @classmethod
            def _verify_correction(cls, solution, identity):
                return solution == identity['pos']
        """), process_backend)
    generate = by_name(report)["generate"]
    assert generate.finding == "roundtrip_changes_verdict", generate
    assert "1.0 on the case as generated and 0.0 after the round trip" in generate.reason
    assert generate.artifacts["response"].startswith("[answer](")


def test_a_set_next_to_a_tuple_is_still_rejected_and_named(process_backend):
    report = audit(module(generate="def case_generator(self):\n"
                                   "    return {'t': (1, 2), 's': {random.randint(1, 9)}}\n"),
                   process_backend)
    generate = by_name(report)["generate"]
    assert generate.severity == "reject" and "case['s'] is a set" in generate.reason


def test_exceptions_verify_score_swallows_are_a_convention_with_evidence(process_backend):
    report = audit(module(
        extract="""
            @staticmethod
            def extract_output(output):
                found = re.findall(r'\\[answer\\](.*?)\\[/answer\\]', output, re.DOTALL)
                return found[-1] if found else None
        """,
        verify="""
            @classmethod
            def _verify_correction(cls, solution, identity):
                return int(solution.strip()) == sum(identity['nums'])
        """), process_backend)
    garbage = by_name(report)["garbage"]
    assert report.passed, report.feedback()
    assert (garbage.severity, garbage.finding) == ("convention", "swallowed_exception")
    assert "ValueError" in garbage.reason and "invalid literal" in garbage.reason
    assert "response (head): '[answer]" in garbage.artifacts["swallowed"]
    assert "_verify_correction" in garbage.artifacts["swallowed_traceback"]
    assert "int(solution.strip())" in garbage.artifacts["swallowed_traceback"]


def test_global_random_is_reported_on_the_determinism_check(process_backend):
    report = audit(module(), process_backend)
    determinism = by_name(report)["determinism"]
    assert report.passed
    assert (determinism.severity, determinism.finding) == ("convention", "global_random")
    assert determinism.artifacts["global_random"].startswith("line ")


def test_a_generator_that_fails_after_some_cases_does_not_hide_the_later_checks(process_backend):
    """It fails the same way in both processes; the prompt check still finds the empty prompt."""
    report = audit(module(
        init="def __init__(self, n=6):\n    self.n = n\n    self.made = 0\n",
        generate="""
            def case_generator(self):
                self.made += 1
                if self.made > 5:
                    raise RuntimeError('out of puzzles')
                return {'nums': [random.randint(1, 99) for _ in range(self.n)]}
        """,
        prompt="@staticmethod\ndef prompt_func(question_case):\n    return ' '\n"), process_backend)
    checks = by_name(report)
    assert checks["generate"].status is CheckStatus.ERROR
    assert "out of puzzles" in checks["generate"].reason
    assert "later checks run on the 5 case(s)" in checks["generate"].reason
    assert checks["determinism"].status is not CheckStatus.SKIPPED
    assert checks["determinism"].severity == "convention", checks["determinism"]
    assert checks["prompt"].status is CheckStatus.FAILED and "empty" in checks["prompt"].reason
    assert report.decisive is checks["generate"]


# -- cannot judge --------------------------------------------------------------------------------


@pytest.mark.parametrize(("imports", "missing"), [
    ("import numpy as np\n", "numpy"),
    ("from sympy import Matrix\n", "sympy"),
    ("from libs.grids import make_grid\n", "libs"),
    ("from internbootcamp.libs.maze import Maze\n", "internbootcamp.libs"),
])
def test_a_missing_dependency_at_import_cannot_be_judged(process_backend, imports, missing):
    report = audit(module(imports=imports), process_backend)
    load = by_name(report)["load"]
    assert report.cannot_judge and report.verdict == "cannot_judge" and not report.passed
    assert (load.severity, load.finding) == ("cannot_judge", "missing_dependency")
    assert load.artifacts["missing_module"] == missing


def test_a_broken_standard_library_import_is_the_module_s_own_defect(process_backend):
    report = audit(module(imports="from math import no_such_function\n"), process_backend)
    assert report.verdict == "rejected" and by_name(report)["load"].severity == "reject"


def test_a_lazy_import_of_a_missing_module_cannot_be_judged_where_it_runs(process_backend):
    generate = audit(module(generate="def case_generator(self):\n    import sympy\n"
                                     "    return {'nums': [1]}\n"), process_backend)
    assert generate.cannot_judge and generate.decisive is by_name(generate)["generate"]
    verify = audit(module(extract=LENIENT, verify="""
        @classmethod
        def _verify_correction(cls, solution, identity):
            import sympy
            return sympy.Integer(solution) == sum(identity['nums'])
    """), process_backend)
    garbage = by_name(verify)["garbage"]
    assert verify.cannot_judge, verify.feedback()
    assert garbage.severity == "cannot_judge" and garbage.artifacts["missing_module"] == "sympy"


def test_a_reject_decides_even_when_something_else_cannot_be_judged(process_backend):
    report = audit(module(
        prompt="@staticmethod\ndef prompt_func(question_case):\n    return ''\n", extract=LENIENT,
        verify="""
            @classmethod
            def _verify_correction(cls, solution, identity):
                import sympy
                return False
        """), process_backend)
    checks = by_name(report)
    assert checks["garbage"].severity == "cannot_judge"
    assert report.verdict == "rejected" and report.decisive is checks["prompt"]


# -- synth check FILE: exit codes, and no crash of the tool on odd modules ----------------------


def test_exit_3_names_the_missing_module(tmp_path):
    path = tmp_path / "needs_numpy.py"
    path.write_text(module(imports="import numpy\n"), encoding="utf-8")
    res = invoke(str(path), "--sandbox", "process")
    assert res.exit_code == 3, res.output
    assert "CANNOT JUDGE" in res.output and "cannot judge: missing module numpy" in res.output
    res = invoke(str(path), "--sandbox", "process", "--json")
    assert res.exit_code == 3 and '"severity": "cannot_judge"' in res.stdout


def test_a_folder_with_a_reject_and_a_cannot_judge_exits_1(tmp_path):
    (tmp_path / "a_needs_numpy.py").write_text(module(imports="import numpy\n"), encoding="utf-8")
    (tmp_path / "b_empty_prompt.py").write_text(
        module(prompt="@staticmethod\ndef prompt_func(question_case):\n    return ''\n"),
        encoding="utf-8")
    res = invoke(str(tmp_path), "--sandbox", "process")
    assert res.exit_code == 1, res.output
    (tmp_path / "b_empty_prompt.py").unlink()
    assert invoke(str(tmp_path), "--sandbox", "process").exit_code == 3


ODD = {
    "int_of_5000_digits_in_a_case": {
        "generate": "def case_generator(self):\n    return {'n': 10 ** 5000 + random.randint(1, 9)}\n"},
    "int_of_5000_digits_in_a_tuple": {
        "generate": "def case_generator(self):\n    return {'t': (10 ** 5000, random.random())}\n"},
    "int_key_of_5000_digits": {
        "generate": "def case_generator(self):\n    return {'k': {10 ** 5000: random.random()}}\n"},
    "verify_score_returns_a_huge_int": {
        "verify": ("@classmethod\ndef verify_score(cls, model_output, identity, format_score=0, "
                   "**kw):\n    return 10 ** 5000\n\n" + textwrap.dedent(PARTS["verify"]))},
    "verify_correction_returns_a_huge_int": {
        "verify": ("@classmethod\ndef _verify_correction(cls, solution, identity):\n"
                   "    return 10 ** 5000\n")},
    "an_exception_whose_str_raises": {
        "verify": ("@classmethod\ndef _verify_correction(cls, solution, identity):\n"
                   "    class E(Exception):\n        def __str__(self):\n"
                   "            raise ValueError('no')\n    raise E()\n")},
}


@pytest.mark.parametrize("kind", sorted(ODD))
def test_odd_modules_are_findings_of_the_module_never_a_crash_of_the_tool(tmp_path, kind):
    path = tmp_path / f"{kind}.py"
    path.write_text(module(**ODD[kind]), encoding="utf-8")
    res = invoke(str(path), "--sandbox", "process")
    assert res.exit_code in (0, 1), res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "verdict: " in res.output


def test_huge_ints_are_named_in_the_finding(process_backend):
    case = audit(module(**ODD["int_of_5000_digits_in_a_tuple"]), process_backend)
    assert "case['t'][0] is an int of 16610 bits" in by_name(case)["generate"].reason
    score = audit(module(**ODD["verify_score_returns_a_huge_int"]), process_backend)
    garbage = by_name(score)["garbage"]
    assert garbage.finding == "invalid_score" and "an int of 16610 bits" in garbage.reason


# -- full (native) mode is unchanged -------------------------------------------------------------


def check_corpus_file(name: str, backend) -> CheckReport:
    """The gate on ``tests/defects/corpus/<name>`` (as tests/checks/conftest.py does; imported
    from there by name, ``conftest`` may be another folder's in a whole-suite run)."""
    path = Path(__file__).resolve().parents[1] / "defects" / "corpus" / name
    ref = path.parent / "reference" / path.name
    return run_checks_file(path, reference=ref if ref.is_file() else None, backend=backend)


def test_native_mode_keeps_its_rejections_and_its_gates(process_backend):
    for name, check in (("kwargs_typo.py", "construct"), ("non_json_tuple.py", "generate")):
        report = check_corpus_file(name, process_backend)
        assert report.mode == "native" and report.verdict == "rejected"
        failing = report.get(check)
        assert failing is not None and failing.severity == "reject" and not failing.ok
        assert all(c.severity == "reject" for c in report.checks)
    report = check_corpus_file("non_json_tuple.py", process_backend)
    assert report.get("diversity").status is CheckStatus.SKIPPED  # generate still gates
