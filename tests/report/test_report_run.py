"""`synth report` on a real run of the scripted fake endpoint: its numbers are the script's."""

from __future__ import annotations

import json
import math
import shutil
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
from reading import ScriptedRun, html_tables

from synth.reporting.report import analyse, load_run

# 5 tasks: accept-a and revise-b accepted (revise-b after one revision), broken-c never passes
# the gate, easy-d is always solved, hard-e never.
YIELD = {
    "tasks": 5,
    "started": 5,
    "drafted": 5,
    "passed gate": 4,
    "passed filter": 2,
    "committed": 2,
}
REASONS = {"gate_failed": 1, "too_easy": 1, "too_hard": 1}
ROUNDS = {1: 3, 2: 1}  # rounds needed -> tasks (revise-b needed a second round)


def _price(prices: dict, call: dict) -> float:
    p = prices[call["model"]]
    return (
        call["tokens_in"] * p["input_per_mtok"] + call["tokens_out"] * p["output_per_mtok"]
    ) / 1e6


def _filter_rates(run_dir: Path) -> dict[str, float]:
    out = {}
    for path in (run_dir / "filter").glob("*.json"):
        out[path.stem] = json.loads(path.read_text())["pass_rate"]
    return out


@pytest.fixture(scope="module")
def report(scripted_run: ScriptedRun):
    return analyse(load_run(scripted_run.run_dir))


def test_yield_reasons_and_rounds_are_what_the_script_implies(report):
    t = report.tables
    assert dict(zip(t["yield"]["stage"], t["yield"]["tasks"], strict=True)) == YIELD
    assert dict(zip(t["reasons"]["reason_code"], t["reasons"]["tasks"], strict=True)) == REASONS
    assert set(t["reasons"]["status"]) == {"rejected"}
    assert dict(zip(t["rounds"]["rounds_needed"], t["rounds"]["tasks"], strict=True)) == ROUNDS
    assert dict(zip(t["rounds"]["rounds_needed"], t["rounds"]["committed"], strict=True)) == {
        1: 1,
        2: 1,
    }
    assert dict(zip(t["outcomes"]["status"], t["outcomes"]["tasks"], strict=True)) == {
        "accepted": 2,
        "rejected": 3,
    }
    tasks = t["tasks"].set_index("task")
    assert tasks.loc["local/revise-b", "gate_round"] == 1
    assert pd.isna(tasks.loc["local/broken-c", "gate_round"])
    assert tasks.loc["local/easy-d", "verdict"] == "too_easy"
    assert report.facts["accepted"] == 2 and report.facts["yield"] == pytest.approx(0.4)


def test_tokens_and_cost_equal_the_ledger_and_the_price_table(report, scripted_run: ScriptedRun):
    calls = scripted_run.ledger()
    assert calls
    t, f = report.tables, report.facts
    assert f["llm_calls"] == len(calls)
    assert f["tokens_in"] == sum(c["tokens_in"] for c in calls)
    assert f["tokens_out"] == sum(c["tokens_out"] for c in calls)
    expected_cost = sum(_price(scripted_run.prices, c) for c in calls)
    assert expected_cost > 0
    assert f["cost_usd"] == pytest.approx(expected_cost, rel=1e-4)
    by_role = t["tokens_by_role"].set_index("role")
    for role in ("coder", "solver"):
        mine = [c for c in calls if c["role"] == role]
        assert by_role.loc[role, "calls"] == len(mine)
        assert by_role.loc[role, "tokens_in"] == sum(c["tokens_in"] for c in mine)
        assert by_role.loc[role, "cost_usd"] == pytest.approx(
            sum(_price(scripted_run.prices, c) for c in mine), rel=1e-4
        )
    by_stage = t["tokens_by_stage"].set_index("stage")
    # 5 tasks x 2 drafts; broken-c revised twice, revise-b once
    assert by_stage.loc["draft", "calls"] == 10 and by_stage.loc["revise", "calls"] == 3
    assert by_stage.loc["solve", "calls"] == sum(c["role"] == "solver" for c in calls)
    per = t["cost_per_bootcamp"].set_index("bootcamp")
    assert set(per.index) == {"local_accept_a", "local_revise_b"}
    for name, task in (("local_accept_a", "local/accept-a"), ("local_revise_b", "local/revise-b")):
        mine = [c for c in calls if c["task"] == task]
        assert per.loc[name, "tokens_in"] == sum(c["tokens_in"] for c in mine)
        assert per.loc[name, "cost_usd"] == pytest.approx(
            sum(_price(scripted_run.prices, c) for c in mine), rel=1e-4
        )
    assert f["cost_per_accepted_usd"] == pytest.approx(expected_cost / 2, rel=1e-4)


def test_histogram_and_calibration_follow_the_filter_records(report, scripted_run: ScriptedRun):
    rates = _filter_rates(scripted_run.run_dir)
    assert len(rates) == 4  # broken-c never reached the filter
    assert rates["local_hard-e"] == 0.0 and rates["local_easy-d"] == 1.0
    expected = Counter(min(9, math.floor(r * 10 + 1e-9)) for r in rates.values())
    hist = report.tables["pass_rates"]
    assert list(hist["tasks"]) == [expected.get(i, 0) for i in range(10)]
    assert hist["tasks"].iloc[9] == 1 and hist["tasks"].iloc[0] >= 1  # easy-d, hard-e
    assert list(hist["in_band"]) == ["partly"] + ["yes"] * 7 + ["partly", "no"]  # [0.03, 0.85]
    levels = report.tables["calibration_levels"].set_index("level")
    assert list(levels.index) == ["easy", "medium", "hard"]  # the LEVELS order of the bootcamp
    # the solver is right on easy prompts only; easy-d is always solved, hard-e never
    assert levels.loc["easy", "mean_rate_accepted"] == 1.0
    assert levels.loc["hard", "mean_rate_accepted"] == 0.0
    assert levels.loc["easy", "mean_rate_all"] == pytest.approx(0.75)
    assert levels.loc["medium", "mean_rate_all"] == pytest.approx(0.25)
    assert (levels["bootcamps"] == 4).all()
    per = report.tables["calibration_bootcamps"].set_index("task")
    assert (
        per.loc["local/hard-e", "easy_rate"] == 0.0 and per.loc["local/easy-d", "hard_rate"] == 1.0
    )


def test_time_tables_count_every_node_step(report, scripted_run: ScriptedRun):
    events = [
        json.loads(x) for x in (scripted_run.run_dir / "events.jsonl").read_text().splitlines()
    ]
    nodes = [e for e in events if e["kind"] == "node"]
    time = report.tables["time_by_node"].set_index("node")
    for kind in ("draft", "check", "revise", "filter"):
        mine = [e["elapsed_s"] for e in nodes if e["node"] == kind]
        assert time.loc[kind, "steps"] == len(mine)
        assert time.loc[kind, "total_s"] == pytest.approx(sum(mine))
    # four tasks reach the filter; easy-d and hard-e get a steering round each, filtered again
    assert time.loc["filter", "steps"] == 6 and time.loc["draft", "steps"] == 5
    assert time.loc["steer", "steps"] == 2
    start = next(e["ts"] for e in events if e["kind"] == "run_start")
    end = next(e["ts"] for e in events if e["kind"] == "run_end")
    assert report.facts["wall_s"] == pytest.approx(end - start)
    assert list(report.tables["sessions"]["ended"]) == ["completed"]
    latency = report.tables["llm_latency"].set_index("role")
    assert latency.loc["solver", "calls"] == sum(
        e["role"] == "solver" for e in scripted_run.ledger()
    )


def test_cli_prints_writes_html_and_csv_with_the_same_numbers(
    scripted_run: ScriptedRun, invoke, tmp_path: Path
):
    csv_dir = tmp_path / "csv"
    res = invoke(scripted_run.run_id, "--runs-dir", scripted_run.runs_dir, "--csv", csv_dir)
    assert res.exit_code == 0, res.output
    out = res.stdout
    for reason in REASONS:
        assert reason in out
    calls = scripted_run.ledger()
    tokens_in = sum(c["tokens_in"] for c in calls)
    assert f"{tokens_in:,}" in out and "Yield per stage" in out and "passed filter" in out

    page = (scripted_run.run_dir / "report.html").read_text()
    assert page.count("<svg") >= 6
    for forbidden in ("<script", "<link", "http://", "https://", "src="):
        assert forbidden not in page  # one self-contained file, works offline
    tables = html_tables(page)
    assert {r["stage"]: int(r["tasks"]) for r in tables["yield"]} == YIELD
    assert {r["reason code"]: int(r["tasks"]) for r in tables["reasons"]} == REASONS
    assert {int(r["rounds needed"]): int(r["tasks"]) for r in tables["rounds"]} == ROUNDS
    roles = {r["role"]: r for r in tables["tokens_by_role"]}
    assert int(roles["coder"]["tokens in"].replace(",", "")) == sum(
        c["tokens_in"] for c in calls if c["role"] == "coder"
    )
    hist = [int(r["tasks"]) for r in tables["pass_rates"]]
    assert sum(hist) == 4 and hist[9] == 1
    cost = sum(_price(scripted_run.prices, c) for c in calls)
    assert f"${cost:,.4f}" in page

    names = {p.stem for p in csv_dir.glob("*.csv")}
    assert {
        "yield",
        "reasons",
        "rounds",
        "pass_rates",
        "calibration_levels",
        "tokens_by_role",
        "tokens_by_stage",
        "cost_per_bootcamp",
        "time_by_node",
        "llm_latency",
        "tasks",
    } <= names
    y = pd.read_csv(csv_dir / "yield.csv")
    assert dict(zip(y["stage"], y["tasks"], strict=True)) == YIELD
    r = pd.read_csv(csv_dir / "reasons.csv")
    assert dict(zip(r["reason_code"], r["tasks"], strict=True)) == REASONS
    roles_csv = pd.read_csv(csv_dir / "tokens_by_role.csv")
    assert roles_csv["tokens_in"].sum() == tokens_in
    assert roles_csv["cost_usd"].sum() == pytest.approx(cost, rel=1e-4)
    h = pd.read_csv(csv_dir / "pass_rates.csv")
    assert list(h["tasks"]) == hist
    tasks = pd.read_csv(csv_dir / "tasks.csv")
    assert len(tasks) == 5 and tasks["committed"].sum() == 2


def test_a_torn_last_line_is_tolerated(scripted_run: ScriptedRun, invoke, tmp_path: Path):
    runs = tmp_path / "runs"
    copy = shutil.copytree(scripted_run.run_dir, runs / scripted_run.run_id)
    with (copy / "events.jsonl").open("a") as fh:
        fh.write('{"ts": 1.0, "kind": "llm_call", "task": "local/accept-a", "tokens_in": 999')
    report = analyse(load_run(copy))
    assert report.facts["tokens_in"] == sum(c["tokens_in"] for c in scripted_run.ledger())
    res = invoke(scripted_run.run_id, "--runs-dir", runs)
    assert res.exit_code == 0, res.output
    assert (copy / "report.html").exists()


def test_an_unknown_run_id_exits_2_naming_the_runs_folder_and_recent_runs(
    scripted_run: ScriptedRun, invoke, tmp_path: Path
):
    res = invoke("20990101-000000-nope", "--runs-dir", scripted_run.runs_dir)
    assert res.exit_code == 2
    message = " ".join(res.stderr.split())
    assert "no run '20990101-000000-nope'" in message
    assert str(scripted_run.runs_dir) in message and scripted_run.run_id in message
    assert res.stdout == ""
    missing = invoke("x", "--runs-dir", tmp_path / "nowhere")
    assert missing.exit_code == 2 and "does not exist" in missing.stderr
    assert "--runs-dir" in missing.stderr


def test_the_run_folder_path_works_as_the_run_argument(scripted_run: ScriptedRun, invoke, tmp_path):
    runs = tmp_path / "runs"
    copy = shutil.copytree(scripted_run.run_dir, runs / scripted_run.run_id)
    (copy / "report.html").unlink(missing_ok=True)
    res = invoke(copy, "--no-html", "--runs-dir", tmp_path / "elsewhere")
    assert res.exit_code == 0, res.output
    assert "2 accepted of 5 task(s)" in " ".join(res.stdout.split())
    assert not (copy / "report.html").exists()


def test_prices_given_to_the_report_reprice_every_call(
    scripted_run: ScriptedRun, invoke, tmp_path: Path
):
    table = {"fake-coder": {"input_per_mtok": 10.0, "output_per_mtok": 30.0}}
    path = tmp_path / "prices.json"
    path.write_text(json.dumps(table))
    res = invoke(scripted_run.run_dir, "--prices", path, "--no-html", "--csv", tmp_path / "csv")
    assert res.exit_code == 0, res.output
    roles = pd.read_csv(tmp_path / "csv" / "tokens_by_role.csv").set_index("role")
    calls = scripted_run.ledger()
    coder = [c for c in calls if c["role"] == "coder"]
    solver = [c for c in calls if c["role"] == "solver"]
    assert roles.loc["coder", "cost_usd"] == pytest.approx(
        sum(_price(table, c) for c in coder), rel=1e-9
    )
    # a model missing from the table keeps the cost the run recorded
    assert roles.loc["solver", "cost_usd"] == pytest.approx(
        sum(_price(scripted_run.prices, c) for c in solver), rel=1e-4
    )
    path.write_text('{"fake-coder": {"input_per_mtok": -1}}')
    bad = invoke(scripted_run.run_dir, "--prices", path, "--no-html")
    assert bad.exit_code == 2 and "price table" in bad.stderr and bad.stdout == ""


def test_the_steering_rounds_and_cached_tokens_are_in_the_terminal_and_the_page(
    scripted_run: ScriptedRun, invoke, tmp_path: Path
):
    res = invoke(scripted_run.run_id, "--runs-dir", scripted_run.runs_dir, "--csv", tmp_path / "csv")
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "Difficulty steering" in out and "local/easy-d" in out and "local/hard-e" in out
    cached = sum(c.get("tokens_cached", 0) for c in scripted_run.ledger())
    assert cached > 0 and f"({cached:,} cached)" in out
    steering = pd.read_csv(tmp_path / "csv" / "steering.csv").set_index("task")
    assert steering.loc["local/easy-d", "verdict_before"] == "too_easy"
    assert steering.loc["local/easy-d", "verdict_after"] == "too_easy"
    assert steering.loc["local/hard-e", "pass_rate_after"] == 0.0
    page = (scripted_run.run_dir / "report.html").read_text()
    assert 'id="steering"' in page and "of which cached" in page
