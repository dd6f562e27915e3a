"""`synth report`: what a run produced, where it lost tasks, what it cost and where the time went.

A run folder (``events.jsonl``, ``summary.json``, ``config.json``, ``filter/*.json``,
``tasks.jsonl``) is read into pandas tables (``analyse``), which the command prints as rich tables,
writes as CSV, and renders into a self-contained ``report.html`` with inline SVG charts
(``render_html``: no scripts, no external assets, works offline).

Counting rules: a task counts once per stage however often it was resumed (stages are facts
about a task, and the last ``task_end`` decides its outcome); model calls, node steps and
sessions count every time they happened, because a replayed call was paid for and took time.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
import pandas as pd

from synth.models.llm import Price
from synth.reporting.charts import charts
from synth.runs import read_events, task_slug

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
STAGES = ("tasks", "started", "drafted", "passed gate", "passed filter", "committed")
N_BINS = 10
CALL_COLUMNS = ["task", "role", "model", "tag", "tokens_in", "tokens_out", "tokens_cached", "latency_s"]
CALL_COLUMNS += ["cost_usd", "ok"]

#: table name -> title, in the order they are shown
TITLES = {
    "totals": "Totals",
    "yield": "Yield per stage",
    "outcomes": "Outcomes",
    "reasons": "Rejection reasons",
    "rounds": "Rounds needed to pass the gate",
    "pass_rates": "Filter pass rates",
    "calibration_levels": "Calibration per level",
    "calibration_bootcamps": "Calibration per bootcamp",
    "steering": "Difficulty steering (per task and round)",
    "repairs": "Repairs applied before the gate",
    "tokens_by_role": "Tokens and cost per role",
    "tokens_by_stage": "Tokens and cost per stage",
    "cost_per_bootcamp": "Cost per accepted bootcamp",
    "time_by_node": "Time per stage (node steps)",
    "llm_latency": "Model latency per role",
    "sessions": "Sessions",
    "tasks": "Tasks",
}


class ReportError(Exception):
    """A run folder that cannot be reported on (the message says why and what to do)."""


@dataclass
class RunRecords:
    """Everything a report reads from a run folder."""

    run_id: str
    events: list[dict[str, Any]]
    summary: dict[str, Any] | None = None
    config: dict[str, Any] = field(default_factory=dict)
    filters: dict[str, dict[str, Any]] = field(default_factory=dict)  # task id -> FilterResult
    task_ids: list[str] = field(default_factory=list)


@dataclass
class Report:
    run_id: str
    band: tuple[float, float]
    tables: dict[str, pd.DataFrame]
    facts: dict[str, Any]


# -- loading -----------------------------------------------------------------------------------


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def load_run(root: Path) -> RunRecords:
    """Read a run folder; tolerate a missing summary (interrupted run) and a torn event log."""
    if not (root / "events.jsonl").exists() and not (root / "config.json").exists():
        raise ReportError(f"{root} is not a run folder (no events.jsonl or config.json)")
    saved = _read_json(root / "config.json") or {}
    task_ids: list[str] = []
    tasks_path = root / "tasks.jsonl"
    if tasks_path.exists():
        for line in tasks_path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                task_ids.append(str(json.loads(line)["id"]))
            except (ValueError, KeyError, TypeError):
                continue
    events = read_events(root / "events.jsonl")
    summary = _read_json(root / "summary.json")
    known = {task_slug(t): t for t in task_ids}
    known.update({task_slug(str(e["task"])): str(e["task"]) for e in events if e.get("task")})
    filters: dict[str, dict[str, Any]] = {}
    for path in sorted((root / "filter").glob("*.json")):
        data = _read_json(path)
        if isinstance(data, dict):
            filters[known.get(path.stem, path.stem)] = data
    return RunRecords(
        run_id=str(saved.get("run_id") or root.name),
        events=events,
        summary=summary if isinstance(summary, dict) else None,
        config=saved.get("config") or {},
        filters=filters,
        task_ids=task_ids,
    )


# -- analysis ----------------------------------------------------------------------------------


def _truthy(value: Any) -> bool:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return False
    return bool(value)


def _frame(events: list[dict[str, Any]], kind: str, columns: Sequence[str]) -> pd.DataFrame:
    """The events of one kind as a DataFrame with (at least) ``columns``, in log order."""
    df = pd.DataFrame([e for e in events if e.get("kind") == kind])
    for col in columns:
        if col not in df.columns:
            df[col] = None
    return df.reset_index(drop=True)


def _number(series: pd.Series) -> pd.Series:
    return pd.to_numeric(series, errors="coerce").fillna(0.0)


def _rate_bin(rate: float) -> int:
    return min(N_BINS - 1, max(0, math.floor(round(rate * N_BINS, 9))))


def _level_order(filters: Iterable[dict[str, Any]]) -> list[str]:
    """Levels in the order the bootcamps declare them (the filter samples them round-robin)."""
    order: list[str] = []
    for res in filters:
        samples = sorted(res.get("samples") or [], key=lambda s: s.get("index", 0))
        for name in list(res.get("level_pass_rates") or {}) + [s.get("level") for s in samples]:
            if name and name not in order:
                order.append(str(name))
    return order


def _warmup(event: dict[str, Any]) -> bool:
    """A prefix warm-up call (role ``warmup``): the run's, not a task's -- runs before the
    ledger said so attributed it to a task named ``warmup``."""
    return event.get("kind") == "llm_call" and event.get("role") == "warmup"


def _run_level(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events with every warm-up call's task taken away."""
    return [{**e, "task": None} if _warmup(e) and e.get("task") else e for e in events]


def _task_ids(rec: RunRecords) -> list[str]:
    ids = list(dict.fromkeys(rec.task_ids))
    for o in (rec.summary or {}).get("outcomes", []):
        if o.get("task_id") not in ids:
            ids.append(o["task_id"])
    for e in rec.events:
        task = e.get("task")
        if task and e.get("kind") != "run_start" and task not in ids:
            ids.append(str(task))
    return ids


def _final_outcomes(
    rec: RunRecords, ids: list[str], started: set[str]
) -> dict[str, dict[str, Any]]:
    """task -> {status, reason_code, reason, bootcamp}; the last task_end wins over the summary."""
    out: dict[str, dict[str, Any]] = {}
    for o in (rec.summary or {}).get("outcomes", []):
        out[o["task_id"]] = dict(o)
    for e in rec.events:
        if e.get("kind") == "task_end" and e.get("task"):
            out[str(e["task"])] = {
                k: e.get(k) for k in ("status", "reason_code", "reason", "bootcamp")
            }
    for tid in ids:
        if tid not in out:
            status = "interrupted" if tid in started else "not_started"
            out[tid] = {"status": status, "reason_code": "", "reason": "", "bootcamp": None}
    return out


def task_table(rec: RunRecords) -> pd.DataFrame:
    """One row per task: its outcome, the stages it reached, its filter result and its spend."""
    ev = rec.events
    ids = _task_ids(rec)
    started = {str(e["task"]) for e in ev if e.get("kind") == "task_start" and e.get("task")}
    final = _final_outcomes(rec, ids, started)
    nodes = _frame(ev, "node", ["task", "node", "round", "with_code", "passed", "elapsed_s"])
    coding = nodes[nodes["node"].isin(["draft", "revise"]) & nodes["with_code"].map(_truthy)]
    drafted = set(coding["task"])
    gate = nodes[(nodes["node"] == "check") & nodes["passed"].map(_truthy)]
    gate_round = pd.to_numeric(gate["round"], errors="coerce").groupby(gate["task"]).min()
    node_time = _number(nodes["elapsed_s"]).groupby(nodes["task"]).sum()
    filt_events = _frame(ev, "filter", ["task", "verdict", "pass_rate"])
    filters: dict[str, dict[str, Any]] = {
        str(r["task"]): {str(k): v for k, v in r.items()} for r in filt_events.to_dict("records")
    }  # the last filter event of a task wins; the filter record file wins over events
    filters.update(rec.filters)
    committed = {str(e["task"]) for e in ev if e.get("kind") == "commit" and e.get("task")}
    calls = llm_calls(ev)
    spend = calls.groupby("task")[["tokens_in", "tokens_out", "cost_usd"]].sum()
    n_calls = calls.groupby("task").size()
    rows = []
    for tid in ids:
        f, o = filters.get(tid), final[tid]
        rate = f.get("pass_rate") if f else None
        rows.append(
            {
                "task": tid,
                "status": o.get("status") or "",
                "reason_code": o.get("reason_code") or "",
                "bootcamp": o.get("bootcamp") or None,
                "started": tid in started,
                "drafted": tid in drafted,
                "passed_gate": tid in gate_round.index or f is not None,
                "gate_round": int(gate_round[tid]) if tid in gate_round.index else None,
                "verdict": f.get("verdict") if f else None,
                "pass_rate": float(rate) if rate is not None and rate == rate else None,
                "passed_filter": bool(f and f.get("verdict") == "accepted"),
                "committed": tid in committed or o.get("status") == "accepted",
                "llm_calls": int(n_calls.get(tid, 0)),
                "tokens_in": int(spend["tokens_in"].get(tid, 0)),
                "tokens_out": int(spend["tokens_out"].get(tid, 0)),
                "cost_usd": float(spend["cost_usd"].get(tid, 0.0)),
                "node_time_s": float(node_time.get(tid, 0.0)),
                "reason": o.get("reason") or "",
            }
        )
    df = pd.DataFrame(rows, columns=list(rows[0]) if rows else ["task", "status"])
    if "gate_round" in df:
        df["gate_round"] = df["gate_round"].astype("Int64")
    return df


def llm_calls(events: list[dict[str, Any]]) -> pd.DataFrame:
    df = _frame(events, "llm_call", CALL_COLUMNS)
    for col in ("tokens_in", "tokens_out", "tokens_cached"):
        df[col] = _number(df[col]).astype(int)
    for col in ("latency_s", "cost_usd"):
        df[col] = _number(df[col]).astype(float)
    df["role"] = df["role"].fillna("?").astype(str)
    df["stage"] = df["tag"].map(
        lambda t: str(t).split("|")[1] if isinstance(t, str) and t.count("|") >= 1 else "other"
    )
    df["failed"] = ~df["ok"].map(lambda v: v is None or _truthy(v))
    return df


def _yield(tasks: pd.DataFrame) -> pd.DataFrame:
    n = len(tasks)
    counts = [n] + [
        int(tasks[c].sum()) if n else 0
        for c in ("started", "drafted", "passed_gate", "passed_filter", "committed")
    ]
    started = counts[1]
    return pd.DataFrame(
        {
            "stage": list(STAGES),
            "tasks": counts,
            "share_of_started": [None] + [c / started if started else 0.0 for c in counts[1:]],
            "lost": [0] + [counts[i - 1] - counts[i] for i in range(1, len(counts))],
        }
    )


def _reasons(tasks: pd.DataFrame) -> pd.DataFrame:
    cols = ["reason_code", "status", "tasks", "example"]
    bad = tasks[tasks["status"] != "accepted"] if len(tasks) else tasks
    if bad.empty:
        return pd.DataFrame(columns=cols)
    bad = bad.assign(reason_code=bad["reason_code"].replace("", "(none)"))
    grouped = bad.groupby(["reason_code", "status"], sort=False).agg(
        tasks=("task", "size"), example=("reason", "first")
    )
    return (
        grouped.reset_index()
        .sort_values(["tasks", "reason_code"], ascending=[False, True], kind="stable")
        .reset_index(drop=True)[cols]
    )


def _rounds(tasks: pd.DataFrame) -> pd.DataFrame:
    cols = ["rounds_needed", "revisions", "tasks", "committed"]
    passed = tasks[tasks["gate_round"].notna()] if len(tasks) else tasks
    if passed.empty:
        return pd.DataFrame(columns=cols)
    needed = passed["gate_round"].astype(int) + 1
    rows = [
        {
            "rounds_needed": k,
            "revisions": k - 1,
            "tasks": int((needed == k).sum()),
            "committed": int(passed["committed"][needed == k].sum()),
        }
        for k in range(1, int(needed.max()) + 1)
    ]
    return pd.DataFrame(rows, columns=cols)


def _histogram(tasks: pd.DataFrame, band: tuple[float, float]) -> pd.DataFrame:
    rates = tasks["pass_rate"].dropna() if len(tasks) else pd.Series(dtype=float)
    counts = [0] * N_BINS
    for r in rates:
        counts[_rate_bin(float(r))] += 1
    lo = [i / N_BINS for i in range(N_BINS)]
    hi = [(i + 1) / N_BINS for i in range(N_BINS)]
    return pd.DataFrame(
        {
            "bin": [f"{a:.1f}–{b:.1f}" for a, b in zip(lo, hi, strict=True)],
            "low": lo,
            "high": hi,
            "tasks": counts,
            "in_band": [_overlap(a, b, band) for a, b in zip(lo, hi, strict=True)],
        }
    )


def _overlap(a: float, b: float, band: tuple[float, float]) -> str:
    if a >= band[0] and b <= band[1]:
        return "yes"
    return "partly" if a <= band[1] and b >= band[0] else "no"


def _calibration(rec: RunRecords, tasks: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    filt = tasks[tasks["verdict"].notna()] if len(tasks) else tasks
    events = {str(e["task"]): e for e in rec.events if e.get("kind") == "filter" and e.get("task")}
    results = {tid: rec.filters.get(tid) or events.get(tid) or {} for tid in filt.get("task", [])}
    levels = _level_order(results.values())
    per_task = []
    for row in filt.to_dict("records") if len(filt) else []:
        res = results[row["task"]]
        rates = res.get("level_pass_rates") or {}
        per_task.append(
            {
                "task": row["task"],
                "bootcamp": row["bootcamp"],
                "verdict": row["verdict"],
                "pass_rate": row["pass_rate"],
                "answered": res.get("answered"),
                **{f"{lvl}_rate": rates.get(lvl) for lvl in levels},
            }
        )
    by_task = pd.DataFrame(
        per_task,
        columns=[
            "task",
            "bootcamp",
            "verdict",
            "pass_rate",
            "answered",
            *[f"{lvl}_rate" for lvl in levels],
        ],
    )
    rows = []
    for lvl in levels:
        col = pd.to_numeric(by_task[f"{lvl}_rate"], errors="coerce")
        accepted = col[by_task["verdict"] == "accepted"]
        counts = sum(
            int((results[t].get("level_counts") or {}).get(lvl, 0)) for t in by_task["task"]
        )
        rows.append(
            {
                "level": lvl,
                "bootcamps": int(col.notna().sum()),
                "answers": counts,
                "mean_rate_all": col.mean() if col.notna().any() else None,
                "mean_rate_accepted": accepted.mean() if accepted.notna().any() else None,
            }
        )
    by_level = pd.DataFrame(
        rows, columns=["level", "bootcamps", "answers", "mean_rate_all", "mean_rate_accepted"]
    )
    return by_level, by_task


def _spend(calls: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    cols = [*keys, "calls", "failed_calls", "tokens_in", "tokens_cached", "tokens_out", "cost_usd"]
    if calls.empty:
        return pd.DataFrame(columns=cols)
    g = calls.groupby(keys, sort=True)
    out = g.agg(
        calls=("tokens_in", "size"),
        failed_calls=("failed", "sum"),
        tokens_in=("tokens_in", "sum"),
        tokens_cached=("tokens_cached", "sum"),
        tokens_out=("tokens_out", "sum"),
        cost_usd=("cost_usd", "sum"),
    )
    return out.reset_index()[cols]


STEERING_COLUMNS = ["task", "step", "round", "verdict_before", "pass_rate_before",
                    "verdict_after", "pass_rate_after", "levels_before", "levels_after", "outcome"]


def _levels(rates: Any) -> str:
    if not isinstance(rates, dict) or not rates:
        return ""
    return " ".join(f"{k} {float(v):.2f}" for k, v in rates.items() if isinstance(v, int | float))


def _steering(events: list[dict[str, Any]], tasks: pd.DataFrame) -> pd.DataFrame:
    """One row per steering round: the filter verdict and pass rates before and after (the
    ``steer`` events; a round asked but never settled shows no verdict after)."""
    rows: dict[tuple[str, int], dict[str, Any]] = {}
    for e in events:
        if e.get("kind") != "steer" or not e.get("task"):
            continue
        key = (str(e["task"]), int(e.get("step") or 0))
        row = rows.setdefault(key, {"task": key[0], "step": key[1], "verdict_after": None,
                                    "pass_rate_after": None, "levels_after": ""})
        row.update(round=e.get("round"), verdict_before=e.get("verdict_before"),
                   pass_rate_before=e.get("pass_rate_before"),
                   levels_before=_levels(e.get("level_pass_rates_before")))
        if e.get("action") == "result":
            row.update(verdict_after=e.get("verdict_after"), pass_rate_after=e.get("pass_rate_after"),
                       levels_after=_levels(e.get("level_pass_rates_after")))
    status = dict(zip(tasks["task"], tasks["status"], strict=True)) if len(tasks) else {}
    out = [{**r, "outcome": status.get(r["task"], "")} for r in rows.values()]
    return pd.DataFrame(out, columns=STEERING_COLUMNS)


def _repairs(events: list[dict[str, Any]]) -> pd.DataFrame:
    cols = ["repair", "stage", "repairs", "tasks", "example"]
    df = _frame(events, "repair", ["task", "repair", "stage", "detail"])
    if df.empty:
        return pd.DataFrame(columns=cols)
    df["stage"] = df["stage"].fillna("").map(lambda s: str(s).split(":", 1)[0])
    g = df.groupby(["repair", "stage"], sort=True)
    out = g.agg(repairs=("task", "size"), tasks=("task", "nunique"), example=("detail", "first"))
    return out.reset_index()[cols]


def _latency(calls: pd.DataFrame) -> pd.DataFrame:
    cols = ["role", "calls", "total_s", "mean_s", "p50_s", "p95_s", "max_s"]
    if calls.empty:
        return pd.DataFrame(columns=cols)
    g = calls.groupby("role")["latency_s"]
    out = pd.DataFrame(
        {
            "calls": g.size(),
            "total_s": g.sum(),
            "mean_s": g.mean(),
            "p50_s": g.quantile(0.5),
            "p95_s": g.quantile(0.95),
            "max_s": g.max(),
        }
    )
    return out.reset_index()[cols]


def _node_time(events: list[dict[str, Any]]) -> pd.DataFrame:
    cols = ["node", "steps", "total_s", "mean_s", "max_s"]
    nodes = _frame(events, "node", ["node", "elapsed_s"])
    if nodes.empty:
        return pd.DataFrame(columns=cols)
    nodes["elapsed_s"] = _number(nodes["elapsed_s"])
    order = {n: i for i, n in enumerate(["draft", "judge", "check", "revise", "filter", "steer"])}
    g = nodes.groupby("node")["elapsed_s"]
    out = pd.DataFrame(
        {"steps": g.size(), "total_s": g.sum(), "mean_s": g.mean(), "max_s": g.max()}
    )
    out = out.reset_index()
    return out.sort_values("node", key=lambda s: s.map(lambda n: order.get(n, 99))).reset_index(
        drop=True
    )[cols]


def sessions(events: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per ``synth run`` session (a resume starts a new one): wall time, how it ended."""
    rows: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for e in events:
        ts = e.get("ts")
        if e.get("kind") == "run_start":
            current = {
                "session": len(rows) + 1,
                "start": ts,
                "end": ts,
                "completed": False,
                "tasks_ended": 0,
            }
            rows.append(current)
        elif current is not None and isinstance(ts, int | float):
            current["end"] = max(current["end"] or ts, ts)
            current["completed"] = current["completed"] or e.get("kind") == "run_end"
            current["tasks_ended"] += e.get("kind") == "task_end"
    out = []
    for r in rows:
        start = r["start"] if isinstance(r["start"], int | float) else None
        out.append(
            {
                "session": r["session"],
                "started_utc": datetime.fromtimestamp(start, UTC).strftime("%Y-%m-%d %H:%M:%S")
                if start is not None
                else "",
                "ended": "completed" if r["completed"] else "interrupted",
                "tasks_ended": r["tasks_ended"],
                "wall_s": float(r["end"] - start) if start is not None else 0.0,
            }
        )
    return pd.DataFrame(out, columns=["session", "started_utc", "ended", "tasks_ended", "wall_s"])


def reprice(events: list[dict[str, Any]], prices: dict[str, Price]) -> list[dict[str, Any]]:
    """The events with the cost of every call to a model in ``prices`` computed from its tokens
    (for a run made without a price table, or with old prices); other calls keep their cost."""
    out = []
    for e in events:
        price = prices.get(str(e.get("model"))) if e.get("kind") == "llm_call" else None
        if price is not None:
            tokens_in, tokens_out = int(e.get("tokens_in") or 0), int(e.get("tokens_out") or 0)
            e = {**e, "cost_usd": price.cost(tokens_in, tokens_out, int(e.get("tokens_cached") or 0))}
        out.append(e)
    return out


def analyse(rec: RunRecords, prices: dict[str, Price] | None = None) -> Report:
    """All the tables of a report, from the records of one run (``prices``: see ``reprice``)."""
    rec = replace(rec, events=_run_level(rec.events))
    if prices:
        rec = replace(rec, events=reprice(rec.events, prices))
    cfg = rec.config
    band = (float(cfg.get("band_low", 0.03)), float(cfg.get("band_high", 0.85)))
    tasks = task_table(rec)
    calls = llm_calls(rec.events)
    by_level, by_task = _calibration(rec, tasks)
    accepted = tasks[tasks["status"] == "accepted"] if len(tasks) else tasks
    spend_cols = "bootcamp task llm_calls tokens_in tokens_out cost_usd pass_rate gate_round"
    per_bootcamp = accepted.reindex(columns=spend_cols.split())
    outcome_counts = tasks["status"].value_counts() if len(tasks) else pd.Series(dtype=int)
    order = ["accepted", "rejected", "failed", "skipped", "not_started", "interrupted"]
    statuses = [s for s in order if s in outcome_counts] + [
        s for s in outcome_counts.index if s not in order
    ]
    outcomes = pd.DataFrame(
        {"status": statuses, "tasks": [int(outcome_counts[s]) for s in statuses]}
    )
    sess = sessions(rec.events)
    n_acc = len(accepted)
    tokens_in, tokens_out = int(calls["tokens_in"].sum()), int(calls["tokens_out"].sum())
    tokens_cached = int(calls["tokens_cached"].sum())
    steering = _steering(rec.events, tasks)
    cost = float(calls["cost_usd"].sum())
    facts: dict[str, Any] = {
        "tasks": len(tasks),
        "accepted": n_acc,
        "yield": n_acc / int(tasks["started"].sum())
        if len(tasks) and tasks["started"].any()
        else 0.0,
        "llm_calls": len(calls),
        "tokens_in": tokens_in,
        "tokens_out": tokens_out,
        "tokens_cached": tokens_cached,
        "llm_seconds": float(calls["latency_s"].sum()),
        "steering_rounds": len(steering),
        "steered_into_band": int((steering["verdict_after"] == "accepted").sum()) if len(steering) else 0,
        "repairs": sum(1 for e in rec.events if e.get("kind") == "repair"),
        "cost_usd": cost,
        "cost_per_accepted_usd": cost / n_acc if n_acc else None,
        "tokens_per_accepted": (tokens_in + tokens_out) / n_acc if n_acc else None,
        "wall_s": float(sess["wall_s"].sum()) if len(sess) else 0.0,
        "sessions": len(sess),
        "band_low": band[0],
        "band_high": band[1],
        "coder": (cfg.get("coder") or {}).get("model", ""),
        "solver": (cfg.get("solver") or {}).get("model", ""),
        "priced": bool(cfg.get("prices") or prices) or cost > 0,
        "repriced": bool(prices),
    }
    totals = pd.DataFrame({"metric": list(facts), "value": [_plain(v) for v in facts.values()]})
    tables = {
        "totals": totals,
        "yield": _yield(tasks),
        "outcomes": outcomes,
        "reasons": _reasons(tasks),
        "rounds": _rounds(tasks),
        "pass_rates": _histogram(tasks, band),
        "calibration_levels": by_level,
        "calibration_bootcamps": by_task,
        "steering": steering,
        "repairs": _repairs(rec.events),
        "tokens_by_role": _spend(calls, ["role", "model"]),
        "tokens_by_stage": _spend(calls, ["stage", "role"]),
        "cost_per_bootcamp": per_bootcamp.reset_index(drop=True),
        "time_by_node": _node_time(rec.events),
        "llm_latency": _latency(calls),
        "sessions": sess,
        "tasks": tasks,
    }
    return Report(run_id=rec.run_id, band=band, tables=tables, facts=facts)


def _plain(value: Any) -> Any:
    return "" if value is None else value


def write_csv(report: Report, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, df in report.tables.items():
        path = folder / f"{name}.csv"
        df.to_csv(path, index=False)
        paths.append(path)
    return paths


# -- formatting (shared by the terminal and the page) -------------------------------------------


def fmt(column: str, value: Any) -> str:
    """A cell as people read it: money with $, seconds with 2 decimals, rates with 3."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    number = float(value)
    if column.endswith("usd"):
        return f"${number:,.4f}"
    if column.startswith("share") or column == "yield":
        return f"{number:.0%}"
    if column.endswith("_s"):
        return f"{number:,.2f}"
    if number.is_integer() and "rate" not in column and column not in ("low", "high"):
        return f"{int(number):,}"
    if "rate" in column or column.startswith("band") or column in ("low", "high"):
        return f"{number:.3f}"
    return f"{number:,.1f}"


def header(column: str) -> str:
    return column.removesuffix("_usd").replace("_", " ") + (
        " ($)" if column.endswith("usd") else ""
    )


# -- HTML --------------------------------------------------------------------------------------


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["cell"] = lambda value, column: fmt(column, value)
    env.filters["header"] = header
    return env


def _numeric(column: pd.Series) -> bool:
    values = column.dropna()
    return not values.empty and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in values.tolist()
    )


def render_html(report: Report) -> str:
    tables = {
        name: {
            "title": TITLES[name],
            "columns": list(df.columns),
            "rows": df.astype(object).where(df.notna(), None).to_dict("records"),
            "numeric": [c for c in df.columns if _numeric(df[c])],
        }
        for name, df in report.tables.items()
    }
    facts = report.facts
    cards = [
        ("tasks", fmt("n", facts["tasks"])),
        ("accepted", fmt("n", facts["accepted"])),
        ("yield of started", fmt("yield", facts["yield"])),
        ("tokens in", fmt("n", facts["tokens_in"])),
        ("of which cached", fmt("n", facts["tokens_cached"])),
        ("tokens out", fmt("n", facts["tokens_out"])),
        ("cost", fmt("cost_usd", facts["cost_usd"])),
        ("cost per accepted", fmt("cost_usd", facts["cost_per_accepted_usd"])),
        ("wall time", f"{facts['wall_s']:,.1f} s"),
    ]
    return (
        _environment()
        .get_template("report.html.j2")
        .render(
            run_id=report.run_id,
            facts=facts,
            band=report.band,
            cards=cards,
            tables=tables,
            charts=charts(report.tables, report.facts["cost_usd"], report.band),
            generated=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        )
    )


def write_html(report: Report, path: Path) -> Path:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(render_html(report), encoding="utf-8")
    tmp.replace(path)
    return path
