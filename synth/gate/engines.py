"""The gate's view of declared engines (``ENGINES = ("gnugo",)``, :mod:`synth.engines`).

* :func:`load_problem` -- after the module loaded: a declared engine that the sandbox could not
  start (not installed on the chosen backend, unknown, no version answer) makes the load check
  ``cannot_judge`` ("cannot judge: needs gnugo"): the bootcamp may be right, the gate cannot run
  it. The versions of the engines that did start are recorded in the load check's artifacts.
* :func:`budgets` -- a bootcamp that consults an engine spends engine time in its calls: the
  suite's time budgets (per call, per case, per check, the whole suite) grow by the largest
  declared engine's ``time_factor``; the engine's own per-command timeout (the broker kills an
  engine that does not answer) still bounds every engine call.
* :func:`log_difference` -- the same calls, asked in two processes, must send the engines the
  same commands (the broker's log, :func:`synth.engines.command_log`): a seed or level drawn
  from the clock or a string's hash is nondeterminism even where the engine's answers agreed.
"""

from __future__ import annotations

from typing import Any

from synth.engines import REGISTRY, declared_engines, time_factor
from synth.gate.report import CheckConfig
from synth.sandbox.base import Limits

__all__ = ["budgets", "engine_versions", "load_problem", "log_difference"]

#: The CheckConfig fields that are times, scaled for engine bootcamps.
_TIMES = ("level_budget_s", "case_limit_s", "worker_timeout_s", "garbage_limit_s",
          "garbage_max_s", "check_budget_s", "gen_mean_s", "gen_max_s", "call_mean_s",
          "call_max_s", "differential_budget_s", "oracle_timeout_s",
          # the multi-turn checks (synth.gate.episodes)
          "step_limit_s", "step_mean_s", "step_max_s", "episode_budget_s")
#: How much the whole suite's wall clock grows (less than the per-call budgets: the suite
#: already stops generating at its minimum number of cases when generation is slow).
_WALL_FACTOR = 6.0


def load_problem(source: str, info: dict[str, Any]) -> dict[str, Any] | None:
    """The load check's result when a declared engine is unavailable in the sandbox, or None.
    ``info``: the method server's handshake (``engine_status``: name -> ok/version/error)."""
    declared = declared_engines(source)
    if not declared:
        return None
    status = info.get("engine_status")
    status = status if type(status) is dict else {}
    missing: list[tuple[str, str]] = []
    for name in declared:
        entry = status.get(name)
        if type(entry) is not dict:
            missing.append((name, "the sandbox did not start it"))
        elif entry.get("ok") is not True:
            missing.append((name, str(entry.get("error", "it did not start"))[:300]))
    if not missing:
        return None
    needs = ", ".join(name for name, _ in missing)
    why = "; ".join(f"{name}: {text}" for name, text in missing)
    hints = "; ".join(f"install {REGISTRY[name].package}" for name, text in missing
                      if name in REGISTRY and "install" not in text)
    return {"status": "error", "severity": "cannot_judge", "finding": "missing_engine",
            "reason": f"cannot judge: needs {needs} ({why})" + (f"; {hints}" if hints else ""),
            "artifacts": {"missing_engines": needs, "engine_errors": why}}


def engine_versions(info: dict[str, Any]) -> str:
    """``"gnugo: GNU Go 3.8"`` for the engines the sandbox started ("" when none)."""
    status = info.get("engine_status")
    if type(status) is not dict:
        return ""
    return ", ".join(f"{name}: {entry.get('version', '?')}" for name, entry in sorted(status.items())
                     if type(entry) is dict and entry.get("ok") is True)


def budgets(cfg: CheckConfig, source: str) -> CheckConfig:
    """``cfg`` with its time budgets grown for the engines ``source`` declares (``cfg`` itself
    when it declares none)."""
    if not declared_engines(source):
        return cfg
    factor = time_factor(source)
    update: dict[str, Any] = {}
    for name in _TIMES:
        field = CheckConfig.model_fields[name]
        limit = next((m.le for m in field.metadata if getattr(m, "le", None) is not None), None)
        value = getattr(cfg, name) * factor
        update[name] = min(value, limit) if limit is not None else value
    wall = min(3600.0, cfg.limits.wall_s * _WALL_FACTOR)
    update["limits"] = Limits(**{**cfg.limits.model_dump(), "wall_s": wall,
                                 "cpu_s": min(3600.0, max(cfg.limits.cpu_s, wall))})
    return cfg.model_copy(update=update)


def log_difference(first: list[Any], second: list[Any]) -> dict[str, Any] | None:
    """Where two processes' engine logs of the same calls (one entry per call, as the method
    server's ``engine_log`` answered) first differ: ``{"call": index, "first_process",
    "second_process", "commands"}`` -- the first command that differs, or the counts -- or None
    when every call compared sent the same commands."""
    for index, (mine, theirs) in enumerate(zip(first, second, strict=False)):
        if mine == theirs:
            continue
        if type(mine) is not dict or type(theirs) is not dict or "digest" not in mine \
                or "digest" not in theirs:
            return {"call": index, "first_process": _text(mine), "second_process": _text(theirs),
                    "commands": "a log was not answered"}
        if mine["digest"] == theirs["digest"]:
            continue
        heads = [h if type(h) is list else [] for h in (mine.get("head"), theirs.get("head"))]
        at = next((k for k, (a, b) in enumerate(zip(*heads, strict=False)) if a != b),
                  min(map(len, heads)))
        shown = [str(h[at]) if at < len(h) else "(no more commands)" for h in heads]
        return {"call": index, "first_process": shown[0], "second_process": shown[1],
                "commands": f"{mine.get('count')} commands in the first process, "
                            f"{theirs.get('count')} in the second; they differ from command "
                            f"{at + 1}"}
    return None


def _text(value: Any) -> str:
    return str(value)[:300]
