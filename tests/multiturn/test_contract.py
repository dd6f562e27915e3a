"""The multi-turn contract (synth.bootcamp.MultiTurnBootcamp), its static rules, and the method
server's reset/step/policy questions with their validation on the host (synth.serving.sampling)."""

from __future__ import annotations

import math
import time
from typing import Any

import pytest

from synth.bootcamp import MultiTurnBootcamp
from synth.sandbox.methods import MethodServer
from synth.sandbox.static import check_source
from synth.serving.sampling import (
    MAX_STATE_CHARS,
    EpisodeError,
    multi_turn_info,
    parse_action,
    parse_reset,
    parse_step,
)

HEADER = '"""A multi-turn test module."""\nfrom synth.bootcamp import MultiTurnBootcamp\n\n\n'
BODY = '''
class Echo(MultiTurnBootcamp):
    MAX_TURNS = 3

    def __init__(self, seed=None):
        super().__init__(seed=seed)

    def case_generator(self):
        return {"n": self.rng.randint(1, 9)}

    @classmethod
    def reset(cls, identity):
        return "Say the number in <answer></answer>.", {"n": identity["n"], "t": 0}

    @classmethod
    def step(cls, state, action):
        STEP_BODY

    @classmethod
    def reference_policy(cls, state):
        return str(state["n"])
'''
GOOD_STEP = '''t = state["t"] + 1
        won = action == str(state["n"])
        done = won or t >= cls.MAX_TURNS
        return {"observation": None if done else "again", "reward": 1.0 if won else 0.0,
                "done": done, "state": {"n": state["n"], "t": t}}'''


def _module(step: str = GOOD_STEP) -> str:
    return HEADER + BODY.replace("STEP_BODY", step)


def _namespace(step: str = GOOD_STEP) -> dict[str, Any]:
    ns: dict[str, Any] = {}
    exec(compile(_module(step), "<echo>", "exec"), ns)  # test-owned source
    return ns


# -- the contract ----------------------------------------------------------------------------


def test_single_turn_methods_follow_from_the_episode() -> None:
    echo = _namespace()["Echo"]
    case = echo(seed=1).case_generator()
    assert echo.prompt_func(case) == echo.reset(case)[0]
    assert echo.reference_answer(case) == str(case["n"])
    assert echo.verify_score(echo.wrap_answer(str(case["n"])), case) == 1.0
    assert echo.verify_score(echo.wrap_answer("nope"), case) == 0.0
    assert echo.verify_score("no tags", case) == 0.0


@pytest.mark.parametrize("body, message", [
    ("MAX_TURNS = 0", "MAX_TURNS must be an int"),
    ("MAX_TURNS = 2.5", "MAX_TURNS must be an int"),
    ("MAX_TURNS = 5\n    ENGINES = 'gnugo'", "ENGINES must be a tuple"),
    ("MAX_TURNS = 5\n    def step(self, state, action):\n        return {}",
     "must be a classmethod or staticmethod"),
    ("MAX_TURNS = 5\n    @classmethod\n    def step(cls, state, action):\n        return {}\n"
     "    @staticmethod\n    def prompt_func(identity):\n        return 'x'", "overrides prompt_func"),
    ("MAX_TURNS = 5\n    @classmethod\n    def step(cls, state, action):\n        return {}\n"
     "    @staticmethod\n    def extract_output(response):\n        return response",
     "overrides extract_output"),
])
def test_class_creation_refuses_a_broken_declaration(body: str, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        exec(f"class Bad(MultiTurnBootcamp):\n    {body}\n", {"MultiTurnBootcamp": MultiTurnBootcamp})


def test_a_helper_class_without_step_needs_no_max_turns() -> None:
    ns = {"MultiTurnBootcamp": MultiTurnBootcamp}
    exec("class Helper(MultiTurnBootcamp):\n    pass\n", ns)


def test_the_static_gate_knows_multi_turn_bootcamps() -> None:
    assert check_source(_module()) == []
    rules = {v.rule for v in check_source(_module().replace("    MAX_TURNS = 3\n", ""))}
    assert "multi_turn" in rules
    missing = _module().replace("    def reference_policy", "    def other_policy")
    assert any(v.rule == "methods" and "reference_policy" in v.message
               for v in check_source(missing))
    override = _module() + "\n    @classmethod\n    def reference_answer(cls, identity):\n" \
                           "        return '1'\n"
    assert "multi_turn" in {v.rule for v in check_source(override)}


# -- the host-side validation ------------------------------------------------------------------


def test_parse_step_accepts_the_contract_and_names_each_breach() -> None:
    ok = {"result": {"observation": "next", "done": False, "state": {"a": 1}}, "reward": 0.25}
    step = parse_step(ok)
    assert (step.observation, step.reward, step.done, step.state) == ("next", 0.25, False, {"a": 1})
    assert step.state_text == '{"a": 1}'
    for reward in ("nan", "inf", 1.5, -0.1, {"__type__": "bool", "repr": "True"},
                   {"__type__": "missing", "repr": "no reward"}):
        with pytest.raises(EpisodeError) as info:
            parse_step({**ok, "reward": reward})
        assert info.value.finding == "invalid_score" and info.value.artifacts["value"]
    bad: list[tuple[dict[str, Any], str]] = [
        ({"observation": "x", "done": "no", "state": {}}, "not a bool"),
        ({"observation": None, "done": False, "state": {}}, "no observation"),
        ({"observation": 3, "done": True, "state": {}}, "not a str"),
        ({"observation": None, "done": True, "state": {}, "extra": 1}, "unknown keys"),
        ({"observation": None, "done": True}, "missing"),
        ({"observation": None, "done": True, "state": {"x": "y" * MAX_STATE_CHARS}}, "keep the state small"),
    ]
    for result, phrase in bad:
        with pytest.raises(ValueError, match=phrase):
            parse_step({"result": result, "reward": 0.0})
    with pytest.raises(ValueError, match="not plain JSON"):
        parse_step({"problem": "step's result['state'] is a set", "repr": "{...}"})
    with pytest.raises(ValueError, match="empty observation"):
        parse_reset({"observation": "  ", "state": {}})
    with pytest.raises(ValueError, match="not a plain JSON dict"):
        parse_reset({"observation": "x", "state_problem": "the state is a list"})
    with pytest.raises(ValueError, match="not a str"):
        parse_action({"__type__": "int", "repr": "3"})
    assert multi_turn_info({"multi_turn": True, "max_turns": 4, "engines": []}) == (4, [])
    assert multi_turn_info({"class": "X"}) is None
    with pytest.raises(ValueError):
        multi_turn_info({"multi_turn": True, "max_turns": 0, "engines": []})


def test_the_method_server_serves_episodes_and_describes_bad_values() -> None:
    nan_step = GOOD_STEP.replace('1.0 if won else 0.0',
                                 'float("nan") if action == "n" else 1.0 if won else 0.0')
    code = _module(nan_step + "\n").replace(
        '        return str(state["n"])',
        '        return 7 if state["t"] else str(state["n"])')
    with MethodServer(code, backend="process") as server:
        info = server.info
        assert info["multi_turn"] is True and info["max_turns"] == 3 and info["engines"] == []
        assert info["episode_defines"] == ["reset", "step", "reference_policy"]
        start = parse_reset(server.call("reset", {"case_text": '{"n": 4}'}).value)
        assert start.state == {"n": 4, "t": 0}
        action = parse_action(server.call("policy", {"state": start.state}).value)
        step = parse_step(server.call("step", {"state": start.state, "action": action}).value)
        assert step.done and step.reward == 1.0
        raw = server.call("step", {"state": start.state, "action": "n"}).value
        assert raw["reward"] == "nan"
        with pytest.raises(EpisodeError) as info_nan:
            parse_step(raw)
        assert info_nan.value.finding == "invalid_score"
        with pytest.raises(ValueError, match="int, not a str"):
            parse_action(server.call("policy", {"state": {"n": 4, "t": 1}}).value)
        refused = server.call("step", {"state": [1], "action": "x"})
        assert not refused.ok and refused.kind == "usage"


def test_a_hanging_step_costs_its_limit_and_leaves_no_session() -> None:
    code = _module("while True:\n            pass")
    server = MethodServer(code, backend="process")
    server.start()
    t0 = time.monotonic()
    reply = server.call("step", {"state": {"n": 1, "t": 0}, "action": "x"}, timeout_s=1.0)
    elapsed = time.monotonic() - t0
    assert reply.outcome.value == "timeout"
    assert elapsed < 1.0 + 2.5, elapsed
    assert not server.alive and server.session is None
    assert not math.isnan(elapsed)
