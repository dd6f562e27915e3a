"""The gate on bootcamps whose text UTF-8 cannot encode (lone surrogates, high and low, in
prompts, cases, answers, level names, exceptions, the source): rejected with the finding
``unencodable_text`` by the check that meets the text, with the case as evidence, and the report
-- also ``synth check --json`` -- always written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from conftest import CORPUS
from helpers import ALL_BACKENDS, require_backend
from typer.testing import CliRunner

from synth.commands.check import check_command
from synth.gate import CheckStatus, run_checks
from synth.gate.report import FINDINGS, CheckReport, CheckResult
from synth.sandbox.base import Backend
from synth.text.utf8 import ESCAPED_NOTE

CLEAN = (CORPUS / "clean_sort.py").read_text(encoding="utf-8")
PROMPT = 'f"Sort these integers in non-decreasing order: {nums}.\\n"'
CASE = 'return {"numbers": [self.rng.randint(-self.hi, self.hi) for _ in range(self.n)]}'
ANSWER = 'return " ".join(str(x) for x in sorted(identity["numbers"]))'

# name -> (old, new, the check that meets it, a phrase of its reason)
VARIANTS: dict[str, tuple[str, str, str, str]] = {
    "prompt, start (high)": (PROMPT, 'f"\\ud800Sort these integers: {nums}.\\n"', "prompt",
                             "U+D800"),
    "prompt, middle (low)": (PROMPT, 'f"Sort these \\udfff integers: {nums}.\\n"', "prompt",
                             "U+DFFF"),
    "prompt, end": ('"e.g. <answer>-3 1 1 7</answer>."', '"e.g. <answer>-3 1 1 7</answer>.\\udbff"',
                    "prompt", "U+DBFF"),
    "prompt, some cases only": ('nums = ", ".join(str(x) for x in identity["numbers"])',
                                'nums = ", ".join(str(x) for x in identity["numbers"]) + '
                                '(chr(0xDC80) if identity["numbers"][0] % 4 == 1 else "")',
                                "prompt", "U+DC80"),
    "prompt, a pair as two code points": (PROMPT, 'f"Sort \\ud83d\\ude00 these: {nums}.\\n"',
                                          "prompt", "U+D83D"),
    "case value": (CASE, 'return {"tag": "x\\udc00", "numbers": [self.rng.randint(-self.hi, '
                   'self.hi) for _ in range(self.n)]}', "generate", "U+DC00"),
    "case key": (CASE, 'return {"\\ud800": 1, "numbers": [self.rng.randint(-self.hi, self.hi) '
                 'for _ in range(self.n)]}', "generate", "U+D800"),
    "reference answer": (ANSWER, ANSWER[:-1] + ') + " \\udfff"', "diversity", "U+DFFF"),
    "level name": ('"medium": {', '"medi\\ud800um": {', "load", "a key of the returned value"),
}


def variant(name: str) -> str:
    old, new, _, _ = VARIANTS[name]
    assert old in CLEAN, name
    return CLEAN.replace(old, new)


def written(report: CheckReport) -> dict:
    """The report as `synth check --json` writes it: JSON, UTF-8."""
    text = report.model_dump_json(indent=2)
    text.encode("utf-8")
    return json.loads(text)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_unencodable_text_is_rejected_by_the_check_that_meets_it(name: str,
                                                                  process_backend: Backend):
    _, _, check, phrase = VARIANTS[name]
    report = run_checks(variant(name), backend=process_backend)
    written(report)
    assert not report.passed and not report.infrastructure_error
    decisive = report.decisive
    assert decisive is not None and decisive.name == check, report.feedback()
    assert decisive.status is CheckStatus.FAILED
    assert decisive.finding == "unencodable_text"
    assert "UTF-8" in decisive.reason and phrase in decisive.reason, decisive.reason
    if check in ("prompt", "diversity"):
        assert json.loads(decisive.artifacts["case"])  # the case it happened on, as evidence
    assert "unencodable_text" in FINDINGS


@pytest.mark.parametrize("bad", ["\\ud800", "\\udfff", "x\\udbffy"])
@pytest.mark.parametrize("where", ["message", "past the reason's cut"])
def test_a_surrogate_in_an_exception_is_shown_escaped(bad: str, where: str,
                                                      process_backend: Backend):
    # a reason keeps 400 characters; the traceback ends with the whole message
    raising = (f'raise ValueError("bad {bad} value")' if where == "message" else
               f'raise ValueError("x" * 420 + "bad {bad} value")')
    code = CLEAN.replace("        if n < 2 or hi < 10:",
                         f"        if n == 6:\n            {raising}\n        if n < 2 or hi < 10:")
    report = run_checks(code, backend=process_backend)
    data = written(report)
    construct = report.get("construct")
    assert construct is not None and construct.status is CheckStatus.ERROR
    assert ESCAPED_NOTE in construct.artifacts["traceback"]
    assert "\\ud" in construct.artifacts["traceback"]
    if where == "message":
        assert ESCAPED_NOTE in construct.reason and "\\ud" in construct.reason
    assert data["checks"][2]["name"] == "construct"


def test_a_source_with_a_surrogate_is_refused_before_anything_reads_it(process_backend: Backend):
    report = run_checks(CLEAN.replace("Sort these", "Sort \ud800 these"), backend=process_backend)
    written(report)
    static = report.get("static")
    assert static is not None and static.finding == "unencodable_text"
    assert "U+D800" in static.reason and not report.passed
    assert all(c.status is CheckStatus.SKIPPED for c in report.checks[2:])


def test_a_report_built_from_any_text_serialises_and_says_it_escaped():
    result = CheckResult(name="load", status=CheckStatus.ERROR, reason="raised \ud800 here",
                         artifacts={"traceback": "line \udfff", "case\udc00": "{}"})
    assert result.reason.endswith(f"({ESCAPED_NOTE})") and "\\ud800" in result.reason
    assert result.artifacts["traceback"] == "line \\udfff"
    assert result.artifacts["encoding"] == ESCAPED_NOTE and "case\\udc00" in result.artifacts
    report = CheckReport(candidate_sha256="0", candidate_name="n\ud800", backend="process",
                         checks=[result], passed=False)
    assert written(report)["candidate_name"] == "n\\ud800"
    clean = CheckResult(name="load", status=CheckStatus.PASSED, reason="é 中")
    assert clean.reason == "é 中" and "encoding" not in clean.artifacts


app = typer.Typer()
app.command("check")(check_command)


@app.callback()
def _root() -> None:
    """Keep `check` a named subcommand, as in synth/cli.py."""


@pytest.mark.parametrize("name", ["exception", "prompt, middle (low)"])
def test_check_json_writes_the_report(name: str, tmp_path: Path):
    code = (CLEAN.replace("        if n < 2 or hi < 10:",
                          '        if n == 6:\n            raise ValueError("bad \\ud800 \\udfff")\n'
                          "        if n < 2 or hi < 10:")
            if name == "exception" else variant(name))
    path = tmp_path / "candidate.py"
    path.write_text(code, encoding="utf-8")
    res = CliRunner().invoke(app, ["check", str(path), "--json", "--sandbox", "process"],
                             env={"COLUMNS": "250"})
    assert res.exit_code == 1, res.output
    data = json.loads(res.stdout)
    assert data["passed"] is False
    text = json.dumps(data)
    assert "\\\\ud8" in text or "\\\\udf" in text  # the escapes, as text
    res = CliRunner().invoke(app, ["check", str(path), "--sandbox", "process"],
                             env={"COLUMNS": "250"})
    assert res.exit_code == 1 and "UnicodeEncodeError" not in res.output
    assert "\\ud800" in res.output or "\\udfff" in res.output


@pytest.mark.parametrize("backend", ALL_BACKENDS)
def test_the_finding_is_the_same_on_every_backend(backend: str):
    report = run_checks(variant("prompt, some cases only"), backend=require_backend(backend))
    decisive = report.decisive
    assert decisive is not None and decisive.name == "prompt"
    assert decisive.finding == "unencodable_text" and "U+DC80" in decisive.reason
    written(report)
