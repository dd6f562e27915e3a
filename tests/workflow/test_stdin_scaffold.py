"""The compiled draft's starting generator (:mod:`synth.workflow.stdin_scaffold`): written by
trusted code from the Input section's layout and rules, its inputs read as the layout says and
keep every rule it claims to follow; a level parameter makes each level larger; rules it cannot
follow are named for the coder; and on a bundled task it passes the gate as it stands."""

from __future__ import annotations

import json
import random
import statistics
import textwrap
from types import SimpleNamespace
from typing import Any

import pytest

from synth import compiled
from synth.gate import run_checks
from synth.sandbox import get_backend
from synth.sources import get_source
from synth.statement import InputChecker, derive
from synth.statement.check import read_input
from synth.tasks import TaskDescription
from synth.workflow import coder
from synth.workflow.stdin_scaffold import StdinScaffold, stdin_scaffold


def _statement(input_section: str, examples: list[str]) -> str:
    shown = "\n\n".join(f"Input\n\n{e}\n\nOutput\n\n0\n" for e in examples)
    return (f"Toy\n\nCompute something.\n\nInput\n\n{input_section}\n\nOutput\n\nPrint one integer."
            f"\n\nExamples\n\n{shown}")


PAIRS = _statement(
    "The first line contains two integers n and k (1 ≤ k < n ≤ 2·10^5).\n\n"
    "The second line contains n integers a_1, a_2, ..., a_n (0 ≤ a_i ≤ 10^9).",
    ["3 2\n5 0 7\n", "2 1\n1 1\n"])
ROWS = _statement(
    "The first line contains an integer m (1 ≤ m ≤ 10^5) — the number of intervals.\n\n"
    "Each of the next m lines contains two integers l and r (1 ≤ l ≤ r ≤ 10^9).",
    ["2\n1 3\n2 2\n"])
TESTS = _statement(
    "The first line contains an integer t (1 ≤ t ≤ 10^4) — the number of test cases.\n\n"
    "The only line of each test case contains a string s (1 ≤ |s| ≤ 100) of letters a and b.",
    ["2\nab\nbba\n"])


def _make(checker: InputChecker) -> StdinScaffold:
    sc = stdin_scaffold(checker)
    assert sc is not None, checker.not_checked
    return sc


def _functions(sc: StdinScaffold) -> tuple[Any, Any]:
    """The scaffold's two bodies as functions (our own code: run in this process)."""
    src = ("def generate(rng, self):\n" + textwrap.indent("\n".join(sc.generator), "    ")
           + "\n\ndef render(identity):\n" + textwrap.indent("\n".join(sc.render), "    ") + "\n")
    space: dict[str, Any] = {}
    exec(compile(src, "<scaffold>", "exec"), space)
    return space["generate"], space["render"]


def _inputs(sc: StdinScaffold, level: str, n: int = 60) -> list[str]:
    generate, render = _functions(sc)
    params = SimpleNamespace(**sc.levels[level])
    return [render(json.loads(json.dumps(generate(random.Random(seed), params))))
            for seed in range(n)]


def _followed(checker: InputChecker, sc: StdinScaffold) -> list[Any]:
    return [r for r in checker.rules if r.describe() not in sc.left]


@pytest.mark.parametrize("text", [PAIRS, ROWS, TESTS], ids=["pairs", "rows", "tests"])
def test_every_input_reads_as_the_layout_says_and_keeps_the_rules(text: str) -> None:
    checker = derive(text)
    sc = _make(checker)
    assert sc.left == [], sc.left  # these statements state nothing the scaffold cannot follow
    for level in ("easy", "medium", "hard"):
        for stdin in _inputs(sc, level):
            assert checker.check(stdin) is None, (level, stdin, checker.check(stdin))


def test_a_bound_on_a_later_value_and_a_row_bound_are_kept() -> None:
    checker = derive(PAIRS)
    ks = [read_input(checker.spec, s).head for s in _inputs(_make(checker), "easy", 200)]
    assert min(env["n"] for env in ks) == 2  # k >= 1 and k < n: n starts at 2
    assert all(env["k"] < env["n"] for env in ks)
    rows = derive(ROWS)
    cols = [read_input(rows.spec, s).head for s in _inputs(_make(rows), "hard", 100)]
    assert all(a <= b for env in cols for a, b in zip(env["l"], env["r"], strict=True))
    assert any(a != b for env in cols for a, b in zip(env["l"], env["r"], strict=True))


def test_levels_grow_and_the_easy_level_varies() -> None:
    for text in (PAIRS, ROWS, TESTS):
        sc = _make(derive(text))
        size = {lv: statistics.mean(len(s) for s in _inputs(sc, lv, 200)) for lv in sc.levels}
        assert size["easy"] * 1.2 < size["medium"] and size["medium"] * 1.2 < size["hard"], size
        assert len(set(_inputs(sc, "easy", 40))) >= 10
        assert list(sc.levels) == ["easy", "medium", "hard"]
        assert '    LEVELS = {"easy": ' in sc.source("Toy", "ToyBootcamp")


def test_what_it_cannot_follow_is_named_and_no_layout_no_scaffold() -> None:
    grid = _statement(
        "The first line contains two integers n and m (1 ≤ n, m ≤ 500, 2 ≤ n·m ≤ 2·10^5).\n\n"
        "Each of the next n lines contains a string of m characters, each of them '.', '#', 'S' "
        "or 'T'. There is exactly one 'S'.",
        ["2 2\nS.\n.#\n"])
    checker = derive(grid)
    sc = _make(checker)
    assert any("n*m" in r or "n·m" in r for r in sc.left), sc.left
    assert any("'S'" in r for r in sc.left), sc.left
    assert stdin_scaffold(derive(_statement("Some numbers, in some order.", ["1 2\n"]))) is None
    assert stdin_scaffold(None) is None


@pytest.fixture(scope="module")
def bundled() -> list[TaskDescription]:
    # the statements alone: no reference program is run here (verify=False; the gate test
    # below runs task 01's)
    return [t for t in get_source("codecontests").load(verify=False)
            if isinstance(t, TaskDescription)]


def test_on_the_bundled_sample_every_input_keeps_the_rules_it_follows(bundled) -> None:
    """The 42 bundled statements: most get a scaffold, and on 20 cases a level its inputs read
    as the layout says and keep every rule not named as the coder's part."""
    made = 0
    for task in bundled:
        checker = derive(compiled.task_text(task))
        sc = stdin_scaffold(checker)
        if sc is None:
            continue
        made += 1
        followed = _followed(checker, sc)
        for level in sc.levels:
            for stdin in _inputs(sc, level, 20):
                parsed = read_input(checker.spec, stdin)  # raises when the layout is broken
                assert checker.check_parsed(parsed, followed) is None, (task.id, level, stdin)
    assert made >= 0.9 * len(bundled), (made, len(bundled))


def test_the_draft_shows_it_and_unchanged_it_passes_the_gate(bundled, tmp_path) -> None:
    from test_prompts import _ctx

    task = next(t for t in bundled if t.id.startswith("codecontests/01-"))
    text, _ = coder.render(_ctx(tmp_path), "draft.j2", task, "compiled")
    block = text.split("```python\n")[-1].split("```")[0]
    assert "def render_stdin(identity" in block and "self.size" in block and "..." not in block
    module = coder.unchanged_draft(task, "compiled")  # that skeleton, assembled as a reply
    assert module is not None and block.split("def case_generator")[1] in module
    report = run_checks(module, backend=get_backend("process"))
    failed = [c.name for c in report.checks if c.status.value == "failed" and c.hard]
    assert not failed, report.feedback()
    assert report.get("inputs") is not None and report.get("inputs").status.value == "passed"


@pytest.mark.parametrize(("output", "want"), [
    ('Print "Alice" if Alice wins, and "Bob" otherwise.', ("Alice", "Bob")),
    ('Print "YES" if it is possible, otherwise print "NO".', ("YES", "NO")),
    ('Output "YES" or "NO" (any case).', ("YES", "NO")),
    ('If no answer exists, print "NO". Otherwise print "YES" and then the permutation.', None),
    ('Print the answer.', None),
    ('Print "-1" if it is impossible.', None),
    ('Print "First", "Second" or "Draw".', None),
])
def test_two_answers_are_read_from_the_output_section_only_when_nothing_else_is_printed(
        output, want):
    from synth.workflow.stdin_scaffold import two_answers

    assert two_answers(output) == want


def test_a_two_answer_task_declares_yes_no_in_its_skeleton():
    """Task 22 (the winner of a game, "Alice" or "Bob"): the skeleton declares YES_NO_TASK,
    which the gate's diversity check allows two answer values for; a task with a number for
    an answer does not."""
    from synth.sources import get_source
    from synth.tasks import TaskDescription
    from synth.workflow.coder import starting_draft

    tasks = {t.title: t for t in get_source("codecontests").load(verify=False)
             if isinstance(t, TaskDescription)}
    _, game = starting_draft(tasks["Take One, Three or Four"], "compiled")
    assert game is not None and "    YES_NO_TASK = True  # the output is 'Alice' or 'Bob'" in game
    _, number = starting_draft(tasks["Sum of Quotients"], "compiled")
    assert number is not None and "YES_NO_TASK" not in number
