"""The multi-turn Go bootcamp (generated_bootcamps/handwritten/go_game.py) against the real GNU Go:
episodes driven through reset/step as the contract's loop drives them. The reference policy
reaches 1.0, random, constant and illegal policies score low and never crash the environment, a
finished state stays finished, episodes replay exactly in another process."""

from __future__ import annotations

import importlib.util
import json
import random
import statistics
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers import worker_pool

from synth.engines import engine

MODULE_PATH = Path(__file__).resolve().parents[2] / "generated_bootcamps/handwritten/go_game.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("handwritten_go_game", MODULE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


go_game = _load()
Bootcamp = go_game.GoGameBootcamp
Policy = Callable[[dict[str, Any]], str]


def _episode(case: dict[str, Any], policy: Policy) -> tuple[float, list[dict[str, Any]]]:
    """The contract's loop: reset, then step until done (at most MAX_TURNS steps)."""
    observation, state = Bootcamp.reset(case)
    assert "<answer>" in observation
    results = []
    for _ in range(Bootcamp.MAX_TURNS):
        action = Bootcamp.extract_output(Bootcamp.wrap_answer(policy(state))) or ""
        result = Bootcamp.step(state, action)
        assert set(result) == {"observation", "reward", "done", "state"}
        assert 0.0 <= result["reward"] <= 1.0
        json.dumps(result["state"])  # plain JSON
        results.append(result)
        state = result["state"]
        if result["done"]:
            assert result["observation"] is None
            break
        assert isinstance(result["observation"], str)
    assert results[-1]["done"], "the episode did not end within MAX_TURNS"
    return results[-1]["reward"], results


def _pool() -> ProcessPoolExecutor:
    return worker_pool(2)


def _level_cases(index: int) -> list[dict[str, Any]]:
    camp = Bootcamp.from_level(list(Bootcamp.LEVELS)[index], seed=300 + index)
    return [camp.case_generator() for _ in range(5)]


@pytest.fixture(scope="module")
def cases() -> list[dict[str, Any]]:
    """5 cases of each level, level by level; the levels drawn in two processes, the hardest
    (the longest reference lines) first."""
    order = list(range(len(Bootcamp.LEVELS)))[::-1]
    with _pool() as pool:
        drawn = dict(zip(order, pool.map(_level_cases, order), strict=True))
    return [case for index in sorted(drawn) for case in drawn[index]]


def _random_policy(seed: int) -> Policy:
    rng = random.Random(seed)

    def policy(state: dict[str, Any]) -> str:
        gtp = engine("gnugo")
        gtp.new_game(go_game.SIZE, state["komi"], state["moves"])
        return rng.choice(gtp.legal_moves(state["color"]))

    return policy


def _reference_episode(case: dict[str, Any]) -> tuple[float, list[dict[str, Any]]]:
    return _episode(case, Bootcamp.reference_policy)


def _random_episode(item: tuple[int, dict[str, Any]]) -> float:
    return _episode(item[1], _random_policy(item[0]))[0]


def test_the_reference_policy_reaches_one(cases: list[dict[str, Any]]) -> None:
    with _pool() as pool:  # the episodes, two at a time
        played = list(pool.map(_reference_episode, cases))
    for case, (reward, results) in zip(cases, played, strict=True):
        assert reward == 1.0
        assert len(results) == case["turns"]
        assert all(r["reward"] == 1.0 for r in results)


def test_random_constant_and_illegal_policies_score_low(cases: list[dict[str, Any]]) -> None:
    with _pool() as pool:  # the episodes, two at a time
        random_rewards = list(pool.map(_random_episode, enumerate(cases)))
    print(f"\nrandom legal moves: mean reward {statistics.mean(random_rewards):.3f} over "
          f"{len(cases)} episodes ({random_rewards})")
    assert statistics.mean(random_rewards) < 0.5
    for action in ("E5", "PASS", "", "Z9", "I3", "resign", "A" * 5000, "D4; play black E5"):
        for case in cases[:: len(cases) // 3]:
            reward, results = _episode(case, lambda _state, a=action: a)
            assert reward == 0.0, action
            assert len(results) <= 2


def test_an_illegal_move_ends_the_game_and_a_finished_state_stays_finished(
        cases: list[dict[str, Any]]) -> None:
    case = cases[0]
    _, state = Bootcamp.reset(case)
    occupied = case["start"][0][1]
    result = Bootcamp.step(state, occupied)
    assert result["done"] and result["reward"] == 0.0
    again = Bootcamp.step(result["state"], Bootcamp.reference_policy(state))
    assert again == {"observation": None, "reward": 0.0, "done": True, "state": result["state"]}
    _, final = _episode(case, Bootcamp.reference_policy)
    last = final[-1]
    assert Bootcamp.step(last["state"], "C3") == {"observation": None, "reward": 1.0,
                                                  "done": True, "state": last["state"]}


def test_the_single_turn_view_is_the_first_move(cases: list[dict[str, Any]]) -> None:
    case = cases[1]
    assert Bootcamp.prompt_func(case) == Bootcamp.reset(case)[0]
    best = Bootcamp.reference_answer(case)
    assert Bootcamp.verify_score(Bootcamp.wrap_answer(best), case) == 1.0
    assert Bootcamp.verify_score(Bootcamp.wrap_answer("PASS"), case) == 0.0


_REPLAY = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("go_game_replay", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
B = module.GoGameBootcamp
case = B.from_level("medium", seed=77).case_generator()
observation, state = B.reset(case)
steps = []
for action in json.loads(sys.argv[2]):
    result = B.step(state, action)
    steps.append(result)
    state = result["state"]
print(json.dumps({"case": case, "first": observation, "steps": steps}))
"""


def test_episodes_replay_exactly_in_another_process() -> None:
    case = Bootcamp.from_level("medium", seed=77).case_generator()
    observation, state = Bootcamp.reset(case)
    actions, steps = [], []
    for _ in range(case["turns"]):
        action = Bootcamp.reference_policy(state) if len(actions) != 1 else "C3"
        actions.append(action)
        result = Bootcamp.step(state, action)
        steps.append(result)
        state = result["state"]
        if result["done"]:
            break
    done = subprocess.run([sys.executable, "-c", _REPLAY, str(MODULE_PATH), json.dumps(actions)],
                          env={"PYTHONHASHSEED": "999", "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, check=True)
    there = json.loads(done.stdout)
    assert there == json.loads(json.dumps({"case": case, "first": observation, "steps": steps}))
