"""The questions about a single-turn bootcamp (and an independent checker or input validator):
construct an instance, generate a case, render a prompt or stdin, give a reference answer, score
a response -- each answered with plain JSON values, through bounded calls (:mod:`.calls`).

A handler ``m_NAME`` answers the method ``NAME`` (the table is ``server._HANDLERS``). It
decides nothing: every judgement is the host's, made from these values. Whatever the bootcamp
returns that is not plain data comes back described (its type and a bounded repr), never
passed on as it is.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from .calls import _S, _bounded, _failed, _message, _trace, _usage
from .guard import _G, _gc_disable, _gc_enable
from .snapshot import CODE_CHECK_EVERY, _intact, _scoring_intact, _tampered
from .wire import (
    TEXT_CAP,
    _isfinite,
    _name_of,
    _name_of_class,
    _safe_str,
    canonical,
    json_problem,
    loads,
)

# -- taken when the kit is imported: what seeds InternBootcamp classes' global generators
# (intern mode only: :func:`_seed_globals`)
_random_seed = random.seed
_sys_modules = sys.modules


def _checker_fn(name: str) -> Any:
    s = _S
    fn = _bounded(getattr, (s.checker, name, None), 5.0) if s.checker is not None else None
    if not callable(fn):
        raise _usage(f"the checker defines no {name}()")
    return fn


def _instance(handle: Any) -> Any:
    inst = _S.instances.get(handle) if type(handle) is int else None
    if inst is None:
        raise _usage(f"no instance with handle {handle!r:.40}")
    return inst


def _method(name: str, limit: float) -> Any:
    fn = _bounded(getattr, (_S.cls, name, None), limit)
    if fn is None:
        raise _usage(f"{_name_of_class(_S.cls)} has no {name}")
    return fn


def _limit(p: dict[str, Any], default: float) -> float:
    value = p.get("limit", default)
    if type(value) is not int and type(value) is not float:
        raise _usage("limit must be a number")
    return float(value)


def _case(p: dict[str, Any]) -> Any:
    if "case" in p:
        return p["case"]  # already a fresh object: the request line was just parsed
    text = p.get("case_text")
    if type(text) is not str:
        raise _usage("case_text must be a string of JSON")
    return loads(text)


def _plain(value: Any) -> Any:
    """A JSON-safe copy of plain data, or a description when it is not plain data."""
    problem = json_problem(value, "value")
    return value if problem is None else {"__not_plain__": problem}


def _plain_text(value: Any) -> Any:
    if type(value) is str:
        return value
    return {"__type__": _name_of(value), "repr": _safe_repr(value)}


def _safe_repr(value: Any) -> str:
    try:
        text = _bounded(repr, (value,), 1.0)
    except Exception as exc:
        err = _failed(exc) or {}
        return f"<{_name_of(value)} whose repr failed: {err.get('message', '')}>"
    return text[:TEXT_CAP] if type(text) is str else f"<{_name_of(value)}>"


def _encode_value(case: Any) -> dict[str, Any]:
    """A generated case as canonical JSON text, or why it is not plain JSON (with a repr)."""
    problem = (f"case_generator returned a {_name_of(case)}, not a dict"
               if type(case) is not dict else json_problem(case))
    if problem is not None:
        return {"problem": problem, "repr": _safe_repr(case)}
    return {"text": canonical(case)}


def _score_value(value: Any) -> Any:
    """A score as JSON: a float (NaN and infinities as strings), or a description."""
    kind = type(value)
    if kind is bool:
        return {"__type__": "bool", "repr": "True" if value else "False"}
    if kind is int and value.bit_length() > 1024:  # float() would raise OverflowError
        return {"__type__": "huge int", "repr": f"an int of {value.bit_length()} bits"}
    if kind is float or kind is int:
        number = float(value)
        return number if _isfinite(number) else repr(number)
    return {"__type__": _name_of(value), "repr": _safe_repr(value)}


def _seed_globals(seed: int) -> None:
    """InternBootcamp classes draw from the global generators: seed them (intern mode only)."""
    _random_seed(seed)
    numpy = _sys_modules.get("numpy")
    if numpy is not None:
        try:  # noqa: SIM105 -- the server references no module (contextlib)
            numpy.random.seed(seed % 2**32)
        except Exception:
            pass


# -- the questions -------------------------------------------------------------------------


def m_check(p: dict[str, Any]) -> Any:
    answer = p.get("answer")
    if type(answer) is not str:
        raise _usage("answer must be a string")
    value = _bounded(_checker_fn("check"), (_case(p), answer), _limit(p, 2.0))
    return value if type(value) is bool else {"__type__": _name_of(value),
                                               "repr": _safe_repr(value)}


def m_validate(p: dict[str, Any]) -> Any:
    """An input validator's verdict on one standard input: None (the input is legal), the
    reason it is not (a str, cut to :data:`TEXT_CAP`), or a description of anything else it
    returned (the host refuses that)."""
    stdin = p.get("stdin")
    if type(stdin) is not str:
        raise _usage("stdin must be a string")
    value = _bounded(_checker_fn("validate"), (stdin,), _limit(p, 2.0))
    if value is None:
        return None
    if type(value) is str:
        return value[:TEXT_CAP]
    return {"__type__": _name_of(value), "repr": _safe_repr(value)}


def m_solve(p: dict[str, Any]) -> Any:
    return _plain_text(_bounded(_checker_fn("solve"), (_case(p),), _limit(p, 2.0)))


def m_probes(p: dict[str, Any]) -> Any:
    value = _bounded(_checker_fn("probes"), (_case(p),), _limit(p, 2.0))
    if (type(value) is list or type(value) is tuple) and all(type(x) is str for x in value):
        return list(value)[:200]
    return {"__type__": _name_of(value), "repr": _safe_repr(value)}


def m_construct(p: dict[str, Any]) -> int:
    s = _S
    params, seed, limit = p.get("params") or {}, p.get("seed"), _limit(p, 10.0)
    if type(params) is not dict:
        raise _usage("params must be an object")
    cls = s.cls
    if s.mode == "intern":
        if type(seed) is int:
            _seed_globals(seed)
        inst = _bounded(lambda: cls(**params), (), limit)
    else:
        inst = _bounded(lambda: cls(seed=seed, **params), (), limit)
    handle = s.next_handle
    s.next_handle += 1
    s.instances[handle] = inst
    return handle


def m_drop(p: dict[str, Any]) -> bool:
    handle = p.get("handle", 0)
    return type(handle) is int and _S.instances.pop(handle, None) is not None


def m_generate(p: dict[str, Any]) -> dict[str, Any]:
    inst = _instance(p.get("handle"))
    limit = _limit(p, 2.0)
    if _S.mode == "intern" and type(p.get("reseed")) is int:
        _seed_globals(p["reseed"])
    generate = _bounded(getattr, (inst, "case_generator"), limit)
    case = _bounded(generate, (), limit)
    return _encode_intern(case) if _S.mode == "intern" else _encode_value(case)


#: How many converted cases (as generated) the server keeps for ``roundtrip``.
ORIGINALS_KEPT = 16


def _encode_intern(case: Any) -> dict[str, Any]:
    """Intern mode: a case that only ``json.dumps`` changes (tuples become lists, int keys
    strings), as InternBootcamp's data pipeline stores it, is sent in its JSON form with
    ``converted`` (what changed); the case as generated is kept for ``roundtrip``."""
    out = _encode_value(case)
    if "problem" not in out or type(case) is not dict:
        return out
    converted = _as_json(case, 0)
    problem = json_problem(converted)
    if problem is not None:
        return {"problem": problem, "repr": out.get("repr", "")}
    text = canonical(converted)
    kept = _S.originals
    if len(kept) < ORIGINALS_KEPT and text not in kept:
        kept[text] = case
    return {"text": text, "converted": out["problem"]}


def _as_json(obj: Any, depth: int) -> Any:
    """``obj`` as ``json.dumps`` would store it, for exact tuples (lists) and exact int keys
    (their decimal text, unless that key is already there); anything else is left as it is
    (for :func:`json_problem` to name)."""
    kind = type(obj)
    if depth > 200:
        return obj
    if kind is tuple or kind is list:
        return [_as_json(x, depth + 1) for x in obj]
    if kind is dict:
        out: dict[Any, Any] = {}
        for key, value in obj.items():
            if type(key) is int and key.bit_length() <= 13_000:
                text = str(key)
                key = key if text in obj or text in out else text
            out[key] = _as_json(value, depth + 1)
        return out
    return obj


def _intern_verify(response: str, identity: Any, fmt: Any, limit: float) -> tuple[Any, Any]:
    """Intern mode: ``verify_score`` and the first exception it swallowed ((where, exc) or
    None), as the audit shim recorded it."""
    s = _S
    s.shim.clear_swallowed()
    value = _bounded(_bounded(getattr, (s.cls, "verify_score"), limit),
                     (response, identity, fmt), limit)
    swallowed = s.shim.SWALLOWED
    first = swallowed[0] if type(swallowed) is list and swallowed else None
    s.shim.clear_swallowed()
    return value, first if type(first) is tuple and len(first) == 2 else None


def _swallowed_info(first: Any) -> dict[str, Any]:
    where, exc = first
    if not isinstance(exc, BaseException):  # the shim's record, changed by the audited code
        return {"where": _safe_str(where)[:100], "type": _name_of(exc),
                "message": "(not an exception)", "traceback": ""}
    return {"where": _safe_str(where)[:100], "type": _name_of(exc),
            "message": _bounded(_message, (exc,), 1.0), "traceback": _trace(exc)}


def m_roundtrip(p: dict[str, Any]) -> list[Any]:
    """Intern mode: each response scored on a converted case as it was generated and as the
    JSON round trip gives it back: ``[[[score, swallowed type], [score, swallowed type]], ...]``
    (scores as in ``score``; the type is "" when nothing was swallowed)."""
    s = _S
    text, responses = p.get("case_text"), p.get("responses")
    if type(text) is not str:
        raise _usage("case_text must be a string of JSON")
    original = s.originals.get(text) if s.mode == "intern" else None
    if original is None:
        raise _usage("no converted case with this text was generated")
    if type(responses) is not list or not all(type(r) is str for r in responses):
        raise _usage("responses must be a list of strings")
    limit = _limit(p, 2.0)
    out: list[Any] = []
    for response in responses[:64]:
        pair = []
        for identity in (original, loads(text)):
            value, first = _intern_verify(response, identity, 0.0, limit)
            score = value if type(value) is float and _isfinite(value) else _score_value(value)
            pair.append([score, _name_of(first[1]) if first is not None else ""])
        out.append(pair)
    return out


def m_prompt(p: dict[str, Any]) -> Any:
    limit = _limit(p, 2.0)
    return _plain_text(_bounded(_method("prompt_func", limit), (_case(p),), limit))


def m_answer(p: dict[str, Any]) -> Any:
    limit = _limit(p, 2.0)
    return _plain_text(_bounded(_method("reference_answer", limit), (_case(p),), limit))


def m_stdin(p: dict[str, Any]) -> Any:
    limit = _limit(p, 2.0)
    return _plain_text(_bounded(_method("render_stdin", limit), (_case(p),), limit))


def m_wrap(p: dict[str, Any]) -> Any:
    answer = p.get("answer")
    if type(answer) is not str:
        raise _usage("answer must be a string")
    limit = _limit(p, 2.0)
    return _plain_text(_bounded(_method("wrap_answer", limit), (answer,), limit))


def m_score(p: dict[str, Any]) -> dict[str, Any]:
    s = _S
    response, fmt, limit = p.get("response"), p.get("format_score", 0.0), p.get("limit", 5.0)
    if type(response) is not str:
        raise _usage("response must be a string")
    if type(fmt) is not float and type(fmt) is not int:
        raise _usage("format_score must be a number")
    if type(limit) is not float:
        limit = _limit(p, 5.0)
    identity = p["case"] if "case" in p else _case(p)
    out: dict[str, Any] = {}
    if s.mode == "intern":
        value, first = _intern_verify(response, identity, fmt, limit)
        if first is not None:
            out["swallowed"] = _swallowed_info(first)
        changed = p.get("check_identity") and canonical(identity) != p.get("case_text")
    else:
        # Before: skipped when nothing of the bootcamp can have run since the last clean check
        # (see the end). The call itself runs with the collector on.
        before = s.clean or _scoring_intact()
        s.clean = False
        _gc_enable()
        value = _bounded(s.verify, (s.cls, response, identity, fmt), limit)
        # may run bootcamp code (a dict subclass put in the case): before the check
        changed = p.get("check_identity") and canonical(identity) != p.get("case_text")
        identity = None
        p.clear()  # the case, and whatever the bootcamp hung on it, go now: before the check
        s.calls += 1
        if not (before and _scoring_intact()) or _G.events or not (
                s.calls % CODE_CHECK_EVERY or (_intact(s.contract_snap) and _intact(s.class_snap))):
            out["tampered"] = _tampered() or ["changed during the call, then restored"]
        else:
            # Clean: from here to the next scoring call the kit drops nothing of the bootcamp's
            # and calls none of its code, and with the collector off no finalizer runs; any
            # other request, and any error, ends it (``_dispatch``).
            _gc_disable()
            s.clean = True
    out["score"] = value if type(value) is float and _isfinite(value) else _score_value(value)
    if changed:
        out["identity_changed"] = True
    return out


def m_events(p: dict[str, Any]) -> list[str]:
    """Intern mode: what the guard refused since the last ``events`` question (subprocesses,
    reads outside the allowed folders, executed response text), then forgotten."""
    if _S.mode != "intern":
        raise _usage("events are reported in intern mode only")
    events = _G.events
    out = [_safe_str(e)[:300] for e in events]
    del events[:]
    return out


def m_sample(p: dict[str, Any]) -> list[dict[str, Any]]:
    """Batch: for each (level, seed) spec, construct, generate one case, render its prompt
    (and optionally the reference answer). Used by export, the filter and review. With
    ``render: "stdin"`` a row holds the case's ``render_stdin`` text instead of its prompt (code
    test suites); the level ``stress`` names the class's ``STRESS`` preset when LEVELS has no
    level of that name, or, for a class that declares none, the host's ``stress`` parameters (a
    preset the host derived, :mod:`synth.suites.stress`)."""
    specs = p.get("specs")
    if type(specs) is not list:
        raise _usage("specs must be a list")
    # the presets as the handshake reported them (a copy taken at load): a bootcamp that
    # mutates its LEVELS later cannot change what export, the filter and review construct
    presets = _S.levels_at_load if type(_S.levels_at_load) is dict else {}
    host = p.get("stress")
    if host is not None and (type(host) is not dict or _S.stress_at_load is not None
                             or p.get("render") != "stdin"):
        raise _usage("a stress preset is given only for stdin draws of a class without STRESS")
    stress = _S.stress_at_load if type(_S.stress_at_load) is dict else host
    if "stress" not in presets and type(stress) is dict:
        presets = {**presets, "stress": stress}
    limit = _limit(p, 5.0)
    answers = p.get("answers") is True
    render = p.get("render", "prompt")
    if render != "prompt" and render != "stdin":
        raise _usage("render must be 'prompt' or 'stdin'")
    rows: list[dict[str, Any]] = []
    for index, spec in enumerate(specs):
        try:
            rows.append(_sample_one(spec, presets, limit, answers, render))
        except Exception as exc:
            err = _failed(exc)
            if err is not None:
                err["index"] = index  # which spec failed: the host names the row
            raise
    return rows


def _sample_one(spec: Any, presets: dict[str, Any], limit: float,
                answers: bool, render: str = "prompt") -> dict[str, Any]:
    if type(spec) is not list or len(spec) < 2:
        raise _usage("a spec is [level, seed]")
    level, seed = spec[0], spec[1]
    if level == "default":
        params: dict[str, Any] = {}
    elif type(level) is str and type(presets.get(level)) is dict:
        params = dict(presets[level])
    else:
        raise _usage(f"{_name_of_class(_S.cls)} has no level {level!r:.80}")
    handle = m_construct({"params": params, "seed": seed, "limit": limit})
    try:
        encoded = m_generate({"handle": handle, "limit": limit, "reseed": seed})
    finally:
        _S.instances.pop(handle, None)
    row: dict[str, Any] = {"case": encoded}
    if "problem" not in encoded:
        case_text = encoded["text"]
        if render == "stdin":
            row["stdin"] = m_stdin({"case_text": case_text, "limit": limit})
        else:
            row["prompt"] = m_prompt({"case_text": case_text, "limit": limit})
        if answers:
            row["answer"] = m_answer({"case_text": case_text, "limit": limit})
    return row
