"""synth.integrations.trl's reward function on code rows: string and conversational completions,
the flat ground-truth column, answer rows and code rows mixed in one batch, fraction as an
option; each score is the code reward's (recomputed here with a direct CodeReward)."""

from __future__ import annotations

import json
from typing import Any

from code_rows import build_suite, code_row, fenced
from helpers import TOY_SUM, make_library

from synth.integrations.trl import bootcamp_reward_func
from synth.library import Library

LOYAL = "codecontests_06_c_divisors_loyal_to_their_digits"
RIGHT = ("n = int(input())\nc = 0\nd = 1\nwhile d * d <= n:\n    if n % d == 0:\n"
         "        for x in {d, n // d}:\n            c += x % sum(map(int, str(x))) == 0\n"
         "    d += 1\nprint(c)\n")


def test_trl_reward_scores_code_rows(code_library: Library) -> None:
    if "toy_sum" not in {r.name for r in code_library.records()}:
        make_library(code_library.root, toy_sum=TOY_SUM)  # an answer row's bootcamp beside them
    rows = [code_row(build_suite(code_library, LOYAL, {"easy": 3, "hard": 3}, seed=s))
            for s in range(2)]
    rows.append(code_row(build_suite(code_library, "toy_two_summands", {"easy": 2})))
    tests = json.loads(rows[1]["reward_model"]["ground_truth"])["tests"]
    first = tests[0]["identity"]["n"]  # a program right on the tests of this n only
    half = f"n = int(input())\nprint({tests[0]['expected']} if n == {first} else -1)\n"
    want = sum(t["identity"]["n"] == first for t in tests) / len(tests)
    assert 0 < want < 1
    answer_row = {"data_source": "bootcamp/toy_sum", "extra_info": None,
                  "reward_model": {"style": "rule", "ground_truth": '{"numbers": [1, 2]}'}}
    completions: list[Any] = [fenced(RIGHT), [{"role": "assistant", "content": fenced(half)}],
                              fenced("n = int(input())\nprint(n - 2, 2)\n"),
                              "<answer>3</answer>", "no program at all"]
    batch = [*rows, answer_row, rows[0]]
    columns = {"data_source": [r["data_source"] for r in batch],
               "reward_model": [r["reward_model"] for r in batch],
               "extra_info": [r["extra_info"] for r in batch]}
    func = bootcamp_reward_func(code_library.root, backend="process", runners=2)
    share = bootcamp_reward_func(code_library.root, backend="process", runners=1, fraction=True)
    try:
        got = func(prompts=[r.get("prompt") for r in batch], completions=completions, **columns)
        flat = func(completions=completions, data_source=columns["data_source"],
                    ground_truth=[r["reward_model"]["ground_truth"] for r in batch],
                    extra_info=columns["extra_info"])
        fractions = share(completions=completions, **columns)
    finally:
        func.close()
        share.close()
    assert got == flat == [1.0, 0.0, 1.0, 1.0, 0.0]
    assert fractions == [1.0, want, 1.0, 1.0, 0.0]
