"""Input validators (``validate(stdin) -> None | str``) in the sandbox, the gate and the CLI.

The validator is untrusted code in a session of its own: it only answers, the host judges its
replies, and a validator that raises, answers with something else or hangs is the validator's
failure (``validator_broken``), never the bootcamp's. A rejected input is the bootcamp's
finding ``validator_rejects_input``, with the case, its stdin and the reason.
"""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path

import pytest
import typer
from helpers import assert_no_leftovers, pids_with
from typer.testing import CliRunner

from synth.commands.check import check_command, load_task_file
from synth.gate import CheckReport, run_checks
from synth.gate.calls import REASON_CHARS, Failure, Validator
from synth.gate.validator import examples_rejected, static_problems
from synth.sandbox.methods import MethodServer

REPO = Path(__file__).resolve().parents[2]
QUEUE = REPO / "tests" / "fixtures" / "compiled" / "12_rebuild_the_queue.py"
SAMPLE = REPO / "task_descriptions" / "codecontests" / "sample.jsonl"

#: a validator of "Rebuild the Queue" (record 12) written like testlib's strict readers: the
#: count, then n integers 0 <= b_i <= n, written without leading zeros or signs
QUEUE_VALIDATOR = '''"""Input validator for Rebuild the Queue (test fixture)."""

import re

INT = re.compile(r"0|[1-9][0-9]*")


def validate(stdin):
    lines = stdin.split("\\n")
    if len(lines) != 3 or lines[2] != "":
        return "expected exactly two lines, each ending in a newline"
    if not INT.fullmatch(lines[0]):
        return f"the first line must be one integer n written plainly, not {lines[0][:20]!r}"
    n = int(lines[0])
    if not 1 <= n <= 200000:
        return f"n = {n} is outside 1 <= n <= 2*10^5"
    values = lines[1].split(" ")
    if len(values) != n:
        return f"the second line holds {len(values)} values, not n = {n}"
    for i, v in enumerate(values, 1):
        if not INT.fullmatch(v):
            return f"b_{i} = {v!r} is not an integer written plainly (no sign, no leading zero)"
        if int(v) > n:
            return f"b_{i} = {v} breaks 0 <= b_i <= n (n = {n})"
    return None
'''

RAISES = "def validate(stdin):\n    return int(stdin.split()[0]) // 0\n"
NOT_A_STR = "def validate(stdin):\n    return len(stdin) > 0\n"
HANGS = "def validate(stdin):\n    while True:\n        pass\n"
#: swallows the interrupt of its own time limit: only the host's kill stops it
STUBBORN = ("def validate(stdin):\n    while True:\n        try:\n            while True:\n"
            "                pass\n        except BaseException:\n            pass\n")


def queue_source() -> str:
    return QUEUE.read_text(encoding="utf-8")


def padded_queue() -> str:
    """The queue bootcamp with a planted defect: its generated inputs write every b_i with a
    leading zero ("04 00 01"); the reference program still reads them (int("04") == 4), so
    every other check agrees with itself, and the statement's bounds all hold."""
    source = queue_source()
    old = "return f\"{len(b)}\\n{' '.join(map(str, b))}\\n\""
    assert source.count(old) == 1
    return source.replace(old, "return f\"{len(b)}\\n{' '.join(f'{x:02d}' for x in b)}\\n\"")


def inputs_of(report: CheckReport):
    result = report.get("inputs")
    assert result is not None
    return result


# -- the sandboxed validator ------------------------------------------------------------------


def test_the_validator_mode_accepts_and_rejects_in_one_batch(process_backend):
    source = QUEUE_VALIDATOR.replace(
        "    lines = stdin.split", "    if stdin.startswith('x'):\n        return 'too   long\\n' * 500\n"
        "    lines = stdin.split")
    validator = Validator(MethodServer(source, backend=process_backend, mode="validator",
                                       role="validator"))
    try:
        validator.load()
        verdicts = validator.validate_many(
            ["4\n0 1 0 2\n", "3\n0 2 0\n", "4\n0 1 0 9\n", "2\n0 1 0\n", "x\n"] * 20, 2.0)
    finally:
        validator.server.close()
    assert len(verdicts) == 100 and verdicts[5:10] == verdicts[:5]
    assert verdicts[0] is None and verdicts[1] is None
    assert verdicts[2] == "b_4 = 9 breaks 0 <= b_i <= n (n = 4)"
    assert verdicts[3] == "the second line holds 3 values, not n = 2"
    reason = verdicts[4]
    assert reason is not None and len(reason) == REASON_CHARS
    assert reason.startswith("too long too long")  # one line, whitespace folded


def test_examples_rejected_names_each_rejected_example(process_backend):
    assert examples_rejected(QUEUE_VALIDATOR, ["4\n0 1 0 2\n", "3\n0 2 0\n"], process_backend) == []
    got = examples_rejected(QUEUE_VALIDATOR, ["4\n0 1 0 2\n", "4\n00 1 0 2\n"], process_backend)
    assert got == [("4\n00 1 0 2\n", "b_1 = '00' is not an integer written plainly (no sign, "
                    "no leading zero)")]


@pytest.mark.parametrize(("source", "says"), [
    (RAISES, "raised ZeroDivisionError"),
    (NOT_A_STR, "returned a bool (True) on input 0, not None"),
    ("def check(identity, answer):\n    return True\n", "defines no validate(stdin)"),
])
def test_a_broken_validator_is_the_validators_failure(process_backend, source, says):
    with pytest.raises(Failure) as caught:
        examples_rejected(source, ["4\n0 1 0 2\n"], process_backend)
    assert caught.value.finding == "validator_broken"
    assert says in caught.value.what + caught.value.trace


def test_the_static_gate_of_a_validator():
    assert static_problems(QUEUE_VALIDATOR) is None
    assert "validate(stdin)" in (static_problems("def check(i, a):\n    return 1\n") or "")
    assert "'os'" in (static_problems("import os\n\ndef validate(stdin):\n    return None\n") or "")


def test_a_validator_that_ignores_its_time_limit_is_killed(process_backend):
    label = f"validator-stubborn-{uuid.uuid4().hex[:12]}"
    validator = Validator(MethodServer(STUBBORN, backend=process_backend, mode="validator",
                                       role="validator", label=label))
    start = time.monotonic()
    try:
        validator.load()
        with pytest.raises(Failure) as caught:
            validator.validate_many(["1\n0\n", "1\n0\n"], 0.5)
    finally:
        validator.server.close()
    elapsed = time.monotonic() - start
    assert caught.value.status == "timeout" and caught.value.finding == "validator_broken"
    assert elapsed < 5.0, elapsed  # 2 x 0.5 s + 1 s for the batch, + the host's grace
    assert_no_leftovers(label)


# -- in the gate --------------------------------------------------------------------------------


def test_a_validator_that_accepts_every_input_passes(process_backend):
    report = run_checks(queue_source(), backend=process_backend, validator=QUEUE_VALIDATOR)
    assert report.passed, report.feedback()
    inputs = inputs_of(report)
    assert "validator: " in inputs.artifacts["checked"]


def test_a_rejected_input_is_the_bootcamps_finding_with_the_case_and_the_reason(process_backend):
    defective = padded_queue()
    alone = run_checks(defective, backend=process_backend)
    assert alone.passed, "the statement's rules alone do not see leading zeros"
    report = run_checks(defective, backend=process_backend, validator=QUEUE_VALIDATOR)
    assert not report.passed
    inputs = inputs_of(report)
    assert inputs.status.value == "failed" and inputs.finding == "validator_rejects_input"
    assert "not an integer written plainly" in inputs.reason
    assert "not an integer written plainly" in inputs.artifacts["validator_says"]
    stdin = inputs.artifacts["stdin"]
    assert stdin.split("\n")[1].split()[0].startswith("0") and json.loads(inputs.artifacts["case"])["b"]
    feedback = report.feedback()
    assert "## inputs: failed" in feedback and "validator_says:" in feedback and "stdin:" in feedback


@pytest.mark.parametrize(("source", "status"), [(RAISES, "error"), (NOT_A_STR, "failed")])
def test_a_broken_validator_never_rejects_the_bootcamp(process_backend, source, status):
    report = run_checks(queue_source(), backend=process_backend, validator=source)
    inputs = inputs_of(report)
    assert inputs.finding == "validator_broken" and inputs.status.value == status
    assert not inputs.hard and report.passed


def test_a_hanging_validator_costs_its_time_limit_and_leaves_no_process(process_backend):
    marker = "serve\x00validator\x00"  # the kit serving a validator (argv is NUL-separated)
    before = pids_with(marker)
    start = time.monotonic()
    report = run_checks(queue_source(), backend=process_backend, validator=HANGS)
    elapsed = time.monotonic() - start
    baseline = report.timings["total_s"] - inputs_of(report).elapsed_s
    inputs = inputs_of(report)
    assert inputs.finding == "validator_broken" and inputs.status.value == "timeout"
    assert report.passed
    assert inputs.elapsed_s < 2.0 + 2.5, inputs.elapsed_s  # one call's 2 s limit, and start-up
    assert elapsed < baseline + 6.0, (elapsed, baseline)
    assert_no_leftovers(marker, before=before)


# -- the CLI ------------------------------------------------------------------------------------

app = typer.Typer()
app.command("check")(check_command)


@app.callback()
def _root() -> None:
    """Keep `check` a named subcommand, as in synth/cli.py."""


def invoke(*args: str):
    return CliRunner().invoke(app, ["check", *args], env={"COLUMNS": "250"})


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    out = {"validator": tmp_path / "queue_validator.py", "padded": tmp_path / "padded_queue.py",
           "task": tmp_path / "queue.jsonl", "many": tmp_path / "many.jsonl"}
    out["validator"].write_text(QUEUE_VALIDATOR)
    out["padded"].write_text(padded_queue())
    out["task"].write_text(SAMPLE.read_text().splitlines()[11] + "\n")
    out["many"].write_text(SAMPLE.read_text())
    return out


def test_check_with_a_users_validator(files):
    res = invoke(str(QUEUE), "--validator", str(files["validator"]), "--sandbox", "process")
    assert res.exit_code == 0, res.output
    res = invoke(str(files["padded"]), "--validator", str(files["validator"]), "--sandbox", "process")
    assert res.exit_code == 1, res.output
    assert "rejected by inputs/validator_rejects_input" in res.output
    assert "not an integer written plainly" in res.output


def test_check_with_a_task_file(files):
    res = invoke(str(files["padded"]), "--task", str(files["task"]), "--validator",
                 str(files["validator"]), "--sandbox", "process", "--json")
    assert res.exit_code == 1, res.output
    data = json.loads(res.stdout)
    inputs = next(c for c in data["checks"] if c["name"] == "inputs")
    assert inputs["finding"] == "validator_rejects_input"
    task = load_task_file(files["task"])
    assert task.title == "Rebuild the Queue" and [e.input for e in task.examples] == ["4\n0 1 0 2\n", "3\n0 2 0\n"]


@pytest.mark.parametrize(("flag", "name", "says"), [
    ("--validator", "missing.py", "--validator"),
    ("--task", "missing.md", "--task"),
    ("--task", "many", "holds 18 records; give a file of exactly one task"),
    ("--task", "validator", "expected a .md task description or a .json/.jsonl record"),
])
def test_bad_files_say_what_to_do(files, tmp_path, flag, name, says):
    path = files.get(name, tmp_path / name)
    res = invoke(str(QUEUE), flag, str(path), "--sandbox", "process")
    assert res.exit_code == 2, res.output
    assert says in res.output and res.output.count("error:") == 1


def test_a_task_file_gives_a_full_mode_bootcamp_the_inputs_check(tmp_path):
    module = REPO / "tests" / "defects" / "corpus" / "clean_sum_oracle.py"
    task = tmp_path / "sum.md"
    task.write_text("---\nid: sum-list\ntitle: Sum of a list\n---\nGiven n integers, print their "
                    "sum.\n\nInput\n\nThe first line contains one integer n (1 ≤ n ≤ 100). The "
                    "second line contains n integers a_1, ..., a_n (0 ≤ a_i ≤ 10^6).\n\nOutput\n\n"
                    "Print the sum.\n\nExamples\n\nInput\n\n3\n1 2 3\n\n\nOutput\n\n6\n")
    res = invoke(str(module), "--sandbox", "process", "--json")
    assert res.exit_code == 0, res.output
    inputs = next(c for c in json.loads(res.stdout)["checks"] if c["name"] == "inputs")
    assert inputs["status"] == "skipped"
    res = invoke(str(module), "--task", str(task), "--sandbox", "process", "--json")
    assert res.exit_code == 0, res.output
    inputs = next(c for c in json.loads(res.stdout)["checks"] if c["name"] == "inputs")
    assert inputs["status"] == "passed" and "(0 ≤ a_i ≤ 10^6)" in inputs["artifacts"]["checked"]
