"""Rows written by ``synth export --format code`` (synth.suites.export) are scored by the code
reward as the direct run of their suites scores them: the exporter's suites of two compiled
CodeContests bootcamps (tokens), a task with several valid outputs (check_output, its statement
example without an identity) and a function task (value), each with a right program, another
right one, a wrong one and no program, all-or-nothing and fraction."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from code_rows import direct_score, fenced

from synth.library import Library
from synth.sandbox import get_backend
from synth.suites.export import CodeExportConfig, export_code
from synth.training.reward import make_compute_score

PROGRAMS: dict[str, tuple[str, str, str]] = {  # right, right in another style, wrong
    "codecontests_06_c_divisors_loyal_to_their_digits": (
        "n = int(input())\nc = 0\nd = 1\nwhile d * d <= n:\n    if n % d == 0:\n"
        "        for x in {d, n // d}:\n            c += x % sum(map(int, str(x))) == 0\n"
        "    d += 1\nprint(c)\n",
        "import sys\nn = int(sys.stdin.read())\nprint(sum(1 for d in range(1, n + 1) if n % d == 0 "
        "and d % sum(map(int, str(d))) == 0))\n",
        "n = int(input())\nprint(sum(1 for d in range(1, n) if n % d == 0))\n"),
    "codecontests_16_f_bulbs_without_long_glows": (
        "MOD = 10**9 + 7\nn, k = map(int, input().split())\ndp = [1] + [0] * (k - 1)\n"
        "for _ in range(n):\n    dp = [sum(dp) % MOD] + dp[:-1]\nprint(sum(dp) % MOD)\n",
        "from functools import lru_cache\nn, k = map(int, input().split())\n\n"
        "@lru_cache(None)\ndef f(left, ones):\n    if ones >= k:\n        return 0\n"
        "    if left == 0:\n        return 1\n"
        "    return (f(left - 1, 0) + f(left - 1, ones + 1)) % (10**9 + 7)\n\nprint(f(n, 0))\n",
        "n, k = map(int, input().split())\nprint(2 ** n)\n"),
    "toy_two_summands": ("n = int(input())\nprint(1, n - 1)\n",
                         "n = int(input())\nprint(n // 2, n - n // 2)\n",
                         "n = int(input())\nprint(0, n)\n"),
    "toy_min_max": ("def min_max(xs):\n    return (min(xs), max(xs))\n",
                    "def min_max(xs):\n    return [sorted(xs)[0], sorted(xs)[-1]]\n",
                    "def min_max(xs):\n    return (xs[0], xs[-1])\n"),
}
pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def rows(code_library: Library, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("code-rows")
    summary = export_code(CodeExportConfig(out=out, library=code_library.root, sandbox="process",
                                           tests_per_level=3, stress_tests=0, seed=4))
    assert summary.rows == {"train": 4, "test": 0}, summary
    return [json.loads(line) for line in (Path(out) / "train.jsonl").read_text().splitlines()]


def test_exported_rows_score_as_the_direct_run(code_library: Library,
                                               rows: list[dict[str, Any]]) -> None:
    backend = get_backend("process")
    score = make_compute_score(code_library.root, backend="process", runners=2)
    kinds = set()
    try:
        for row in rows:
            name = row["extra_info"]["bootcamp"]
            suite = json.loads(row["reward_model"]["ground_truth"])
            kinds.add((suite["kind"], suite["judge"]))
            right, other, wrong = PROGRAMS[name]
            for text in (fenced(right), fenced(other), fenced(wrong), "no program"):
                got = [score(row["data_source"], text, row["reward_model"]["ground_truth"],
                             row["extra_info"], fraction=f) for f in (False, True)]
                want = [direct_score(backend, code_library, suite, text, fraction=f)
                        for f in (False, True)]
                assert got == want, (name, text[:80], got, want)
            assert got == [0.0, 0.0]
            for text in (fenced(right), fenced(other)):
                assert score(row["data_source"], text, row["reward_model"]["ground_truth"],
                             row["extra_info"]) == 1.0, (name, text[:80])
            assert score(row["data_source"], fenced(wrong), row["reward_model"]["ground_truth"],
                         row["extra_info"]) == 0.0
    finally:
        score.close()
    assert kinds == {("stdin", "tokens"), ("stdin", "check_output"), ("function", "value")}
