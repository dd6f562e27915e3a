"""The function-mode draft's starting generator (:mod:`synth.workflow.scaffold`): written by
trusted code from the task's own example calls, it draws arguments of the shapes the gate
checks, from what the examples show (alphabet, sign, shortest length), larger at each level;
a shape it cannot draw is left to the coder; and for a real HumanEval task the draft shows it,
and it passes the gate as it stands."""

from __future__ import annotations

import ast
import json
import random
import statistics
from pathlib import Path
from typing import Any

import pytest

from synth import compiled
from synth.gate import run_checks
from synth.gate.functions import expected_arguments, fits
from synth.sandbox import get_backend
from synth.sources import HumanEvalSource
from synth.tasks import TaskDescription
from synth.workflow import coder
from synth.workflow.scaffold import SIZES, TOPS, scaffold

SOURCE = '''from typing import List, Tuple


def f(xs: List[int], word: str, ratio: float, flag: bool, pair: Tuple[int, str], n: int):
    """>>> f([3, -2, 7], 'ab(c', 0.25, True, (1, 'x'), 400)
    1
    >>> f([], 'cab', 1.5, False, (2, 'y'), 9)
    2
    """
'''


def _draws(source: str, entry: str, tests: str | None = None) -> dict[str, str | None]:
    sc = scaffold(expected_arguments(source, entry, tests))
    assert sc is not None
    return dict(sc.draws)


def _sample(expr: str, level: str, seed: int, tops: dict[str, int] = TOPS) -> Any:
    """One value of a draw, evaluated as the generated class would, on a level's parameters."""
    self = type("Level", (), {"size": SIZES[level], "top": tops[level]})()
    return eval(expr, {"__builtins__": {"round": round, "sorted": sorted, "range": range},
                       "rng": random.Random(seed), "self": self})


def test_each_draw_has_the_gate_shape_and_what_the_examples_show() -> None:
    want = expected_arguments(SOURCE, "f")
    assert want is not None
    draws = _draws(SOURCE, "f")
    for name, shape in zip(want.names, want.shapes, strict=True):
        expr = draws[name]
        assert expr is not None, name
        for level in SIZES:
            for seed in range(30):
                value = _sample(expr, level, seed)  # JSON has no tuple: call_args builds it
                value = tuple(value) if shape[0] in ("tuple", "tuplen") else value
                assert fits(value, shape), (name, level, expr)
    words = [_sample(draws["word"], "hard", s) for s in range(50)]
    assert set("".join(words)) <= set("ab(c") and len(set(words)) > 30  # the examples' alphabet
    assert min(v for s in range(50) for v in _sample(draws["xs"], "hard", s)) < 0  # signed items
    assert min(_sample(draws["n"], "hard", s) for s in range(200)) >= 9  # never below the examples'
    assert {_sample(draws["flag"], "easy", s) for s in range(20)} == {True, False}
    assert all(len(str(_sample(draws["ratio"], "easy", s)).partition(".")[2]) <= 2 for s in range(30))
    assert any(_sample(draws["xs"], "easy", s) == [] for s in range(60))  # the examples pass []


def test_levels_grow_in_length_and_magnitude() -> None:
    sc = scaffold(expected_arguments(SOURCE, "f"))
    assert sc is not None and sc.levels == {lv: {"size": SIZES[lv], "top": TOPS[lv]} for lv in TOPS}
    draws = _draws(SOURCE, "f")
    xs = {lv: statistics.mean(len(_sample(draws["xs"], lv, s)) for s in range(200)) for lv in SIZES}
    n = {lv: statistics.mean(len(str(_sample(draws["n"], lv, s))) for s in range(200))
         for lv in SIZES}  # digits: the gate measures a case by its size in characters
    assert xs["easy"] < xs["medium"] < xs["hard"], xs
    assert n["easy"] * 1.2 < n["medium"] and n["medium"] * 1.2 < n["hard"], n
    easy = {_sample(draws["n"], "easy", s) for s in range(40)}
    assert len(easy) >= 10  # the gate's diversity floor, on a single int


def test_small_example_numbers_grow_gently_large_ones_by_digits() -> None:
    """fib(10), fib(12): an index into something that grows fast, often a recursive
    reference; its spans stay near the examples'. is_prime(255379): the usual spans."""
    fib = scaffold(expected_arguments('def fib(n: int):\n    """>>> fib(10)\n    55\n    >>> fib(1)\n'
                                      '    1\n    >>> fib(12)\n    144\n    """\n', "fib"))
    assert fib is not None and [fib.levels[lv]["top"] for lv in TOPS] == [12, 18, 24]
    prime = scaffold(expected_arguments('def p(n: int):\n    """>>> p(255379)\n    True\n    """\n',
                                        "p"))
    assert prime is not None and {lv: prime.levels[lv]["top"] for lv in TOPS} == TOPS


def test_shapes_without_a_draw_are_left_to_the_coder_and_a_bool_alone_has_no_scaffold() -> None:
    source = "def g(d: dict, k: int):\n    return d.get(k)\n"
    sc = scaffold(expected_arguments(source, "g"))
    assert sc is not None and not sc.complete and dict(sc.draws)["d"] is None
    assert sc.params == ["top"] and sc.levels["easy"] == {"top": TOPS["easy"]}
    assert scaffold(expected_arguments("def h(b: bool):\n    return not b\n", "h")) is None
    assert scaffold(expected_arguments("def u(x):\n    return x\n", "u")) is None  # nothing known


@pytest.fixture(scope="module")
def below_zero() -> TaskDescription:
    return next(t for t in HumanEvalSource().load()
                if isinstance(t, TaskDescription) and t.provenance.original_id == "HumanEval/3")


def test_the_draft_shows_the_filled_generator(below_zero: TaskDescription, tmp_path: Path) -> None:
    from test_prompts import _ctx

    text, _ = coder.render(_ctx(tmp_path), "draft.j2", below_zero, "function")
    block = text.split("```python\n")[-1].split("```")[0]
    tree = ast.parse(block)  # the skeleton is Python as it stands: no `...` left to fill
    assert not any(isinstance(n, ast.Constant) and n.value is Ellipsis for n in ast.walk(tree))
    assert "operations = [rng.randint(" in block and "self.size" in block and "self.top" in block
    sc = coder.function_scaffold(*compiled.function_reference(below_zero, verified_only=False) or
                                 ("", ""), below_zero.tests.check_code)
    assert sc is not None and f"LEVELS = {json.dumps(sc.levels)}" in block  # easiest first
    # below_zero returns a bool: the model adapts the draws, case_generator balances the answers
    assert "change `draw_arguments` where it restricts the inputs" in text
    assert "def draw_arguments(self)" in block and "self.reference_answer(case)" in block


def test_the_unchanged_scaffold_passes_the_gate_on_a_humaneval_task(below_zero: TaskDescription
                                                                    ) -> None:
    # the draft's skeleton, filled in and sent back unchanged, assembled as the workflow does
    module = coder.unchanged_draft(below_zero, "function")
    assert module is not None
    report = run_checks(module, backend=get_backend("process"))
    assert report.passed, report.feedback()
    levels = report.get("levels")
    assert levels is not None and levels.status.value == "passed"


def _bootcamp_class(module_text: str) -> Any:
    """The bootcamp class of an assembled module (our own trusted text, executed here)."""
    from synth.bootcamp import FunctionBootcamp

    namespace: dict[str, Any] = {"__name__": "scaffolded"}
    exec(compile(module_text, "scaffolded.py", "exec"), namespace)
    return next(v for v in namespace.values() if isinstance(v, type)
                and issubclass(v, FunctionBootcamp) and v is not FunctionBootcamp)


def test_a_predicates_skeleton_balances_its_answers() -> None:
    # is_prime on random ints is False about 85 % of the time, which fails the gate's diversity
    # rule (one answer on over 80 % of a level); the skeleton picks the answer first and draws
    # until the reference function returns it
    task = next(t for t in HumanEvalSource().load()
                if isinstance(t, TaskDescription) and t.provenance.original_id == "HumanEval/31")
    found, skeleton = coder.starting_draft(task, "function")
    assert found is not None and skeleton is not None and found.yes_no
    assert "YES_NO_TASK = True" in skeleton and "def draw_arguments(self)" in skeleton
    module = coder.unchanged_draft(task, "function")
    assert module is not None
    cls = _bootcamp_class(module)
    plain = []
    for level, params in cls.LEVELS.items():
        answers = [cls.reference_answer(cls(seed=s, **params).case_generator())
                   for s in range(120)]
        share = answers.count("True") / len(answers)
        assert 0.35 <= share <= 0.65, (level, share)
        # the draws alone, as the skeleton makes them before balancing
        drawn = [cls.reference_answer(cls(seed=s, **params).draw_arguments()) for s in range(120)]
        plain.append(drawn.count("True") / len(drawn))
    assert min(plain) < 0.2, plain  # what the balancing corrects: a level the gate would fail
    report = run_checks(module, backend=get_backend("process"))
    assert report.passed, report.feedback()


def test_a_filters_skeleton_draws_again_while_nothing_is_found() -> None:
    # filter_by_prefix on random strings and a random prefix is mostly []: the skeleton keeps
    # some of its cases as drawn and draws the others again while the answer is empty
    task = next(t for t in HumanEvalSource().load()
                if isinstance(t, TaskDescription) and t.provenance.original_id == "HumanEval/29")
    found, skeleton = coder.starting_draft(task, "function")
    assert found is not None and skeleton is not None and not found.yes_no
    assert "YES_NO_TASK" not in skeleton and "def draw_arguments(self)" in skeleton
    module = coder.unchanged_draft(task, "function")
    assert module is not None
    cls = _bootcamp_class(module)
    plain, shaped = [], []
    for params in cls.LEVELS.values():
        drawn = [cls.reference_answer(cls(seed=s, **params).draw_arguments()) for s in range(120)]
        made = [cls.reference_answer(cls(seed=s, **params).case_generator()) for s in range(120)]
        plain.append(drawn.count("[]") / len(drawn))
        shaped.append(made.count("[]") / len(made))
    assert max(plain) > 0.8, plain  # what the gate's diversity rule fails
    assert max(shaped) < 0.75, shaped
    assert all(b < a - 0.2 for a, b in zip(plain, shaped, strict=True)), (plain, shaped)
    assert min(shaped) > 0.05, shaped  # the empty answer is still asked sometimes
    report = run_checks(module, backend=get_backend("process"))
    assert report.passed, report.feedback()
