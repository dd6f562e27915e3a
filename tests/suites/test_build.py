"""Building a compiled bootcamp's code test suite (synth.suites.build): the shipped compiled
bootcamps, the compiled exemplar, a function bootcamp, the STRESS level, seeded bytes, inputs
the statement forbids left out and counted, and a hostile bootcamp kept out of this process."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
from suites_helpers import REPO, even_pairs_model, even_pairs_module, load_module

from generated_bootcamps import load_bootcamp
from synth.bootcamp import same_tokens
from synth.library import Library
from synth.sandbox import get_backend
from synth.serving.sampling import CaseSampler
from synth.suites.build import BuildError, BuildOptions, NotCompiledError, build_suite, time_limit
from synth.suites.draw import SERVER_LABEL
from synth.suites.format import read_suite, suite_text
from synth.values import canonical, decode

SMALL = BuildOptions(per_level=4, stress=2)


@pytest.fixture(scope="module")
def backend():
    return get_backend("process")


def _build(name: str, code: str, backend, options: BuildOptions = SMALL, **kw):
    return build_suite(name, code, code_sha256="0" * 64, backend=backend, options=options, **kw)


@pytest.mark.parametrize("name", ["codecontests_06_c_divisors_loyal_to_their_digits",
                                  "codecontests_16_f_bulbs_without_long_glows"])
def test_shipped_compiled_bootcamps(name: str, backend) -> None:
    rec, code = Library().checked_code(name)
    # their derived stress presets: tests/suites/test_derived_stress.py, docs/code-rl.md
    built = build_suite(name, code, code_sha256=rec.code_sha256, backend=backend,
                        options=SMALL.model_copy(update={"derive_stress": False}),
                        class_name=rec.class_name)
    suite, report = built.suite, built.report
    assert suite.kind == "stdin" and suite.judge == "tokens" and suite.language == "python3"
    assert suite.code_sha256 == rec.code_sha256 and suite.entry_point is None
    assert list(report.levels) == ["example", "easy", "medium", "hard"]
    # the statement's two examples first, expected = the reference's = the statement's
    examples = [t for t in suite.tests if t.level == "example"]
    assert len(examples) == 2 and suite.tests[:2] == examples
    assert not report.example_disagreements and all(t.identity is None for t in examples)
    # no STRESS on these modules (and none derived here): no stress tests, the report says so
    assert report.stress is None and "stress" not in suite.levels()
    assert any("no STRESS" in line for line in report.not_checked)
    # every expected output is the bootcamp's own answer key (imported here: trusted library)
    cls = load_bootcamp(name)
    for t in suite.tests[2:]:
        assert t.identity is not None and t.stdin == cls.render_stdin(t.identity)  # type: ignore[attr-defined]
        assert t.expected == cls.reference_answer(t.identity)
    assert report.rejected == [] and report.reference_failed == []
    assert suite.time_limit_s == 1.0 and report.slowest_s < 0.3
    # the text is canonical and reads back as the same suite
    assert read_suite(built.text) == suite and suite_text(read_suite(built.text)) == built.text


def test_compiled_exemplar(backend) -> None:
    code = (REPO / "tests" / "fixtures" / "compiled" / "13_strangers_to_m.py").read_text("utf-8")
    built = _build("strangers", code, backend)
    cls = load_module(code, "suite_exemplar").StrangersToMBootcamp
    # the exemplar's STRESS (10 queries up to the statement's 10^18 and 10^10) gives 2 tests
    assert built.suite.levels() == {"example": 1, "easy": 4, "medium": 4, "hard": 4, "stress": 2}
    stress = [t for t in built.suite.tests if t.level == "stress"]
    assert all(t.stdin.split("\n", 1)[0] == "10" for t in stress), stress
    example = built.suite.tests[0]
    assert example.stdin == "3\n10 6\n5 1\n12 12\n" and example.expected == "3\n5\n4"
    for t in built.suite.tests[1:]:
        assert t.expected == cls.reference_answer(t.identity)
    assert built.report.checked  # the statement's checker judged the inputs


def test_function_bootcamp(backend) -> None:
    rec, code = Library().checked_code("humaneval_46_fib4", include_unlisted=True)
    built = build_suite("humaneval_46_fib4", code, code_sha256=rec.code_sha256, backend=backend,
                        options=SMALL)
    suite = built.suite
    assert suite.kind == "function" and suite.judge == "value" and suite.entry_point == "fib4"
    # the docstring's three examples, their values the reference's (and the docstring's)
    assert [(t.args, t.expected) for t in suite.tests[:3]] == [([5], 4), ([6], 8), ([7], 14)]
    assert not built.report.example_disagreements

    def fib4(n: int) -> int:
        a = [0, 0, 2, 0]
        for _ in range(4, n + 1):
            a = [*a[1:], sum(a)]
        return a[n] if n < 4 else a[-1]

    assert len(suite.tests) > 3
    for t in suite.tests[3:]:
        assert t.identity is not None and t.args == [t.identity["n"]]
        assert t.expected == fib4(t.args[0])
    # duplicates (the same arguments) are gone, and counted
    keys = [canonical(decode(t.args)) for t in suite.tests]
    assert len(set(keys)) == len(keys)
    drawn = sum(s.drawn for s in built.report.levels.values())
    assert drawn == len(keys) + built.report.dropped()["duplicates"]


def test_stress_level_and_seeded_bytes(backend) -> None:
    code = even_pairs_module()
    one = _build("even_pairs", code, backend, BuildOptions(per_level=3, stress=2, seed=7))
    again = _build("even_pairs", code, backend, BuildOptions(per_level=3, stress=2, seed=7))
    other = _build("even_pairs", code, backend, BuildOptions(per_level=3, stress=2, seed=8))
    assert one.text == again.text and one.text != other.text
    assert one.report.stress == {"n": 20000, "hi": 10**9, "full": True}
    stress = [t for t in one.suite.tests if t.level == "stress"]
    assert len(stress) == 2 and [t.level for t in one.suite.tests][-2:] == ["stress", "stress"]
    assert all(len(t.identity["a"]) == 20000 for t in stress)  # type: ignore[index]
    assert all(t.stdin.startswith("20000\n") for t in stress)  # type: ignore[union-attr]
    assert one.suite.time_limit_s == time_limit(one.report.slowest_s) >= 1.0


def test_time_limit_rounding() -> None:
    assert time_limit(0.0) == 1.0 and time_limit(0.4) == 1.0 and time_limit(0.41) == 1.5
    assert time_limit(0.6) == 1.5 and time_limit(0.8) == 2.0 and time_limit(1.0) == 2.5
    assert time_limit(1.01) == 3.0


def test_stress_is_never_a_prompt_level(backend) -> None:
    sampler = CaseSampler(even_pairs_module(), backend=backend, name="even_pairs").start()
    try:
        assert sampler.stress is not None and "stress" not in sampler.levels
        with pytest.raises(KeyError):
            sampler.sample([("stress", 1)])  # export's draw (prompts): LEVELS only
        (drawn,) = sampler.sample([("stress", 1)], render="stdin")
        assert drawn.stdin is not None and drawn.stdin.startswith("20000\n") and drawn.prompt == ""
    finally:
        sampler.close()


def test_a_level_named_stress_is_refused(backend) -> None:
    model = even_pairs_model().replace('"hard": {"n": 100', '"stress": {"n": 100')
    with pytest.raises(BuildError, match="level named 'stress'"):
        _build("even_pairs", even_pairs_module(model), backend)


def test_illegal_inputs_are_left_out_and_counted(backend) -> None:
    # a generator that writes a 0 (the statement says 1 <= a_i) into about a third of its cases
    model = even_pairs_model().replace(
        '        return {"a": [rng.randint(1, self.hi) for _ in range(size)]}',
        '        a = [rng.randint(1, self.hi) for _ in range(size)]\n'
        '        if rng.random() < 0.35:\n'
        '            a[0] = 0\n'
        '        return {"a": a}')
    assert model != even_pairs_model()
    built = _build("even_pairs", even_pairs_module(model), backend,
                   BuildOptions(per_level=12, stress=2))
    report = built.report
    rejected = report.dropped()["rejected"]
    assert rejected > 0 and any("1 ≤ a" in line for line in report.rejected)
    drawn = sum(s.drawn for s in report.levels.values())
    assert len(built.suite.tests) + rejected + report.dropped()["duplicates"] == drawn
    for t in built.suite.tests:
        assert 0 not in [int(x) for x in (t.stdin or "").split()[1:]]
    # the library's input validator (validator_path) is asked too: here it forbids an even n
    validator = ('def validate(stdin):\n    n = int(stdin.split()[0])\n'
                 '    return "n must be odd" if n % 2 == 0 else None\n')
    judged = _build("even_pairs", even_pairs_module(), backend, BuildOptions(per_level=12),
                    validator=validator)
    assert any("n must be odd" in line for line in judged.report.rejected)
    assert all(int((t.stdin or "0").split()[0]) % 2 == 1 for t in judged.suite.tests
               if t.level != "example")
    assert any("input validator" in c for c in judged.report.checked)


def test_a_module_without_a_reference_is_not_compiled(backend) -> None:
    code = (REPO / "generated_bootcamps" / "handwritten" / "cipher.py").read_text("utf-8")
    with pytest.raises(NotCompiledError):
        _build("cipher", code, backend)


HOSTILE = '''"""Hostile compiled bootcamp for tests: probes the host from inside its sandbox."""
import os
from typing import Any

from synth.bootcamp import CompiledBootcamp

HOST_PID = {pid}
MARKER = {marker!r}


def attack():
    seen = {{}}
    try:
        os.kill(HOST_PID, 0)
        seen["signal"] = "allowed"
    except BaseException as exc:  # the kit's guard refuses it (SandboxViolation), or the OS
        seen["signal"] = type(exc).__name__
    try:
        with open(MARKER, "w") as fh:
            fh.write("reached the host")
        seen["write"] = "wrote"
    except BaseException as exc:
        seen["write"] = type(exc).__name__
    try:
        with open("/proc/%d/environ" % HOST_PID, "rb") as fh:
            seen["environ"] = "SYNTH_SUITE_SECRET" in fh.read().decode("utf-8", "replace")
    except BaseException as exc:
        seen["environ"] = type(exc).__name__
    seen["env"] = os.environ.get("SYNTH_SUITE_SECRET", "")
    return seen


class HostileBootcamp(CompiledBootcamp):
    LEVELS = {{"easy": {{}}}}

    def __init__(self, seed=None):
        super().__init__(seed=seed)

    def case_generator(self) -> dict[str, Any]:
        return {{"a": [self.rng.randint(1, 9)], "seen": attack()}}

    @staticmethod
    def render_stdin(identity):
        {render}
'''


def _hostile(tmp_path: Path, render: str = 'return f"1\\n{identity[\'a\'][0]}\\n"') -> str:
    model = HOSTILE.format(pid=os.getpid(), marker=str(tmp_path / "marker"), render=render)
    return even_pairs_module(model)


def test_a_hostile_bootcamp_cannot_reach_this_process(backend, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYNTH_SUITE_SECRET", "hunter2")
    before = set(sys.modules)
    built = _build("hostile", _hostile(tmp_path), backend, BuildOptions(per_level=2, stress=0))
    seen = [t.identity["seen"] for t in built.suite.tests if t.identity]  # type: ignore[index]
    assert seen, built.report
    for probe in seen:
        assert probe["signal"] != "allowed" and probe["write"] != "wrote"
        assert probe["environ"] is not True and probe["env"] == ""
    assert not (tmp_path / "marker").exists()
    assert "hunter2" not in built.text
    assert not {m for m in set(sys.modules) - before if "hostile" in m.lower()}


def test_a_hanging_or_crashing_bootcamp_stops_the_build(backend, tmp_path: Path) -> None:
    hang = _hostile(tmp_path, "while True:\n            pass")
    t0 = time.monotonic()
    with pytest.raises(BuildError, match="hostile"):
        _build("hostile", hang, backend, BuildOptions(per_level=2, stress=0, call_limit_s=1.0))
    assert time.monotonic() - t0 < 30
    crash = _hostile(tmp_path, "raise SystemExit(3)")
    with pytest.raises(BuildError, match="hostile"):
        _build("hostile", crash, backend, BuildOptions(per_level=2, stress=0))
    from helpers import assert_no_leftovers

    assert_no_leftovers(SERVER_LABEL)


def test_the_suite_text_is_checked_when_read() -> None:
    from synth.suites.format import SuiteFormatError

    good = {"version": 1, "kind": "stdin", "language": "python3", "bootcamp": "b",
            "code_sha256": "a" * 64, "judge": "tokens", "time_limit_s": 1.0, "memory_mb": 256,
            "tests": [{"level": "example", "stdin": "1\n", "expected": "1", "identity": None}]}
    assert read_suite(json.dumps(good)).tests[0].expected == "1"
    for bad in ({**good, "judge": "value"}, {**good, "entry_point": "f"}, {**good, "extra": 1},
                {**good, "tests": [{"level": "x", "args": [1], "expected": 1, "identity": None}]},
                {**good, "kind": "function", "judge": "value"}):
        with pytest.raises(SuiteFormatError):
            read_suite(json.dumps(bad))
    with pytest.raises(SuiteFormatError):
        read_suite("[1]")
    assert same_tokens("1", "1")


def test_a_stress_case_may_be_as_large_as_its_input() -> None:
    """A stress case that stores its 2*10^5 values is over the 1 MB a prompt case may be: the
    host takes it for a code test suite (``render="stdin"``, as large as the input may be) and
    still refuses it for a prompt."""
    from synth.sandbox.kit import canonical
    from synth.serving.sampling import MAX_CASE_CHARS, MAX_STDIN_CHARS, _row

    case = canonical({"values": [10**9 - k for k in range(200_000)]})
    assert MAX_CASE_CHARS < len(case) < MAX_STDIN_CHARS
    stdin = "200000\n" + " ".join(str(10**9 - k) for k in range(200_000)) + "\n"
    row = {"case": {"text": case}, "stdin": stdin, "prompt": "p", "answer": "a"}
    sample = _row(row, "stress", 7, answers=False, render="stdin")
    assert sample.case_text == case and sample.stdin == stdin
    with pytest.raises(ValueError, match="characters of JSON"):
        _row(row, "hard", 7, answers=False, render="prompt")
    too_big = canonical({"values": ["x" * 1000] * (MAX_STDIN_CHARS // 1000)})
    with pytest.raises(ValueError, match="characters of JSON"):
        _row({**row, "case": {"text": too_big}}, "stress", 7, answers=False, render="stdin")
