"""The prompt shows the input the program reads (issue 21, item 4), and an answer is not
copied from the prompt.

A compiled bootcamp's answer key is its program's output on ``render_stdin(case)``; a prompt
that shows the case differently (sorted, another field, a value dropped, 0-based where stdin
is 1-based) asks the model about one input and grades it on another. The ``prompt`` check
fails such a module with ``prompt_hides_input`` and both texts; the contract's default prompt
and a prompt that only differs in whitespace pass. One module-scoped gate run covers every
variant (in parallel)."""

from __future__ import annotations

from pathlib import Path

import pytest

from synth.gate.corpus import GateJob, run_parallel
from synth.gate.prompt_input import copy_candidates, first_difference, shows_block
from synth.gate.report import CheckReport
from synth.sandbox.base import Backend

TESTS = Path(__file__).resolve().parents[1]
COMPILED = TESTS / "fixtures" / "compiled"
INPUTS = TESTS / "defects" / "inputs" / "corpus"
PAIR = (COMPILED / "pair_sum.py").read_text(encoding="utf-8")
SHOWN = '"Input:\\n```\\n" + _render(identity) + "```\\n\\n"'
PAIR_VARIANTS = {
    # whitespace only: spaces doubled, trailing spaces, no final newline -- must pass
    "pair_whitespace": '"Input:\\n```\\n" + _render(identity).replace(" ", "  ").replace('
                       '"\\n", "   \\n").rstrip() + "\\n```\\n\\n"',
    # realistic defects
    "pair_sorted": '"Input:\\n```\\n" + _render({**identity, "a": sorted(identity["a"])}) '
                   '+ "```\\n\\n"',
    "pair_other_field": '"Input:\\n```\\n" + _render({**identity, "s": len(identity["a"])}) '
                        '+ "```\\n\\n"',
    "pair_drops_value": '"Input:\\n```\\n" + _render({**identity, "a": identity["a"][:-1]})'
                        ' + "```\\n\\n"',
}


def _jobs() -> list[GateJob]:
    assert PAIR.count(SHOWN) == 1
    jobs = [GateJob("pair_clean", PAIR)]
    jobs += [GateJob(name, PAIR.replace(SHOWN, shown)) for name, shown in PAIR_VARIANTS.items()]
    # the contract's default prompt_func (TASK_TEXT, then the stdin in a ``` block)
    jobs.append(GateJob("default_prompt", (COMPILED / "13_strangers_to_m.py").read_text()))
    # 0-based seats in the prompt, 1-based in stdin; and its correct twin
    for name in ("seat_prompt_zero_based", "seat_cycles"):
        jobs.append(GateJob(name, (INPUTS / f"{name}.py").read_text(encoding="utf-8")))
    # a full-mode bootcamp states the case in prose; its program is only an oracle: no rule
    corpus = TESTS / "defects" / "corpus"
    jobs.append(GateJob("full_mode_prose", (corpus / "clean_sum_oracle.py").read_text(),
                        reference=(corpus / "reference" / "clean_sum_oracle.py").read_text()))
    return jobs


@pytest.fixture(scope="module")
def reports(process_backend: Backend) -> dict[str, CheckReport]:
    done = run_parallel(_jobs(), process_backend, workers=4)
    out = {}
    for d in done:
        assert d.report is not None, d.error
        out[d.job.name] = d.report
    return out


@pytest.mark.parametrize("name", ["pair_clean", "pair_whitespace", "default_prompt",
                                  "seat_cycles"])
def test_a_prompt_that_shows_the_stdin_passes(reports, name):
    prompt = reports[name].get("prompt")
    assert prompt is not None and prompt.status == "passed", reports[name].feedback()
    assert "show render_stdin's text" in prompt.reason
    assert reports[name].passed, reports[name].feedback()


@pytest.mark.parametrize("name", ["pair_sorted", "pair_other_field", "pair_drops_value",
                                  "seat_prompt_zero_based"])
def test_a_prompt_that_shows_another_input_fails_with_both_texts(reports, name):
    report = reports[name]
    prompt = report.get("prompt")
    assert prompt is not None and prompt.status == "failed", report.feedback()
    assert prompt.finding == "prompt_hides_input"
    arts = prompt.artifacts
    assert arts["stdin"].strip() and arts["prompt"].strip()
    assert "first_difference" in arts and "expected" in arts["first_difference"]
    assert not shows_block(arts["stdin"], arts["prompt"])
    assert not report.passed and report.decisive is not None
    assert report.decisive.name == "prompt"


def test_a_full_mode_bootcamp_may_state_the_case_in_prose(reports):
    report = reports["full_mode_prose"]
    assert report.passed, report.feedback()
    prompt = report.get("prompt")
    assert prompt is not None and "render_stdin" not in prompt.reason


def test_the_sorted_prompt_is_reported_at_the_line_that_differs(reports):
    prompt = reports["pair_sorted"].get("prompt")
    assert prompt is not None
    assert '"stdin_line": 2' in prompt.artifacts["first_difference"]


def test_block_matching_ignores_whitespace_but_not_values():
    stdin = "4 7\n2 5 3 4\n"
    assert shows_block(stdin, "Task.\n\nInput:\n```\n4 7\n2 5 3 4\n```\n")
    assert shows_block(stdin, "Input:\n  4   7  \n\n2 5 3 4")  # blank lines, spaces
    assert shows_block("5 3", "The input is 5 3.")  # one line inside a sentence
    assert not shows_block("5 3", "The input is 15 3.")  # not at a token boundary
    assert not shows_block(stdin, "Input:\n4 7\n2 3 4 5\n")  # sorted
    assert not shows_block(stdin, "Input:\n2 5 3 4\n")  # the count line dropped
    diff = first_difference(stdin, "Input:\n4 7\n2 3 4 5\n")
    assert diff == {"stdin_line": 2, "expected": "2 5 3 4", "prompt_has": "2 3 4 5"}


def test_copy_candidates_read_the_list_as_the_prompt_shows_it():
    tags = ("<answer>", "</answer>")
    # items with their attributes: the order they are shown in
    shown = "Tasks: ant (due day 1), bee (due day 2), cat (due day 2). e.g. <answer>owl</answer>"
    assert copy_candidates(shown, "ant cat bee", *tags) == ["ant bee cat"]
    # a comma-separated list, answered with spaces
    assert copy_candidates("Numbers: 12, 30, 5\nAnswer:", "12 5 30", *tags) == ["12 30 5"]
    # too few distinct items to judge, and items the prompt does not list
    assert copy_candidates("Numbers: 1, 2", "2 1", *tags) is None
    assert copy_candidates("Numbers: 4, 5, 6", "1 2 3", *tags) == []
    # the answer-format example is not a list of the case
    assert copy_candidates("Sort. e.g. <answer>3 1 2</answer>", "1 2 3", *tags) == []
