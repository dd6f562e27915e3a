"""The code reward (synth.training.code_reward) through compute_score's routing: the program
found in a response, each judge (tokens, value, check_output with several valid outputs),
all-or-nothing and fraction, broken data raising RewardDataError, a sandbox that cannot run
raising RewardSandboxError, a defective check_output as a finding, quarantine."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from code_rows import TWO_SUMMANDS, build_suite, canonical_json, code_row, fenced
from helpers import assert_no_leftovers

from synth.library import Library
from synth.sandbox.program_pool import ProgramPool, wall_limit
from synth.training import reward
from synth.training.code_reward import CodeReward, extract_program, parse_suite
from synth.training.reward import (
    RewardDataError,
    RewardSandboxError,
    make_compute_score,
)

LOYAL = "codecontests_06_c_divisors_loyal_to_their_digits"
LABEL = "synth-code-reward-test"
RIGHT_LOYAL = """\
n = int(input())
count = 0
d = 1
while d * d <= n:
    if n % d == 0:
        for x in {d, n // d}:
            count += x % sum(map(int, str(x))) == 0
    d += 1
print(count)
"""
WRONG_LOYAL = RIGHT_LOYAL.replace("while d * d <= n", "while d * d < n")  # misses square roots
pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def score(code_library: Library) -> Any:
    scorer = make_compute_score(code_library.root, backend="process", runners=2)
    scorer._code_reward().label = LABEL
    yield scorer
    scorer.close()
    assert_no_leftovers(LABEL)


def _row(library: Library, name: str, per_level: dict[str, int], **kw: Any) -> dict[str, Any]:
    return code_row(build_suite(library, name, per_level, **kw))


def _call(score: Any, row: dict[str, Any], text: Any, **kw: Any) -> float:
    return score(row["data_source"], text, row["reward_model"]["ground_truth"],
                 row["extra_info"], **kw)


# -- the program in a response ----------------------------------------------------------------


@pytest.mark.parametrize(("text", "want"), [
    ("```python\nprint(1)\n```", "print(1)\n"),
    ("a\n```py\nx = 1\n```\nthen\n```\nprint(2)\n```\nbye", "print(2)\n"),  # the last block
    ("```python\nprint(1)\n```\n```text\nnot code\n```", "print(1)\n"),  # other languages skipped
    ("```Python3 title\r\nprint(3)\r\n```\r\n", "print(3)\n"),  # CRLF, info words, case
    ("````python\n```\nprint(4)\n````", "```\nprint(4)\n"),  # a longer fence holds a shorter one
    ("   ```python\nprint(5)\n   ```", "print(5)\n"),
    ("```python\nprint(1)\n", None),  # unclosed
    ("```python\n\n   \n```", None),  # blank
    ("no code at all", None),
    ("```\n``` python\n", None),  # an opener line is not a closer: still open
    (None, None),
    (["```python\nprint(1)\n```"], None),
])
def test_extract_program(text: Any, want: str | None) -> None:
    assert extract_program(text) == want


def test_extraction_is_linear_on_hostile_text() -> None:
    for text in ("`" * 2_000_000, "```python\n" * 300_000, ("```\n" + "x" * 50) * 50_000,
                 " " * 3 + "```" + "`" * 1_000_000 + "python"):
        t0 = time.monotonic()
        extract_program(text)
        assert time.monotonic() - t0 < 2.0


# -- the judges ---------------------------------------------------------------------------------


def test_tokens_judge_right_wrong_and_no_code(score: Any, code_library: Library) -> None:
    row = _row(code_library, LOYAL, {"easy": 2, "hard": 3}, examples=[("24\n", "8\n")])
    assert _call(score, row, fenced(RIGHT_LOYAL)) == 1.0
    assert _call(score, row, fenced(RIGHT_LOYAL.replace("print(count)", "print(count, end=' \\n\\n')"))) == 1.0
    assert _call(score, row, fenced(WRONG_LOYAL.replace("count = 0", "count = 1"))) == 0.0
    assert _call(score, row, "I would loop over the divisors.") == 0.0
    assert _call(score, row, fenced(RIGHT_LOYAL, "cpp")) == 0.0  # not a Python block
    assert _call(score, row, fenced(RIGHT_LOYAL.replace("print(count)", "print(count)\nexit(1)"))) == 0.0
    assert _call(score, row, fenced("print('\ud800')")) == 0.0  # text no file can hold


def test_the_time_limit_is_cpu_time(score: Any, code_library: Library) -> None:
    suite = build_suite(code_library, LOYAL, {"easy": 2}, time_limit_s=0.5)
    row = code_row(suite)
    # sleeping costs no CPU: a run that sleeps past the limit (but not past the wall limit of
    # 3 x 0.5 + 2 s) passes; one that computes past it fails; one that sleeps forever is killed
    sleepy = "import time\ntime.sleep(0.8)\n" + RIGHT_LOYAL
    busy = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.8:\n    pass\n" + RIGHT_LOYAL
    assert _call(score, row, fenced(sleepy)) == 1.0
    evaluated = score._code_reward().evaluate(row["data_source"], fenced(busy),
                                             row["reward_model"]["ground_truth"])
    first = evaluated.outcomes[0]
    assert evaluated.score == 0.0
    # over the CPU limit; or, on a machine too loaded to give it 0.8 s of CPU in 3.5 s, killed
    assert (first.cpu_s > 0.5 and "s of CPU >" in first.detail) or first.status == "timeout"
    t0 = time.monotonic()
    evaluated = score._code_reward().evaluate(
        row["data_source"], fenced("import time\ntime.sleep(60)\n"),
        row["reward_model"]["ground_truth"], fraction=True)
    assert [o.status for o in evaluated.outcomes] == ["timeout", "timeout"]
    assert time.monotonic() - t0 < 2 * wall_limit(0.5) + 5.0


def test_fraction_is_the_share_of_tests_passed(score: Any, code_library: Library) -> None:
    suite = build_suite(code_library, LOYAL, {"easy": 4})
    # a program right on two tests only
    tests = suite["tests"][:2]
    cases = "".join(f"if n == {json.loads(json.dumps(t['identity']))['n']}:\n    print({t['expected']})\n    raise SystemExit\n" for t in tests)
    program = f"n = int(input())\n{cases}print(-1)\n"
    row = code_row(suite)
    distinct = len({t["identity"]["n"] for t in suite["tests"]})
    want = sum(t["identity"]["n"] in {x["identity"]["n"] for x in tests} for t in suite["tests"]) / 4
    assert distinct >= 3, suite["tests"]
    assert _call(score, row, fenced(program), fraction=True) == want
    assert _call(score, row, fenced(program)) == 0.0
    evaluated = score._code_reward().evaluate(row["data_source"], fenced(program),
                                             row["reward_model"]["ground_truth"], fraction=False)
    assert len(evaluated.outcomes) < 4 or not evaluated.outcomes[-1].passed  # stopped at a failure
    assert evaluated.outcomes[-1].passed is False


def test_check_output_accepts_every_valid_output(score: Any, code_library: Library) -> None:
    row = _row(code_library, "toy_two_summands", {"easy": 3, "hard": 3})
    suite = json.loads(row["reward_model"]["ground_truth"])
    assert all(t["expected"].startswith("1 ") for t in suite["tests"])
    reference_style = "n = int(input())\nprint(1, n - 1)\n"
    other_style = "n = int(input())\nprint(n // 2, n - n // 2)\n"  # never the reference's output
    as_lines = "n = int(input())\nprint(n - 1)\nprint(1)\n"
    assert _call(score, row, fenced(reference_style)) == 1.0
    assert _call(score, row, fenced(other_style)) == 1.0
    assert _call(score, row, fenced(as_lines)) == 1.0
    assert _call(score, row, fenced("n = int(input())\nprint(0, n)\n")) == 0.0
    assert _call(score, row, fenced("n = int(input())\nprint(n // 2, n - n // 2 + 1)\n")) == 0.0
    # an output holding the answer tags is shown as an empty answer
    assert _call(score, row, fenced(
        "n = int(input())\nprint('<answer>', 1, n - 1, '</answer>')\n")) == 0.0
    # an example has no identity: the bootcamp's rule cannot judge it, and tokens would reject
    # the other valid outputs ("2 3" for 5): it is not run (3 judged tests, not 4)
    with_example = _row(code_library, "toy_two_summands", {"easy": 3}, examples=[("5\n", "1 4")])
    evaluated = score._code_reward().evaluate(with_example["data_source"], fenced(other_style),
                                             with_example["reward_model"]["ground_truth"])
    assert evaluated.score == 1.0 and evaluated.total == 3 and evaluated.passed == 3
    assert [o.level for o in evaluated.outcomes] == ["easy"] * 3


def test_value_judge_by_the_function_contract(score: Any, code_library: Library) -> None:
    row = _row(code_library, "toy_min_max", {"easy": 3, "hard": 3})
    assert _call(score, row, fenced("def min_max(xs):\n    return min(xs), max(xs)\n")) == 1.0
    # a list for a tuple is accepted by the contract's rule; test code under __main__ never runs
    assert _call(score, row, fenced(
        "def min_max(xs):\n    print('debug')\n    return [min(xs), max(xs)]\n\n"
        "if __name__ == '__main__':\n    raise SystemExit(1)\n")) == 1.0
    assert _call(score, row, fenced("def min_max(xs):\n    return (max(xs), min(xs))\n")) == 0.0
    assert _call(score, row, fenced("def minmax(xs):\n    return (min(xs), max(xs))\n")) == 0.0
    assert _call(score, row, fenced("def min_max(xs):\n    return object()\n")) == 0.0
    assert _call(score, row, fenced("def min_max(xs):\n    return (float(min(xs)), max(xs))\n"),
                 fraction=True) == 0.0  # an int is not a float


# -- broken data, no sandbox, findings, quarantine ----------------------------------------------


def test_broken_data_raises(score: Any, code_library: Library) -> None:
    suite = build_suite(code_library, LOYAL, {"easy": 2})
    row = code_row(suite)
    text = fenced(RIGHT_LOYAL)

    def bad(data_source: str, truth: Any, extra: Any = None) -> str:
        with pytest.raises(RewardDataError) as info:
            score(data_source, text, truth, extra)
        return str(info.value)

    truth = row["reward_model"]["ground_truth"]
    assert "not JSON" in bad(row["data_source"], "{nope")
    assert "not a JSON object" in bad(row["data_source"], "[1]")
    assert "keys" in bad(row["data_source"], canonical_json({**suite, "extra": 1}))
    assert "holds a suite of bootcamp" in bad("code/toy_two_summands", truth)
    assert "no bootcamp" in bad("code/no_such_bootcamp",
                                canonical_json({**suite, "bootcamp": "no_such_bootcamp"}))
    assert "sha256" in bad(row["data_source"], canonical_json({**suite, "code_sha256": "0" * 64}))
    assert "suite_sha256" in bad(row["data_source"], truth, {"suite_sha256": "0" * 64})
    assert "time_limit_s" in bad(row["data_source"], canonical_json({**suite, "time_limit_s": 0}))
    assert "judge" in bad(row["data_source"], canonical_json({**suite, "judge": "value"}))
    no_tests = canonical_json({**suite, "tests": []})
    assert "tests" in bad(row["data_source"], no_tests)
    examples_only = canonical_json(build_suite(code_library, "toy_two_summands", {},
                                               examples=[("5\n", "1 4")]))
    assert "identity" in bad("code/toy_two_summands", examples_only)
    with pytest.raises(RewardDataError):
        parse_suite(row["data_source"], json.dumps({**suite, "tests": [{"level": "x"}]}))
    # a response is never broken data: garbage scores 0
    assert score(row["data_source"], None, truth) == 0.0
    assert score(row["data_source"], "```python\n" + "\x00" * 10 + "\n```", truth) == 0.0


class _NoSpawn:
    name = "nospawn"

    def probe(self) -> tuple[bool, str]:
        return True, "ok"

    def run(self, job: Any, limits: Any) -> Any:
        raise AssertionError("not used")

    def spawn(self, job: Any, limits: Any) -> Any:
        raise RuntimeError("no namespaces here")

    def close(self) -> None:
        pass


def test_a_sandbox_that_cannot_run_raises(code_library: Library) -> None:
    row = _row(code_library, LOYAL, {"easy": 1})
    code = CodeReward(code_library, size=1)
    code._pool = ProgramPool(1, _NoSpawn())  # type: ignore[arg-type]
    try:
        with pytest.raises(RewardSandboxError, match="no namespaces here"):
            code(row["data_source"], fenced(RIGHT_LOYAL), row["reward_model"]["ground_truth"])
        assert code(row["data_source"], "no code", row["reward_model"]["ground_truth"]) == 0.0
    finally:
        code.close()


def test_a_raising_check_output_is_a_finding_and_quarantine_refuses(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    crashy = TWO_SUMMANDS.replace("TwoSummandsBootcamp", "CrashySummandsBootcamp").replace(
        "        parts = answer.split()\n",
        "        if answer.startswith('7'):\n            raise RuntimeError('checker bug')\n"
        "        parts = answer.split()\n")
    lib = Library(tmp_path)
    lib.commit(name="crashy_summands", code=crashy, class_name="CrashySummandsBootcamp",
               source="toys", task_id="toys/crashy", origin="handwritten")
    row = _row(lib, "crashy_summands", {"easy": 3})
    scorer = make_compute_score(tmp_path, backend="process", runners=1, canary_rate=0)
    findings = reward.FINDINGS["crashy_summands"]
    try:
        assert _call(scorer, row, fenced("n = int(input())\nprint(1, n - 1)\n")) == 1.0
        assert reward.FINDINGS["crashy_summands"] == findings
        with caplog.at_level(logging.ERROR, logger="synth.training.reward"):
            assert _call(scorer, row, fenced("n = int(input())\nprint(7, n - 7)\n")) == 0.0
        assert reward.FINDINGS["crashy_summands"] == findings + 1
        assert "checker bug" in caplog.text and "code/crashy_summands" in caplog.text
        scorer.quarantined["crashy_summands"] = reward.Quarantine(
            bootcamp="crashy_summands", finding="test", case="{}")
        assert _call(scorer, row, fenced("n = int(input())\nprint(1, n - 1)\n")) == 0.0
        assert reward.FINDINGS["crashy_summands"] == findings + 2
    finally:
        scorer.close()


def test_trusted_library_still_sandboxes_programs(code_library: Library) -> None:
    row = _row(code_library, "toy_two_summands", {"easy": 2})
    trusted = make_compute_score(code_library.root, trust_library_code=True, runners=1,
                                 runner_backend="process")
    try:
        assert _call(trusted, row, fenced("n = int(input())\nprint(n - 1, 1)\n")) == 1.0
        assert _call(trusted, row, fenced("import os\nprint(os.getpid(), 0)\n")) == 0.0
    finally:
        trusted.close()
