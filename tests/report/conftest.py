"""A real run made once per session with the scripted fake endpoint; the CLI as a fixture."""

from __future__ import annotations

import json

import pytest
import typer
from reading import PRICES, SCRIPTED, ScriptedRun
from typer.testing import CliRunner
from workflow.e2e import FakeEndpoint, only_run, run_args, synth, synth_env, write_tasks

from synth.commands.report import report_command


@pytest.fixture(scope="session")
def scripted_run(tmp_path_factory: pytest.TempPathFactory) -> ScriptedRun:
    tmp = tmp_path_factory.mktemp("report-run")
    prices = tmp / "prices.json"
    prices.write_text(json.dumps(PRICES))
    tasks = write_tasks(tmp / "tasks", SCRIPTED)
    fake = FakeEndpoint(tmp, "toy")
    try:
        args = run_args(tasks, tmp / "lib", tmp / "runs", "--prices", str(prices))
        res = synth(args, synth_env(fake.base_url))
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    return ScriptedRun(tmp / "runs", only_run(tmp / "runs"), PRICES)


@pytest.fixture
def invoke():
    """Call `report_command` as the CLI does; returns click's Result (stdout, stderr, exit_code)."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    app.command()(report_command)
    runner = CliRunner()

    def run(*args: str):
        return runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "140"})

    return run
