"""The questions about a multi-turn bootcamp (``MultiTurnBootcamp``): an episode's ``reset``,
``step`` and reference policy, and the log of the engines an engine-backed bootcamp declares.

The episode's state travels with every request (the host keeps it; the server keeps none), so
each answer is a function of the request alone, as the host's determinism check needs. As for
single-turn questions (:mod:`.questions`), values that are not plain data come back described.
"""

from __future__ import annotations

from typing import Any

from .calls import _S, _bounded, _usage
from .questions import _case, _limit, _method, _plain_text, _safe_repr, _score_value
from .wire import _name_of, canonical, json_problem, loads


def _state_value(state: Any, out: dict[str, Any]) -> dict[str, Any]:
    """``out`` with the episode state a reset or step returned: ``state`` when it is a plain
    JSON dict, else ``state_problem`` (why not) and ``state_repr``."""
    problem = (f"the state is a {_name_of(state)}, not a dict" if type(state) is not dict
               else json_problem(state, "state"))
    if problem is None:
        out["state"] = state
    else:
        out["state_problem"] = problem
        out["state_repr"] = _safe_repr(state)
    return out


def _episode_state(p: dict[str, Any]) -> Any:
    state = p.get("state")
    if type(state) is not dict:
        raise _usage("state must be an object")
    return state  # a fresh object: the request line was just parsed


def m_reset(p: dict[str, Any]) -> dict[str, Any]:
    """Multi-turn: ``reset(identity)`` as ``{"observation", "state"}`` (see :func:`_state_value`;
    a value that is not a pair is ``{"problem", "repr"}``)."""
    limit = _limit(p, 5.0)
    value = _bounded(_method("reset", limit), (_case(p),), limit)
    if (type(value) is not tuple and type(value) is not list) or len(value) != 2:
        return {"problem": f"reset returned a {_name_of(value)}, not (observation, state)",
                "repr": _safe_repr(value)}
    return _state_value(value[1], {"observation": _plain_text(value[0])})


def m_step(p: dict[str, Any]) -> dict[str, Any]:
    """Multi-turn: ``step(state, action)`` as ``{"result": {...}, "reward": score}``: the
    result's plain JSON entries but the reward, and the reward as in ``score`` (NaN as a
    string, a bool or any other type described); a result that is not plain JSON is
    ``{"problem", "repr"}``. The host checks the keys and types."""
    action = p.get("action")
    if type(action) is not str:
        raise _usage("action must be a string")
    limit = _limit(p, 5.0)
    value = _bounded(_method("step", limit), (_episode_state(p), action), limit)
    if type(value) is not dict:
        return {"problem": f"step returned a {_name_of(value)}, not a dict",
                "repr": _safe_repr(value)}
    rest = dict(value)
    missing = "reward" not in rest
    reward = rest.pop("reward", None)
    problem = json_problem(rest, "step's result")
    if problem is not None:
        return {"problem": problem, "repr": _safe_repr(value)}
    return {"result": rest, "reward": {"__type__": "missing", "repr": "no reward"} if missing
            else _score_value(reward)}


def m_policy(p: dict[str, Any]) -> Any:
    """Multi-turn: ``reference_policy(state)``, the action as text (or its description)."""
    limit = _limit(p, 5.0)
    return _plain_text(_bounded(_method("reference_policy", limit), (_episode_state(p),), limit))


def m_engine_log(p: dict[str, Any]) -> dict[str, Any]:
    """Engine-backed bootcamps: the commands the declared engines were sent since the last
    ``engine_log`` question (``{"count", "digest", "head"}``), then forgotten; ``{}`` without
    engines. The log is kept by the engine broker and read through the bootcamp's own client,
    as a bootcamp call: the bootcamp could hide its commands, never make a verdict -- the host
    only compares the logs of the same calls in two processes."""
    fn = _S.engine_log
    if fn is None:
        return {}
    limit = _limit(p, 15.0)
    value = _bounded(fn, (), limit)
    if type(value) is not dict or json_problem(value, "the engine log") is not None:
        return {"problem": f"the engine log is a {_name_of(value)}, not plain JSON"}
    return loads(canonical(value))
