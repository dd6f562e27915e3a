"""The report's pure functions on hand-made event lists: counting rules, sessions, binning."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from synth.models.llm import Price
from synth.reporting.charts import columns_svg, hbar_svg
from synth.reporting.report import (
    RunRecords,
    analyse,
    fmt,
    render_html,
    sessions,
)

CONFIG = {"band_low": 0.03, "band_high": 0.85, "coder": {"model": "c"}, "solver": {"model": "s"}}


def call(task: str, tag: str, role: str, tin: int, tout: int, cost: float, ts: float, ok=True):
    return {
        "ts": ts,
        "kind": "llm_call",
        "task": task,
        "role": role,
        "model": role[0],
        "tag": f"{task}|{tag}",
        "tokens_in": tin,
        "tokens_out": tout,
        "latency_s": 0.5,
        "cost_usd": cost,
        "attempts": 1,
        "ok": ok,
    }


def resumed_run() -> list[dict]:
    """Session 1 is killed while A is being checked; session 2 resumes A and B, skips C."""
    return [
        {"ts": 100.0, "kind": "run_start", "task": None, "tasks": 3},
        {"ts": 100.1, "kind": "task_start", "task": "A", "resumed": False},
        {"ts": 100.2, "kind": "task_start", "task": "B", "resumed": False},
        call("A", "draft|0", "coder", 1000, 100, 0.01, 101.0),
        call("A", "draft|1", "coder", 1000, 120, 0.01, 101.1),
        {
            "ts": 101.2,
            "kind": "node",
            "task": "A",
            "node": "draft",
            "round": 0,
            "elapsed_s": 1.0,
            "with_code": 2,
            "failures": [],
        },
        {
            "ts": 102.0,
            "kind": "node",
            "task": "A",
            "node": "check",
            "round": 0,
            "passed": True,
            "elapsed_s": 0.8,
        },
        # killed here: no task_end, no run_end
        {"ts": 200.0, "kind": "run_start", "task": None, "tasks": 3},
        {"ts": 200.1, "kind": "task_start", "task": "A", "resumed": True},
        {"ts": 200.2, "kind": "task_start", "task": "B", "resumed": True},
        # the check node is replayed from its checkpoint
        {
            "ts": 201.0,
            "kind": "node",
            "task": "A",
            "node": "check",
            "round": 0,
            "passed": True,
            "elapsed_s": 0.7,
        },
        call("A", "solve", "solver", 50, 5, 0.001, 201.5),
        call("A", "solve", "solver", 50, 5, 0.001, 201.6),
        {
            "ts": 202.0,
            "kind": "filter",
            "task": "A",
            "verdict": "accepted",
            "pass_rate": 0.5,
            "answered": 2,
            "level_pass_rates": {"easy": 1.0, "hard": 0.0},
            "level_counts": {"easy": 1, "hard": 1},
        },
        {"ts": 202.1, "kind": "node", "task": "A", "node": "filter", "elapsed_s": 1.1},
        {"ts": 202.2, "kind": "commit", "task": "A", "name": "bc_a", "pass_rate": 0.5},
        {
            "ts": 202.3,
            "kind": "task_end",
            "task": "A",
            "status": "accepted",
            "reason_code": "accepted",
            "reason": "committed as bc_a",
            "bootcamp": "bc_a",
        },
        call("B", "draft|0", "coder", 900, 0, 0.0, 203.0, ok=False),
        {
            "ts": 203.1,
            "kind": "node",
            "task": "B",
            "node": "draft",
            "round": 0,
            "elapsed_s": 0.4,
            "with_code": 0,
            "failures": ["llm_timeout"],
        },
        {"ts": 203.2, "kind": "reject", "task": "B", "reason_code": "llm_failure", "reason": "x"},
        {
            "ts": 203.3,
            "kind": "task_end",
            "task": "B",
            "status": "rejected",
            "reason_code": "llm_failure",
            "reason": "every draft call failed",
            "bootcamp": None,
        },
        {
            "ts": 203.4,
            "kind": "task_end",
            "task": "C",
            "status": "skipped",
            "reason_code": "in_library",
            "reason": "already in the library",
            "bootcamp": "bc_c",
        },
        {"ts": 204.0, "kind": "run_end", "task": None},
    ]


def table(report, name: str, key: str, value: str) -> dict:
    df = report.tables[name]
    return dict(zip(df[key], df[value], strict=True))


def test_a_resumed_run_counts_each_task_once_and_every_call_and_session():
    events = resumed_run()
    report = analyse(RunRecords(run_id="r", events=events, config=CONFIG, task_ids=["A", "B", "C"]))
    assert table(report, "yield", "stage", "tasks") == {
        "tasks": 3,
        "started": 2,
        "drafted": 1,
        "passed gate": 1,
        "passed filter": 1,
        "committed": 1,
    }
    assert table(report, "outcomes", "status", "tasks") == {
        "accepted": 1,
        "rejected": 1,
        "skipped": 1,
    }
    assert table(report, "reasons", "reason_code", "tasks") == {"llm_failure": 1, "in_library": 1}
    assert table(report, "rounds", "rounds_needed", "tasks") == {1: 1}  # replayed check: once
    # every call was paid for, in both sessions
    f = report.facts
    assert (f["llm_calls"], f["tokens_in"], f["tokens_out"]) == (5, 3000, 230)
    assert f["cost_usd"] == pytest.approx(0.022)
    assert f["cost_per_accepted_usd"] == pytest.approx(0.022)
    roles = report.tables["tokens_by_role"].set_index("role")
    assert roles.loc["coder", "failed_calls"] == 1 and roles.loc["solver", "calls"] == 2
    # node steps count as often as they ran (the replay took time too)
    time = report.tables["time_by_node"].set_index("node")
    assert time.loc["check", "steps"] == 2 and time.loc["check", "total_s"] == pytest.approx(1.5)
    s = report.tables["sessions"]
    assert list(s["ended"]) == ["interrupted", "completed"]
    assert list(s["wall_s"]) == pytest.approx([2.0, 4.0])
    assert f["wall_s"] == pytest.approx(6.0) and f["sessions"] == 2
    per = report.tables["cost_per_bootcamp"]
    assert list(per["bootcamp"]) == ["bc_a"] and per["tokens_in"].iloc[0] == 2100


def test_the_last_task_end_wins_and_a_repeated_one_is_not_double_counted():
    events = resumed_run()
    # a third session re-reports the finished tasks (as a resume of a finished run does)
    events += [
        {"ts": 300.0, "kind": "run_start", "task": None},
        {
            "ts": 300.1,
            "kind": "task_end",
            "task": "A",
            "status": "accepted",
            "reason_code": "accepted",
            "reason": "committed as bc_a",
            "bootcamp": "bc_a",
        },
        {
            "ts": 300.2,
            "kind": "task_end",
            "task": "B",
            "status": "rejected",
            "reason_code": "llm_failure",
            "reason": "again",
            "bootcamp": None,
        },
        {"ts": 300.3, "kind": "run_end", "task": None},
    ]
    report = analyse(RunRecords(run_id="r", events=events, config=CONFIG))
    assert table(report, "outcomes", "status", "tasks") == {
        "accepted": 1,
        "rejected": 1,
        "skipped": 1,
    }
    assert report.tables["tasks"].set_index("task").loc["B", "reason"] == "again"
    assert list(report.tables["sessions"]["tasks_ended"]) == [0, 3, 2]


def test_an_interrupted_run_without_summary_shows_unfinished_tasks():
    events = resumed_run()[:7]  # killed in session 1
    report = analyse(RunRecords(run_id="r", events=events, config=CONFIG, task_ids=["A", "B", "C"]))
    status = table(report, "tasks", "task", "status")
    assert status == {"A": "interrupted", "B": "interrupted", "C": "not_started"}
    assert table(report, "yield", "stage", "tasks")["passed gate"] == 1
    assert report.tables["sessions"]["ended"].tolist() == ["interrupted"]


def test_the_summary_fills_in_tasks_without_a_task_end():
    summary = {
        "outcomes": [
            {
                "task_id": "X",
                "status": "not_started",
                "reason_code": "budget",
                "reason": "budget spent",
                "bootcamp": None,
            }
        ]
    }
    report = analyse(RunRecords(run_id="r", events=[], summary=summary, config=CONFIG))
    assert table(report, "reasons", "reason_code", "status") == {"budget": "not_started"}
    assert table(report, "yield", "stage", "tasks")["started"] == 0
    assert report.facts["yield"] == 0.0 and report.facts["cost_per_accepted_usd"] is None


def test_pass_rate_bins_are_tenths_with_the_last_bin_closed_and_the_band_marked():
    events = [
        {"ts": 1.0 + i, "kind": "filter", "task": f"t{i}", "verdict": "x", "pass_rate": r}
        for i, r in enumerate([0.0, 0.03, 0.1, 0.3, 0.85, 0.9, 1.0, None])
    ]
    report = analyse(
        RunRecords(run_id="r", events=events, config={"band_low": 0.2, "band_high": 0.6})
    )
    hist = report.tables["pass_rates"]
    assert list(hist["tasks"]) == [2, 1, 0, 1, 0, 0, 0, 0, 1, 2]
    assert list(hist["in_band"]) == [
        "no",
        "partly",
        "yes",
        "yes",
        "yes",
        "yes",
        "partly",
        "no",
        "no",
        "no",
    ]
    assert report.band == (0.2, 0.6)


def test_an_empty_log_gives_an_empty_report_not_an_error():
    report = analyse(RunRecords(run_id="empty", events=[], config={}))
    assert table(report, "yield", "stage", "tasks")["tasks"] == 0
    assert report.facts["tokens_in"] == 0 and report.tables["reasons"].empty
    page = render_html(report)
    assert "empty" in page and "<svg" in page


def test_the_page_escapes_what_came_from_models_and_files():
    events = resumed_run()
    events[-3]["reason_code"] = "<script>alert(1)</script>"
    events[-3]["reason"] = "<img src=x onerror=alert(1)>"
    page = render_html(analyse(RunRecords(run_id="r<b>", events=events, config=CONFIG)))
    assert "<script" not in page and "<img" not in page and "<b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_charts_scale_bars_to_the_largest_value():
    svg = hbar_svg([("a", 4.0), ("b", 1.0)], "t")
    widths = [float(w) for w in re.findall(r'<rect class="bar"[^>]* width="([\d.]+)"', svg)]
    assert len(widths) == 2
    assert widths[0] == pytest.approx(4 * widths[1])
    cols = columns_svg(["x", "y"], [("s", [1.0, None])], "c", y_max=1.0, y_band=(0.25, 0.75))
    assert cols.count('class="col s0"') == 1 and 'class="band"' in cols


def test_cells_read_as_money_seconds_rates_and_counts():
    assert fmt("cost_usd", 0.123456) == "$0.1235"
    assert fmt("wall_s", 3.14159) == "3.14"
    assert fmt("pass_rate", 1.0) == "1.000"
    assert fmt("tokens_in", 12345.0) == "12,345"
    assert fmt("share_of_started", 0.4) == "40%"
    assert fmt("gate_round", pd.NA) == "–" and fmt("x", None) == "–"
    assert fmt("committed", True) == "yes"


def test_sessions_without_a_run_start_are_empty():
    assert sessions([{"ts": 1.0, "kind": "task_end", "task": "A"}]).empty


def test_a_price_table_reprices_only_the_models_it_names():
    prices = {"c": Price(input_per_mtok=1.0, output_per_mtok=2.0)}
    report = analyse(RunRecords(run_id="r", events=resumed_run(), config=CONFIG), prices)
    roles = report.tables["tokens_by_role"].set_index("role")
    assert roles.loc["coder", "cost_usd"] == pytest.approx((2900 * 1.0 + 220 * 2.0) / 1e6)
    assert roles.loc["solver", "cost_usd"] == pytest.approx(0.002)  # as recorded
    assert report.facts["repriced"] is True


def test_a_run_with_nothing_accepted_charts_no_missing_numbers():
    events = [
        {"ts": 1.0, "kind": "run_start", "task": None},
        {
            "ts": 2.0,
            "kind": "filter",
            "task": "t",
            "verdict": "too_hard",
            "pass_rate": 0.0,
            "level_pass_rates": {"easy": 0.0, "hard": 0.0},
            "level_counts": {"easy": 4, "hard": 4},
        },
        {
            "ts": 3.0,
            "kind": "task_end",
            "task": "t",
            "status": "rejected",
            "reason_code": "too_hard",
            "reason": "filter",
            "bootcamp": None,
        },
    ]
    report = analyse(RunRecords(run_id="r", events=events, config=CONFIG))
    levels = report.tables["calibration_levels"].set_index("level")
    assert levels.loc["easy", "mean_rate_all"] == 0.0
    assert pd.isna(levels.loc["easy", "mean_rate_accepted"])
    page = render_html(report)
    assert not re.search(r'="[^"]*nan', page, re.IGNORECASE)
    assert report.facts["cost_per_accepted_usd"] is None


def test_a_prefix_warm_up_is_the_runs_call_not_a_task():
    # as runs before the fix logged it (task "warmup") and as they log it now (no task)
    for task in ("warmup", None):
        warm = {**call("warmup", "compiled", "warmup", 900, 1, 0.001, 100.05), "task": task}
        events = [resumed_run()[0], warm, *resumed_run()[1:]]
        report = analyse(RunRecords(run_id="r", events=events, config=CONFIG,
                                    task_ids=["A", "B", "C"]))
        assert table(report, "yield", "stage", "tasks")["tasks"] == 3
        outcomes = table(report, "outcomes", "status", "tasks")
        assert outcomes == {"accepted": 1, "rejected": 1, "skipped": 1}
        assert "warmup" not in set(report.tables["tasks"]["task"])
        assert "(none)" not in set(report.tables["reasons"].get("reason_code", []))
        f = report.facts  # the call is still paid for
        assert (f["llm_calls"], f["tokens_in"]) == (6, 3900)
