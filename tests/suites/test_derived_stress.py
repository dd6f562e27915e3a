"""A stress preset derived for a compiled bootcamp that declares no STRESS (synth.suites.stress):
grown from the hardest level within what the statement, the validator and the bootcamp allow,
held to the gate's STRESS rules, seeded; and what the suite reports, exports and measures.

The fixture is "Odd Digits" (tests/suites/fixtures: n <= 3000 digits; the hard level has n = 50
and a percentage knob, odd_pct, that never changes the input's length)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from suites_helpers import (
    LABELLED_DERIVED,
    ODD_DIGITS_TASK,
    compiled_library,
    odd_digits_model,
    odd_digits_module,
    odd_digits_text,
)
from typer.testing import CliRunner

from synth.cli import app
from synth.gate.inputs import input_checker, judge_stress
from synth.sandbox import get_backend
from synth.serving.sampling import CaseSampler
from synth.suites.build import BuildOptions, BuiltSuite, build_suite
from synth.suites.export import CodeExportConfig, export_code
from synth.suites.stress import derive_stress

OPTIONS = BuildOptions(per_level=2, stress=3, seed=5)
EXAMPLES = ["4\n1 2 3 4\n", "1\n8\n"]


@pytest.fixture(scope="module")
def backend():
    return get_backend("process")


def _build(code: str, backend, options: BuildOptions = OPTIONS, **kw: object) -> BuiltSuite:
    return build_suite("odd_digits", code, code_sha256="0" * 64, backend=backend,
                       options=options, **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def built(backend) -> BuiltSuite:
    return _build(odd_digits_module(), backend)


def _trials(b: BuiltSuite) -> list[str]:
    assert b.report.derivation is not None
    return b.report.derivation.trials


def test_a_derived_preset_is_larger_and_passes_the_stress_checks(built: BuiltSuite) -> None:
    r, d = built.report, built.report.derivation
    assert d is not None and d.start_level == "hard" and d.start == {"n": 50, "odd_pct": 50}
    assert r.stress_derived and r.stress == d.preset
    assert 50 < r.stress["n"] <= 3000, r.stress  # grown, within the statement's bound
    stress = [t.stdin or "" for t in built.suite.tests if t.level == "stress"]
    others = [t.stdin or "" for t in built.suite.tests if t.level not in ("stress", "example")]
    assert len(stress) == 3 and r.levels["stress"].kept == 3
    assert min(map(len, stress)) > max(map(len, others)) == d.largest_level
    assert max(map(len, stress)) == d.largest
    # the gate's own STRESS rules (the reference's run aside) pass on the suite's stress inputs
    assert judge_stress(stress, d.largest_level, input_checker(odd_digits_text(), EXAMPLES)) \
        is None
    assert any("derived from 'hard'" in line for line in r.checked), r.checked
    assert d.elapsed_s < 60 and len(d.trials) <= 30


def test_growth_the_statement_forbids_is_backed_off(built: BuiltSuite) -> None:
    trials = _trials(built)
    too_far = [t for t in trials if t.startswith("n=") and "too far" in t]
    assert too_far and all("does not allow" in t and "n ≤ 3000" in t for t in too_far), trials
    assert all(int(t.split("=")[1].split(":")[0]) > 3000 for t in too_far)
    kept = [int(t.split("=")[1].split(":")[0]) for t in trials if ": kept" in t]
    assert kept == sorted(kept) and kept[-1] == built.report.stress["n"]  # type: ignore[index]


def test_a_knob_that_does_not_grow_inputs_is_left_alone(built: BuiltSuite) -> None:
    assert built.report.stress["odd_pct"] == 50  # type: ignore[index]
    assert any(t.startswith("odd_pct=100: its inputs do not grow") for t in _trials(built))


def test_the_same_seed_gives_the_same_preset_and_suite(built: BuiltSuite, backend) -> None:
    again = _build(odd_digits_module(), backend)
    assert again.text == built.text and _trials(again) == _trials(built)


def test_a_generator_that_raises_on_large_values(backend) -> None:
    model = odd_digits_model().replace(
        "        rng = self.rng\n",
        "        rng = self.rng\n        if self.n > 700:\n"
        "            raise ValueError('need n <= 700')\n")
    b = _build(odd_digits_module(model), backend)
    assert b.report.stress_derived and 50 < b.report.stress["n"] <= 700  # type: ignore[index]
    assert any("the bootcamp failed" in t and "need n <= 700" in t for t in _trials(b))
    assert b.report.levels["stress"].kept == 3


def test_the_library_validator_bounds_the_growth(backend) -> None:
    validator = ("def validate(stdin):\n    n = int(stdin.split()[0])\n"
                 "    return None if n <= 400 else f'n = {n} > 400'\n")
    b = _build(odd_digits_module(), backend, validator=validator)
    assert b.report.stress_derived and 50 < b.report.stress["n"] <= 400  # type: ignore[index]
    assert any("the input validator rejects case 0: n = " in t for t in _trials(b))


def test_no_int_parameter_no_stress_with_the_reason(backend) -> None:
    model = odd_digits_model().replace('"hard": {"n": 50, "odd_pct": 50}', '"hard": {}')
    b = _build(odd_digits_module(model), backend)
    d = b.report.derivation
    assert d is not None and d.preset is None and d.trials == []
    assert "no positive int parameter" in d.why
    assert b.report.stress is None and not b.report.stress_derived
    assert "stress" not in b.suite.levels()
    assert any("declares no STRESS: no stress tests; no stress level derived: the hardest "
               "level's preset {} has no positive int parameter" in line
               for line in b.report.not_checked), b.report.not_checked
    off = _build(odd_digits_module(), backend, BuildOptions(per_level=2, stress=3,
                                                            derive_stress=False))
    assert off.report.derivation is None and off.report.stress is None
    assert "stress" not in off.suite.levels()


def test_the_search_is_bounded_and_says_why(backend) -> None:
    """The search alone, with judges that take or refuse everything."""
    with CaseSampler(odd_digits_module(), backend=backend) as sampler:
        bounded = derive_stress(sampler, seeds=[1, 2, 3], largest_level=0,
                                judge=lambda stdins, largest: None, max_trials=3)
        refused = derive_stress(sampler, seeds=[1, 2, 3], largest_level=0,
                                judge=lambda stdins, largest: "no", max_trials=30)
        with pytest.raises(ValueError, match="without STRESS"):
            sampler.sample([("stress", 1)], stress={"n": 5})  # a prompt draw: refused
    # x2, then x4, then x16 (the factor squared after each kept step)
    assert bounded.trials[0].startswith("n=100: kept") and len(bounded.trials) == 3
    assert bounded.preset == {"n": 6400, "odd_pct": 50}
    assert bounded.why == f"stopped after 3 trials, {bounded.elapsed_s:.1f} s"
    assert refused.preset is None and "first rejection: n=100: no" in refused.why
    # every exponent refused: x2 and x1.41 for n; x2 for odd_pct; nothing tried twice
    assert [t.split(":")[0] for t in refused.trials] == ["n=100", "n=70", "odd_pct=100",
                                                         "odd_pct=70"]


def test_a_value_grows_on_until_it_adds_a_digit(backend) -> None:
    """An input that is one number (as on tasks 06 and 16): doubling it seldom lengthens the
    input, so steps that do not grow it are not judged, and the exponent grows on."""
    model = odd_digits_model().replace("return f\"{len(d)}\\n{' '.join(map(str, d))}\\n\"",
                                       "return f\"{len(d)}\\n\"")
    assert model != odd_digits_model()
    judged: list[int] = []
    with CaseSampler(odd_digits_module(model), backend=backend) as sampler:
        d = derive_stress(sampler, seeds=[1, 2, 3], largest_level=4,  # "50\n" and the like
                          judge=lambda stdins, largest: judged.append(len(stdins)) or None,
                          max_trials=4)
    assert [t.split(":")[0] for t in d.trials] == ["n=100", "n=200", "n=800", "n=12800"]
    assert all("do not grow" in t for t in d.trials[:3]) and d.trials[3].endswith("kept (6 "
                                                                                 "characters)")
    assert judged == [3] and d.preset == {"n": 12800, "odd_pct": 50}


def test_rows_and_suite_eval_say_the_preset_was_derived(tmp_path: Path) -> None:
    lib = compiled_library(tmp_path / "lib", {"odd_digits": odd_digits_module()},
                           task_id=ODD_DIGITS_TASK)
    summary = export_code(CodeExportConfig(out=tmp_path / "rows", library=lib.root,
                                           sandbox="process", tests_per_level=2, stress_tests=2))
    (row,) = [json.loads(x) for x in (tmp_path / "rows" / "train.jsonl").read_text().splitlines()]
    preset = summary.built["odd_digits"].stress
    assert row["extra_info"]["stress"] == "derived" and row["extra_info"]["levels"]["stress"] == 2
    assert json.loads(row["extra_info"]["stress_preset"]) == preset and preset is not None
    out = tmp_path / "eval.json"
    result = CliRunner().invoke(app, [
        "suite-eval", "--labelled", str(LABELLED_DERIVED), "--library", str(lib.root),
        "--sandbox", "process", "--tests-per-level", "2", "--stress-tests", "2", "--json",
        str(out)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "its stress tests come from a derived preset" in result.output
    (task,) = json.loads(out.read_text())["tasks"]
    assert task["stress_derived"] and task["stress"] == preset
    # the program that reads at most 1000 digits passes every level and fails only stress
    assert task["suites"]["no_stress"]["tnr"] == 0.5 and task["suites"]["full"]["tnr"] == 1.0
    assert task["catches"]["large_only"] == {"programs": 1, "examples": 0, "levels": 0,
                                             "stress": 1, "missed": 0}
