"""Tests of the hand-written MastermindBootcamp (generated_bootcamps/handwritten/mastermind.py),
a multi-turn bootcamp: rules, scoring, the reference policy's proven bound, and the gate."""

from __future__ import annotations

import importlib.util
import itertools
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers import worker_pool

from synth.gate import MULTI_TURN_CHECK_NAMES, run_checks_file
from synth.sandbox import get_backend

MODULE_PATH = Path(__file__).resolve().parents[2] / "generated_bootcamps/handwritten/mastermind.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("handwritten_mastermind", MODULE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


mastermind = _load()
Bootcamp = mastermind.MastermindBootcamp


def _independent_feedback(secret: list[int], guess: list[int]) -> tuple[int, int]:
    """Black/white pegs counted another way: remove exact matches, then match colours."""
    black = 0
    rest_s, rest_g = [], []
    for a, b in zip(secret, guess, strict=True):
        if a == b:
            black += 1
        else:
            rest_s.append(a)
            rest_g.append(b)
    white = 0
    for colour in rest_g:
        if colour in rest_s:
            rest_s.remove(colour)
            white += 1
    return black, white


def _play(identity: dict[str, Any], actions: list[str]) -> list[dict[str, Any]]:
    _, state = Bootcamp.reset(identity)
    out = []
    for action in actions:
        step = Bootcamp.step(state, action)
        out.append(step)
        state = step["state"]
        if step["done"]:
            break
    return out


def _case(level: str = "medium", seed: int = 5) -> dict[str, Any]:
    return Bootcamp.from_level(level, seed=seed).case_generator()


def test_same_seed_same_cases_and_levels_grow() -> None:
    for level in Bootcamp.LEVELS:
        a = Bootcamp.from_level(level, seed=3)
        b = Bootcamp.from_level(level, seed=3)
        assert [a.case_generator() for _ in range(20)] == [b.case_generator() for _ in range(20)]
    lengths = [len(_case(level)["secret"]) for level in Bootcamp.LEVELS]
    assert lengths == sorted(lengths) and lengths[0] < lengths[-1]


def test_feedback_matches_an_independent_count() -> None:
    rng = random.Random(1)
    for _ in range(3000):
        n, k = rng.randint(1, 6), rng.randint(1, 6)
        secret = [rng.randint(1, k) for _ in range(n)]
        guess = [rng.randint(1, k) for _ in range(n)]
        assert mastermind.feedback(secret, guess) == _independent_feedback(secret, guess)


def test_unknown_parameter_and_bad_sizes_raise() -> None:
    with pytest.raises(TypeError):
        Bootcamp(seed=1, lenght=4)
    with pytest.raises(ValueError):
        Bootcamp(seed=1, length=7, colours=9)
    with pytest.raises(ValueError):
        Bootcamp(seed=1, length=4, colours=6, max_guesses=5)  # below the proven par of 9


def test_illegal_guesses_use_up_turns_and_score_nothing() -> None:
    identity = _case("easy")
    steps = _play(identity, ["", "12", "1 2 9", "abc", "x" * 10_000, "1 1 1 1", "0 0 0", "None"])
    assert len(steps) == identity["max_guesses"]
    assert steps[-1]["done"] and steps[-1]["reward"] == 0.0
    assert all(s["reward"] == 0.0 for s in steps)
    assert all(h[0] is None for h in steps[-1]["state"]["history"])
    assert "not a legal guess" in steps[0]["observation"]


def test_score_is_full_within_par_then_partial_then_nothing() -> None:
    identity = {"game": "0000abcd", "length": 3, "colours": 4, "max_guesses": 8, "par": 6,
                "secret": [4, 4, 4]}
    wrong = "1 1 1"
    for misses, expected in [(0, 1.0), (5, 1.0), (6, 2 / 3), (7, 1 / 3)]:
        steps = _play(identity, [wrong] * misses + ["4 4 4"])
        assert steps[-1]["done"]
        assert steps[-1]["reward"] == pytest.approx(expected)
    assert _play(identity, [wrong] * 8)[-1]["reward"] == 0.0
    # separators and spacing do not matter; the code does
    assert _play(identity, ["4,4,4"])[-1]["reward"] == 1.0
    assert _play(identity, ["444"])[-1]["reward"] == 1.0


def test_a_finished_episode_stays_finished() -> None:
    identity = _case("easy", seed=2)
    done = _play(identity, [" ".join(map(str, identity["secret"]))])[-1]
    again = Bootcamp.step(done["state"], "1 1 1")
    assert again["done"] and again["reward"] == done["reward"] == 1.0
    assert again["state"] == done["state"]


def test_step_does_not_change_its_input_state() -> None:
    identity = _case()
    _, state = Bootcamp.reset(identity)
    snapshot = repr(state)
    Bootcamp.step(state, "1 2 3 4")
    assert repr(state) == snapshot


def test_first_observations_name_the_game_but_hide_the_secret() -> None:
    cases = [_case(seed=s) for s in range(50)]
    prompts = [Bootcamp.reset(c)[0] for c in cases]
    assert len(set(prompts)) == 50  # distinct prompts (split-disjoint exports)
    for case, prompt in zip(cases, prompts, strict=True):
        assert case["game"] in prompt
        assert " ".join(map(str, case["secret"])) not in prompt.split("e.g.")[0]


def test_single_turn_view_is_the_first_step() -> None:
    identity = _case()
    assert Bootcamp.prompt_func(identity) == Bootcamp.reset(identity)[0]
    assert "<answer>" in Bootcamp.prompt_func(identity)
    secret = " ".join(map(str, identity["secret"]))
    assert Bootcamp.verify_score(Bootcamp.wrap_answer(secret), identity) == 1.0
    assert Bootcamp.verify_score(Bootcamp.wrap_answer("garbage"), identity) == 0.0


#: A node of the reference policy's game tree: (the state before a guess, the secrets still
#: possible there, the number of that guess).
Node = tuple[dict[str, Any], list[list[int]], int]


def _expand(node: Node) -> tuple[Counter[int], list[Node]]:
    """One node: the policy's guess splits the secrets still possible by their feedback
    (computed by the independent count); (the secrets found by this guess, by its number;
    the child nodes, their states stepped with the bootcamp's own step)."""
    state, secrets, depth = node
    guess_text = Bootcamp.reference_policy(state)
    guess = [int(ch) for ch in guess_text.split()]
    groups: dict[tuple[int, int], list[list[int]]] = {}
    for secret in secrets:
        groups.setdefault(_independent_feedback(secret, guess), []).append(secret)
    found: Counter[int] = Counter()
    children: list[Node] = []
    for told, group in groups.items():
        if told == (state["length"], 0):
            found[depth] += len(group)
            continue
        child = Bootcamp.step(dict(state, secret=group[0]), guess_text)["state"]
        assert child["history"][-1][1:] == list(told)
        children.append((child, group, depth + 1))
    return found, children


def _subtree(node: Node) -> Counter[int]:
    """How many secrets under ``node`` the policy finds at each guess number."""
    depths: Counter[int] = Counter()
    todo = [node]
    while todo:
        found, children = _expand(todo.pop())
        depths += found
        todo += children
    return depths


def _worst_case(length: int, colours: int) -> tuple[int, Counter[int]]:
    """The reference policy's game tree over EVERY secret of one size, explored with the
    bootcamp's own step and reference_policy: at each node the policy's guess splits the
    secrets still possible by their feedback (computed by the independent count). The tree's
    top nodes are expanded here until there are 32 subtrees, which two forked processes then
    explore, the largest first (the policy's scans cost all of the time: 6**5 nodes at the
    hard level, one per secret)."""
    par = mastermind.REFERENCE_WORST_CASE[(length, colours)]
    everything = [list(c) for c in itertools.product(range(1, colours + 1), repeat=length)]
    identity = {"game": "00000000", "length": length, "colours": colours,
                "max_guesses": Bootcamp.MAX_TURNS,
                "par": par, "secret": everything[0]}
    _, root = Bootcamp.reset(identity)
    depths: Counter[int] = Counter()
    frontier: list[Node] = [(root, everything, 1)]
    while frontier and len(frontier) < 32:
        frontier.sort(key=lambda node: len(node[1]))
        found, children = _expand(frontier.pop())
        depths += found
        frontier += children
    frontier.sort(key=lambda node: -len(node[1]))
    with worker_pool(2) as pool:
        for found in pool.map(_subtree, frontier):
            depths += found
    return max(depths), depths


@pytest.mark.parametrize("level", [pytest.param(level, marks=pytest.mark.slow) if level == "hard"
                                   else level for level in Bootcamp.LEVELS])
def test_reference_policy_always_wins_within_par(level: str) -> None:
    params = Bootcamp.LEVELS[level]
    worst, depths = _worst_case(params["length"], params["colours"])
    assert sum(depths.values()) == params["colours"] ** params["length"]
    assert worst == mastermind.REFERENCE_WORST_CASE[(params["length"], params["colours"])]
    assert worst <= params["max_guesses"] <= Bootcamp.MAX_TURNS
    # and the reward of such an episode is full marks: a sample of whole episodes
    bootcamp = Bootcamp.from_level(level, seed=9)
    for _ in range(20):
        identity = bootcamp.case_generator()
        _, state = Bootcamp.reset(identity)
        for _turn in range(Bootcamp.MAX_TURNS):
            step = Bootcamp.step(state, Bootcamp.reference_policy(state))
            state = step["state"]
            if step["done"]:
                break
        assert step["done"] and step["reward"] == 1.0


def test_the_gate_accepts_it() -> None:
    report = run_checks_file(MODULE_PATH, backend=get_backend("process"))
    assert [c.name for c in report.checks] == list(MULTI_TURN_CHECK_NAMES)
    assert report.passed, report.feedback()
    assert all(c.status.value == "passed" for c in report.checks), report.feedback()
